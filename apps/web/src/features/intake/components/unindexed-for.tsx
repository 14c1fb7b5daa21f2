import { useState } from 'react';
import { SelectField } from '../../../components/form-field';
import { GroupOptions, PersonOptions } from './choice-options';

/** How what arrives is left: indexed, or unindexed for the owner, a person or a group. */
export type FiledAs = 'index' | 'owner' | 'person' | 'group';

const LABELS: Record<FiledAs, string> = {
  index: 'Indexed into the category',
  owner: 'Left unindexed for the owner',
  person: 'Left unindexed for a person',
  group: 'Left unindexed for a group (each member may index or drop it)',
};

/** The select that names whom, for a person or a group. */
const PICKS = {
  person: {
    kind: 'person',
    label: 'Person',
    name: 'unindexed_user_id',
    empty: 'Choose a person',
    Options: PersonOptions,
  },
  group: {
    kind: 'group',
    label: 'Group',
    name: 'unindexed_group_id',
    empty: 'Choose a group',
    Options: GroupOptions,
  },
} as const;

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
  const [chosen, setChosen] = useState({
    person: initial.userId ? String(initial.userId) : '',
    group: initial.groupId ? String(initial.groupId) : '',
  });
  const pick = filedAs === 'person' || filedAs === 'group' ? PICKS[filedAs] : null;
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
      {pick ? (
        <SelectField
          key={pick.name}
          label={pick.label}
          name={pick.name}
          error={errors[pick.name]}
          value={chosen[pick.kind]}
          onChange={(e) => setChosen((c) => ({ ...c, [pick.kind]: e.target.value }))}
        >
          <option value="">{pick.empty}</option>
          <pick.Options />
        </SelectField>
      ) : null}
    </fieldset>
  );
}
