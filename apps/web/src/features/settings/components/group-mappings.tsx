import { accessTypeLabel, DIRECTORY_ACCESS_TYPES } from '@quire/contract';
import { Button } from '../../../components/button';
import type { Mapping } from '../lib/directory-settings';

/**
 * Directory groups mapped to a Quire group and, optionally, an access type: a row each, edited
 * in place, added and removed. `errors` are the API's by path (`group_mappings.0.directory_group`).
 */
export function GroupMappings({
  id,
  mappings,
  onChange,
  groups,
  errors,
}: {
  id: string;
  mappings: Mapping[];
  onChange: (mappings: Mapping[]) => void;
  groups: { id: number; name: string }[];
  errors: Record<string, string>;
}) {
  return (
    <fieldset className="form">
      <legend>Group mapping</legend>
      <p className="muted">Members of a directory group join a Quire group, and may get more access.</p>
      {mappings.map((m, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place
        <div className="toolbar" key={i}>
          <div className="field field--grow">
            <label htmlFor={`${id}-map-${i}`}>Directory group DN</label>
            <input
              id={`${id}-map-${i}`}
              value={m.directory_group}
              onChange={(e) =>
                onChange(mappings.map((x, j) => (j === i ? { ...x, directory_group: e.target.value } : x)))
              }
              aria-invalid={errors[`group_mappings.${i}.directory_group`] ? true : undefined}
            />
            {errors[`group_mappings.${i}.directory_group`] ? (
              <p className="field__error">{errors[`group_mappings.${i}.directory_group`]}</p>
            ) : null}
          </div>
          <div className="field">
            <label htmlFor={`${id}-mapg-${i}`}>Quire group</label>
            <select
              id={`${id}-mapg-${i}`}
              value={m.group_id ?? ''}
              onChange={(e) =>
                onChange(
                  mappings.map((x, j) =>
                    j === i ? { ...x, group_id: e.target.value ? Number(e.target.value) : null } : x,
                  ),
                )
              }
            >
              <option value="">None</option>
              {groups.map((g) => (
                <option key={g.id} value={g.id}>
                  {g.name}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-mapa-${i}`}>Access type</label>
            <select
              id={`${id}-mapa-${i}`}
              value={m.access_type ?? ''}
              onChange={(e) =>
                onChange(
                  mappings.map((x, j) => (j === i ? { ...x, access_type: e.target.value || null } : x)),
                )
              }
            >
              <option value="">Unchanged</option>
              <DirectoryAccessOptions />
            </select>
          </div>
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
