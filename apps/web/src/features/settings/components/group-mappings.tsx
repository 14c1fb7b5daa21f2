import { accessTypeLabel, DIRECTORY_ACCESS_TYPES } from '@quire/contract';
import { Button } from '../../../components/button';
import { Field, SelectField } from '../../../components/form-field';
import type { Mapping } from '../lib/directory-settings';

/**
 * Directory groups mapped to a Quire group and, optionally, an access type: a row each, edited
 * in place, added and removed. `errors` are the API's by path (`group_mappings.0.directory_group`).
 */
export function GroupMappings({
  mappings,
  onChange,
  groups,
  errors,
}: {
  mappings: Mapping[];
  onChange: (mappings: Mapping[]) => void;
  groups: { id: number; name: string }[];
  errors: Record<string, string>;
}) {
  const setRow = (i: number, change: Partial<Mapping>) =>
    onChange(mappings.map((x, j) => (j === i ? { ...x, ...change } : x)));
  return (
    <fieldset className="form">
      <legend>Group mapping</legend>
      <p className="muted">Members of a directory group join a Quire group, and may get more access.</p>
      {mappings.map((m, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place
        <div className="toolbar" key={i}>
          <Field
            label="Directory group DN"
            error={errors[`group_mappings.${i}.directory_group`]}
            className="field--grow"
          >
            {(control) => (
              <input
                {...control}
                value={m.directory_group}
                onChange={(e) => setRow(i, { directory_group: e.target.value })}
              />
            )}
          </Field>
          <SelectField
            label="Quire group"
            placeholder="None"
            options={groups.map((g) => ({ value: g.id, label: g.name }))}
            value={m.group_id ?? ''}
            onChange={(e) => setRow(i, { group_id: e.target.value ? Number(e.target.value) : null })}
          />
          <SelectField
            label="Access type"
            placeholder="Unchanged"
            value={m.access_type ?? ''}
            onChange={(e) => setRow(i, { access_type: e.target.value || null })}
          >
            <DirectoryAccessOptions />
          </SelectField>
          <Button
            variant="ghost"
            small
            aria-label={`Remove the mapping of ${m.directory_group || 'this group'}`}
            onClick={() => onChange(mappings.filter((_, j) => j !== i))}
          >
            Remove
          </Button>
        </div>
      ))}
      <div>
        <Button
          variant="ghost"
          small
          onClick={() => onChange([...mappings, { directory_group: '', group_id: null, access_type: null }])}
        >
          Add a group mapping
        </Button>
      </div>
    </fieldset>
  );
}

/** The access types a directory account may get, as a select's options. */
export function DirectoryAccessOptions() {
  return DIRECTORY_ACCESS_TYPES.map((t) => (
    <option key={t} value={t}>
      {accessTypeLabel(t)}
    </option>
  ));
}
