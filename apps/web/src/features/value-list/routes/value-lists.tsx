import { zodResolver } from '@hookform/resolvers/zod';
import { ZCreateValueListBody } from '@quire/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import type { z } from 'zod';
import { EmptyText, QueryTable, Timestamp } from '../../../components/data-table';
import { Dialog } from '../../../components/dialog';
import { DialogActions } from '../../../components/dialog-actions';
import { DescriptionField, FormField } from '../../../components/form-field';
import { NewButton, WriteActions } from '../../../components/list-parts';
import { PageHeader } from '../../../components/page-header';
import { fieldBinder, withEmptyMessages } from '../../../lib/form';
import { useAreaAccess } from '../../../lib/permissions';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { useFormSubmit } from '../../../lib/use-form-submit';
import { useCreateValueList } from '../api/create-value-list';
import { useValueLists } from '../api/get-value-lists';

/** Value lists: the choices of value-list fields, each item a key and a label. */
export function ValueListsPage() {
  const { canWrite } = useAreaAccess('fileControl');
  const lists = useValueLists();
  useFailureToast(lists.error, lists.errorUpdatedAt, 'Failed to load value lists');
  const [creating, setCreating] = useState(false);
  const rows = lists.data ?? [];
  return (
    <>
      <PageHeader title="Value lists">
        The choices of value-list fields: each item has a key (1 to 10000) and a label.
      </PageHeader>
      <WriteActions canWrite={canWrite}>
        <span className="row-actions">
          <NewButton onClick={() => setCreating(true)}>New value list</NewButton>
          <Link className="button button--ghost" to="/admin/value-lists/import">
            New list from Excel
          </Link>
        </span>
      </WriteActions>
      <QueryTable
        query={lists}
        what="value lists"
        rows={rows}
        empty={
          <EmptyText title="No value lists yet">
            A value list is the set of choices of a field, such as the statuses of an invoice.
          </EmptyText>
        }
        caption="Value lists"
        columns={['Name', 'Items', 'Used by', 'Changed']}
        cells={(l) => (
          <>
            <td>
              <Link to={`/admin/value-lists/${l.id}`}>
                <strong>{l.name}</strong>
              </Link>
              {l.description ? <div className="cell-muted">{l.description}</div> : null}
            </td>
            <td>
              {l.item_count}{' '}
              {l.source === 'excel' ? <span className="badge badge--neutral">from Excel</span> : null}
            </td>
            <td>
              {l.fields.length ? (
                l.fields.map((f) => f.name).join(', ')
              ) : (
                <span className="muted">No field</span>
              )}
            </td>
            <td>
              <Timestamp iso={l.updated_at} />
            </td>
          </>
        )}
      />
      {creating ? <NewListDialog onClose={() => setCreating(false)} /> : null}
    </>
  );
}

const ZNewList = ZCreateValueListBody.pick({ name: true, description: true });
type NewListInput = z.input<typeof ZNewList>;
const resolver = withEmptyMessages(zodResolver(ZNewList), { name: 'Enter a name for the list' });

function NewListDialog({ onClose }: { onClose: () => void }) {
  const navigate = useNavigate();
  const create = useCreateValueList();
  const form = useForm<NewListInput, unknown, z.output<typeof ZNewList>>({
    resolver,
    defaultValues: { name: '', description: '' },
  });
  const bind = fieldBinder(form);
  const onSubmit = useFormSubmit(form, create, {
    fields: ['name', 'description'],
    failure: 'Failed to create value list!',
    body: (values) => ({ ...values, items: [] }),
    told: (list) => ['Value list created', `Add the items of ${list.name}.`],
    onDone: (list) => navigate(`/admin/value-lists/${list.id}`),
  });
  return (
    <Dialog title="New value list" onClose={onClose} busy={create.isPending} size="small">
      <form className="form" onSubmit={onSubmit} noValidate>
        <FormField label="Name" autoComplete="off" {...bind('name')} />
        <DescriptionField {...bind('description')} />
        <DialogActions onCancel={onClose} pending={create.isPending} pendingLabel="Creating…">
          Create list
        </DialogActions>
      </form>
    </Dialog>
  );
}
