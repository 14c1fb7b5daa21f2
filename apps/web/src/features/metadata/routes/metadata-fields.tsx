import { FIELD_TYPE_LABELS, type TMetadataField } from '@quire/contract';
import { useState } from 'react';
import { ConfirmDeleteDialog } from '../../../components/confirm-delete-dialog';
import { EmptyText, QueryTable } from '../../../components/data-table';
import { type ListDialog, listDialogActions, NewButton, WriteActions } from '../../../components/list-parts';
import { PageHeader } from '../../../components/page-header';
import { plural } from '../../../lib/format';
import { useAreaAccess } from '../../../lib/permissions';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { useDeleteField } from '../api/delete-field';
import { useFields } from '../api/get-fields';
import { FieldDialog } from '../components/field-dialog';

/** What a field checks, in words. */
function validation(f: TMetadataField): string {
  const parts: string[] = [];
  if (f.type === 'select' && f.value_list) parts.push(`from ${f.value_list.name}`);
  if (f.min_number !== null) parts.push(`at least ${f.min_number}`);
  if (f.max_number !== null) parts.push(`at most ${f.max_number}`);
  if (f.min_date) parts.push(`from ${f.min_date}`);
  if (f.max_date) parts.push(`until ${f.max_date}`);
  if (f.max_length !== null) parts.push(`up to ${f.max_length} characters`);
  if (f.pattern) parts.push(`matching ${f.pattern}`);
  return parts.join(', ');
}

function usage(f: TMetadataField): string {
  const parts = [
    f.usage.categories ? plural(f.usage.categories, 'category', 'categories') : '',
    f.usage.files ? plural(f.usage.files, 'file', 'files') : '',
    f.usage.workflows ? plural(f.usage.workflows, 'workflow', 'workflows') : '',
  ].filter(Boolean);
  return parts.join(', ');
}

/** The metadata fields ("user fields") files are indexed with. */
export function MetadataFieldsPage() {
  const { canWrite } = useAreaAccess('fileControl');
  const fields = useFields();
  const remove = useDeleteField();
  useFailureToast(fields.error, fields.errorUpdatedAt, 'Failed to load metadata fields');
  const [open, setOpen] = useState<ListDialog<TMetadataField>>(null);
  const close = () => setOpen(null);
  const rows = fields.data ?? [];

  return (
    <>
      <PageHeader title="Metadata fields">
        The fields files are indexed with, asked for by the categories that use them.
      </PageHeader>
      <WriteActions canWrite={canWrite}>
        <NewButton onClick={() => setOpen({ kind: 'create' })}>New field</NewButton>
      </WriteActions>
      <QueryTable
        query={fields}
        what="metadata fields"
        rows={rows}
        empty={
          <EmptyText title="No metadata fields yet">
            Fields describe files: an invoice number, a date, a status from a value list.
          </EmptyText>
        }
        caption="Metadata fields"
        columns={['Name', 'Type', 'Checks', 'Used by']}
        cells={(f) => (
          <>
            <td>
              <strong>{f.name}</strong>
              {f.required ? <span className="badge badge--warning"> Required</span> : null}
              {f.help_text ? <div className="cell-muted">{f.help_text}</div> : null}
            </td>
            <td>{FIELD_TYPE_LABELS[f.type]}</td>
            <td>{validation(f) || <span className="muted">—</span>}</td>
            <td>{usage(f) || <span className="muted">Not used</span>}</td>
          </>
        )}
        rowActions={listDialogActions(canWrite, (f) => f.name, setOpen)}
      />
      {open?.kind === 'create' ? <FieldDialog onClose={close} /> : null}
      {open?.kind === 'edit' ? <FieldDialog field={open.item} onClose={close} /> : null}
      {open?.kind === 'delete' ? (
        <ConfirmDeleteDialog
          noun="field"
          name={open.item.name}
          remove={remove}
          value={open.item.id}
          failure="Failed to delete metadata field!"
          // A field in use stays: the refusal says where, in the dialog.
          conflictInPlace
          onClose={close}
        >
          <p>
            {usage(open.item)
              ? `It is used by ${usage(open.item)}: it cannot be deleted while it is.`
              : 'Nothing uses it.'}
          </p>
        </ConfirmDeleteDialog>
      ) : null}
    </>
  );
}
