import { FIELD_TYPE_LABELS, type TCategoryInfo } from '@quire/contract';
import { useId, useState } from 'react';
import { Button } from '../../../components/button';
import { MoveRemoveCell } from '../../../components/list-parts';
import { useNotify } from '../../../components/notifications/notification-context';
import { PendingButton } from '../../../components/pending-button';
import { PlainTable } from '../../../components/plain-table';
import { ApiError } from '../../../lib/api-error';
import { messagesByPath } from '../../../lib/field-errors';
import { useDraftRows } from '../../../lib/use-draft-rows';
import { useMetadataFields } from '../api/get-metadata-fields';
import { useUpdateFolder } from '../api/update-folder';

interface FieldDraft {
  field_id: number;
  name: string;
  type: string;
  /** null: the field's own setting. */
  required: boolean | null;
  default_value: string;
  show_in_list: boolean;
}

const REQUIRED_CHOICES = [
  { value: 'own', label: "Field's own setting" },
  { value: 'yes', label: 'Required' },
  { value: 'no', label: 'Optional' },
];

/**
 * The metadata fields asked for at indexing, in order: those from the categories above (read
 * only here), then the category's own, which can be added, ordered, made required or not, and
 * given a default value.
 */
export function FieldsSection({ info, canWrite }: { info: TCategoryInfo; canWrite: boolean }) {
  const id = useId();
  const notify = useNotify();
  const update = useUpdateFolder();
  const all = useMetadataFields();
  const inherited = info.fields.filter((f) => f.inherited);
  const initial = (): FieldDraft[] =>
    info.fields
      .filter((f) => !f.inherited)
      .map((f) => ({
        field_id: f.field.id,
        name: f.field.name,
        type: FIELD_TYPE_LABELS[f.field.type],
        required: f.required_override,
        default_value: f.default_value ?? '',
        show_in_list: f.show_in_list,
      }));
  const draftRows = useDraftRows<FieldDraft>(initial);
  const { rows: drafts, setRows: setDrafts, change } = draftRows;
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [adding, setAdding] = useState('');
  const taken = new Set([...drafts.map((d) => d.field_id), ...inherited.map((f) => f.field.id)]);
  const offered = (all.data ?? []).filter((f) => !taken.has(f.id));

  const save = () =>
    update.mutate(
      {
        folder_id: info.id,
        fields: drafts.map((d) => ({
          field_id: d.field_id,
          required: d.required,
          default_value: d.default_value.trim() === '' ? null : d.default_value,
          show_in_list: d.show_in_list,
        })),
      },
      {
        onSuccess: () => {
          setProblems({});
          notify.success(
            'Fields saved',
            `${info.name} asks for ${drafts.length + inherited.length} field(s).`,
          );
        },
        onError: (error) => {
          if (error instanceof ApiError) setProblems(messagesByPath(error.errors, 'body.fields.'));
          notify.notifyFailure('Failed to save the fields!', error);
        },
      },
    );

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Metadata fields</h2>
      {inherited.length > 0 ? (
        <ul className="link-list">
          {inherited.map((f) => (
            <li key={f.field.id}>
              <strong>{f.field.name}</strong>{' '}
              <span className="muted">({FIELD_TYPE_LABELS[f.field.type]})</span>{' '}
              <span className="badge badge--neutral">
                {f.inherited_from ? `Inherited from ${f.inherited_from.name}` : 'Inherited'}
              </span>
              {f.required ? ' · required' : ''}
            </li>
          ))}
        </ul>
      ) : null}
      {drafts.length === 0 ? <p className="muted">No fields of its own.</p> : null}
      {drafts.length > 0 ? (
        <PlainTable
          caption={`Fields of ${info.name}`}
          columns={['Field', 'Required', 'Default value', 'In the file list']}
          actions={canWrite}
        >
          {drafts.map((d, i) => (
            <tr key={d.field_id}>
              <th scope="row">
                {d.name} <span className="muted">({d.type})</span>
              </th>
              <td>
                <select
                  className="control"
                  aria-label={`Is ${d.name} required`}
                  disabled={!canWrite}
                  value={d.required === null ? 'own' : d.required ? 'yes' : 'no'}
                  onChange={(e) =>
                    change(i, { required: e.target.value === 'own' ? null : e.target.value === 'yes' })
                  }
                >
                  {REQUIRED_CHOICES.map((c) => (
                    <option key={c.value} value={c.value}>
                      {c.label}
                    </option>
                  ))}
                </select>
              </td>
              <td>
                <input
                  className="control"
                  aria-label={`Default value of ${d.name}`}
                  disabled={!canWrite}
                  value={d.default_value}
                  onChange={(e) => change(i, { default_value: e.target.value })}
                  aria-invalid={problems[`${i}.default_value`] ? true : undefined}
                />
                {problems[`${i}.default_value`] ? (
                  <p className="field__error">{problems[`${i}.default_value`]}</p>
                ) : null}
              </td>
              <td>
                <input
                  type="checkbox"
                  aria-label={`Show ${d.name} in the file list`}
                  disabled={!canWrite}
                  checked={d.show_in_list}
                  onChange={(e) => change(i, { show_in_list: e.target.checked })}
                />
              </td>
              {canWrite ? <MoveRemoveCell name={d.name} index={i} rows={draftRows} /> : null}
            </tr>
          ))}
        </PlainTable>
      ) : null}
      {canWrite ? (
        <div className="form-row">
          <div className="field">
            <label htmlFor={`${id}-add`}>Add a field</label>
            <select
              id={`${id}-add`}
              className="control"
              value={adding}
              onChange={(e) => setAdding(e.target.value)}
            >
              <option value="">Choose a field…</option>
              {offered.map((f) => (
                <option key={f.id} value={f.id}>
                  {`${f.name} (${FIELD_TYPE_LABELS[f.type]})`}
                </option>
              ))}
            </select>
          </div>
          <Button
            variant="ghost"
            disabled={!adding}
            onClick={() => {
              const field = offered.find((f) => f.id === Number(adding));
              if (!field) return;
              setDrafts((list) => [
                ...list,
                {
                  field_id: field.id,
                  name: field.name,
                  type: FIELD_TYPE_LABELS[field.type],
                  required: null,
                  default_value: '',
                  show_in_list: true,
                },
              ]);
              setAdding('');
            }}
          >
            Add
          </Button>
          <PendingButton type="button" pending={update.isPending} pendingLabel="Saving…" onClick={save}>
            Save fields
          </PendingButton>
        </div>
      ) : null}
    </section>
  );
}
