import { ITEM_LABEL_MAX, type TValueListDetail } from '@quire/contract';
import { useId, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Button } from '../../../components/button';
import { ConfirmDeleteDialog } from '../../../components/confirm-delete-dialog';
import { Field } from '../../../components/form-field';
import { MoveRemoveCell } from '../../../components/list-parts';
import { useNotify } from '../../../components/notifications/notification-context';
import { PageHeader } from '../../../components/page-header';
import { PendingButton } from '../../../components/pending-button';
import { PlainTable } from '../../../components/plain-table';
import { ApiError } from '../../../lib/api-error';
import { messagesByPath } from '../../../lib/field-errors';
import { useAreaAccess } from '../../../lib/permissions';
import { useDraftRows } from '../../../lib/use-draft-rows';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { useDestroyValueList } from '../api/destroy-value-list';
import { useEditValueList } from '../api/edit-value-list';
import { useValueList } from '../api/get-value-list';

interface ItemDraft {
  /** Stable while editing (the item's id, or a local one for a new row). */
  rowKey: string;
  id?: number;
  key: number | null;
  label: string;
}

let localRows = 0;
const draftsOf = (list: TValueListDetail): ItemDraft[] =>
  list.items.map((i) => ({ rowKey: `item-${i.id}`, id: i.id, key: i.key, label: i.label }));

/** One value list: its name, and its items edited in place (in order), then saved at once. */
export function ValueListPage() {
  const id = Number(useParams().id);
  const list = useValueList(Number.isInteger(id) && id > 0 ? id : null);
  useFailureToast(list.error, list.errorUpdatedAt, 'Failed to load the value list');
  if (list.isPending)
    return (
      <div className="card empty-state" role="status">
        <span className="spinner" aria-hidden="true" />
        <p className="muted">Loading the value list…</p>
      </div>
    );
  if (!list.data)
    return (
      <>
        <PageHeader title="Value list not found" />
        <Link to="/admin/value-lists">Back to value lists</Link>
      </>
    );
  return <Editor key={`${list.data.id}-${list.data.updated_at}`} list={list.data} />;
}

function Editor({ list }: { list: TValueListDetail }) {
  const formId = useId();
  const notify = useNotify();
  const navigate = useNavigate();
  const { canWrite } = useAreaAccess('fileControl');
  const edit = useEditValueList();
  const destroy = useDestroyValueList();
  const [name, setName] = useState(list.name);
  const [description, setDescription] = useState(list.description);
  const itemRows = useDraftRows(() => draftsOf(list));
  const { rows: items, setRows: setItems, change } = itemRows;
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [deleting, setDeleting] = useState(false);

  const add = () => {
    localRows += 1;
    setItems((all) => [...all, { rowKey: `new-${localRows}`, key: null, label: '' }]);
  };

  const save = () => {
    if (edit.isPending) return;
    edit.mutate(
      {
        id: list.id,
        body: {
          name,
          description,
          items: items.map((i) => ({
            ...(i.id ? { id: i.id } : {}),
            ...(i.key !== null ? { key: i.key } : {}),
            label: i.label,
          })),
        },
      },
      {
        onSuccess: (saved) =>
          notify.success('Value list saved', `${saved.name} has ${saved.items.length} items.`),
        onError: (error) => {
          if (error instanceof ApiError) setProblems(messagesByPath(error.errors, 'body.'));
          notify.notifyFailure('Failed to save value list!', error);
        },
      },
    );
  };

  const problem = (path: string) =>
    problems[path] ? (
      <p className="field__error" id={`${formId}-${path}`}>
        {problems[path]}
      </p>
    ) : null;
  const described = (path: string) => ({
    'aria-invalid': problems[path] ? true : undefined,
    'aria-describedby': problems[path] ? `${formId}-${path}` : undefined,
  });

  return (
    <>
      <PageHeader title={list.name}>
        {list.fields.length
          ? `Used by the field${list.fields.length === 1 ? '' : 's'} ${list.fields.map((f) => f.name).join(', ')}.`
          : 'No field uses this list yet.'}
      </PageHeader>
      <div className="section-header">
        <Link to="/admin/value-lists">Back to value lists</Link>
        {canWrite ? (
          <span className="row-actions">
            <Link className="button button--ghost" to={`/admin/value-lists/${list.id}/import`}>
              Replace from Excel
            </Link>
            <Button variant="danger" onClick={() => setDeleting(true)}>
              Delete list
            </Button>
          </span>
        ) : (
          <span className="badge badge--neutral">Read only</span>
        )}
      </div>
      <section className="card" aria-label="The list">
        <fieldset disabled={!canWrite} className="plain-fieldset form">
          <div className="form-grid">
            <Field label="Name" error={problems.name}>
              {(control) => (
                <input
                  {...control}
                  className="control"
                  value={name}
                  onChange={(e) => setName(e.target.value)}
                />
              )}
            </Field>
            <Field label="Description">
              {(control) => (
                <input
                  {...control}
                  className="control"
                  value={description}
                  onChange={(e) => setDescription(e.target.value)}
                />
              )}
            </Field>
          </div>
          {problem('items')}
          <PlainTable caption={`Items of ${list.name}`} columns={['Key', 'Label']} actions={canWrite}>
            {items.map((item, i) => {
              const at = `items.${i}`;
              const name = item.label || `item ${i + 1}`;
              return (
                <tr key={item.rowKey}>
                  <td>
                    {item.id ? (
                      item.key
                    ) : (
                      <input
                        className="control control--narrow"
                        type="number"
                        min={1}
                        max={10000}
                        placeholder="Any free"
                        aria-label={`Key of ${name} (empty: a free one is chosen)`}
                        value={item.key ?? ''}
                        onChange={(e) =>
                          change(i, { key: e.target.value === '' ? null : Number(e.target.value) })
                        }
                        {...described(`${at}.key`)}
                      />
                    )}
                    {problem(`${at}.key`)}
                  </td>
                  <td>
                    <input
                      className="control"
                      maxLength={ITEM_LABEL_MAX}
                      aria-label={`Label of item ${i + 1}`}
                      value={item.label}
                      onChange={(e) => change(i, { label: e.target.value })}
                      {...described(`${at}.label`)}
                    />
                    {problem(`${at}.label`)}
                  </td>
                  {canWrite ? <MoveRemoveCell name={name} index={i} rows={itemRows} /> : null}
                </tr>
              );
            })}
          </PlainTable>
          {items.length === 0 ? <p className="muted">No items yet.</p> : null}
        </fieldset>
        {canWrite ? (
          <div className="form-actions">
            <Button variant="ghost" onClick={add}>
              Add item
            </Button>
            <PendingButton type="button" pending={edit.isPending} pendingLabel="Saving…" onClick={save}>
              Save list
            </PendingButton>
          </div>
        ) : null}
        <p className="field__hint">
          Items a file already uses are archived when removed: files keep their value, new files cannot choose
          it.
        </p>
      </section>
      {deleting ? (
        <ConfirmDeleteDialog
          noun="value list"
          name={list.name}
          confirmLabel="Delete list"
          remove={destroy}
          value={list.id}
          conflictInPlace
          onDone={() => navigate('/admin/value-lists')}
          onClose={() => setDeleting(false)}
        >
          <p>The list and its {list.items.length} items go.</p>
        </ConfirmDeleteDialog>
      ) : null}
    </>
  );
}
