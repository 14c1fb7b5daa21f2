import { useState } from 'react';
import { SelectField } from '../../../components/form-field';
import { useGroupChoices, usePeopleChoices } from '../api/intake';

/** How what arrives is left: indexed, or unindexed for the owner, a person or a group. */
export type FiledAs = 'index' | 'owner' | 'person' | 'group';

const LABELS: Record<FiledAs, string> = {
  index: 'Indexed into the category',
  owner: 'Left unindexed for the owner',
  person: 'Left unindexed for a person',
  group: 'Left unindexed for a group (each member may index or drop it)',
};

export type UnindexedForErrors = Partial<Record<'unindexed_user_id' | 'unindexed_group_id', string>>;

/** The choice as the form holds it: FormData's `filed_as`, `unindexed_user_id`, `unindexed_group_id`. */
export function unindexedForOf(data: FormData) {
  const filedAs = String(data.get('filed_as') ?? 'index') as FiledAs;
  const id = (name: string) => (data.get(name) ? Number(data.get(name)) : null);
  return {
    filedAs,
    userId: filedAs === 'person' ? id('unindexed_user_id') : null,
    groupId: filedAs === 'group' ? id('unindexed_group_id') : null,
  };
}

/** What is missing from the choice: the person or group it names. */
export function checkUnindexedFor(choice: ReturnType<typeof unindexedForOf>): UnindexedForErrors {
  if (choice.filedAs === 'person' && choice.userId === null)
    return { unindexed_user_id: 'Choose the person it is left for' };
  if (choice.filedAs === 'group' && choice.groupId === null)
    return { unindexed_group_id: 'Choose the group it is left for' };
  return {};
}

/**
 * Radio buttons (arrow keys move between them) for how a source or rule leaves what arrives,
 * and, for a person or a group, the select that names them. Its values are read back with
 * `unindexedForOf`.
 */
export function UnindexedForChoice({
  legend,
  kinds,
  initial,
  errors,
  onChange,
}: {
  legend: string;
  kinds: readonly FiledAs[];
  initial: { filedAs: FiledAs; userId?: number | null; groupId?: number | null };
  errors: UnindexedForErrors;
  onChange?: (filedAs: FiledAs) => void;
}) {
  const [filedAs, setFiledAs] = useState<FiledAs>(initial.filedAs);
  // Controlled: the choices may load after the form opens.
  const [userId, setUserId] = useState(initial.userId ? String(initial.userId) : '');
  const [groupId, setGroupId] = useState(initial.groupId ? String(initial.groupId) : '');
  const people = usePeopleChoices();
  const groups = useGroupChoices();
  return (
    <fieldset className="plain-fieldset field--wide">
      <legend>{legend}</legend>
      {kinds.map((kind) => (
        <div key={kind}>
          <label className="checkbox">
            <input
              type="radio"
              name="filed_as"
              value={kind}
              checked={filedAs === kind}
              onChange={() => {
                setFiledAs(kind);
                onChange?.(kind);
              }}
            />{' '}
            {LABELS[kind]}
          </label>
        </div>
      ))}
      {filedAs === 'person' ? (
        <SelectField
          label="Person"
          name="unindexed_user_id"
          error={errors.unindexed_user_id}
          value={userId}
          onChange={(e) => setUserId(e.target.value)}
        >
          <option value="">Choose a person</option>
          {(people.data ?? []).map((u) => (
            <option key={u.id} value={u.id}>
              {u.name} ({u.username})
            </option>
          ))}
        </SelectField>
      ) : null}
      {filedAs === 'group' ? (
        <SelectField
          label="Group"
          name="unindexed_group_id"
          error={errors.unindexed_group_id}
          value={groupId}
          onChange={(e) => setGroupId(e.target.value)}
        >
          <option value="">Choose a group</option>
          {(groups.data ?? []).map((g) => (
            <option key={g.id} value={g.id}>
              {g.name}
            </option>
          ))}
        </SelectField>
      ) : null}
    </fieldset>
  );
}
