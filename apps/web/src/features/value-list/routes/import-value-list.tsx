import { type TValueListImport, VALUE_LIST_IMPORT_MAX_BYTES } from '@quire/contract';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { FileDropZone } from '../../../components/drop-zone';
import { Field } from '../../../components/form-field';
import {
  CheckingRows,
  CheckStep,
  ImportPreviewTable,
  ImportReadOnly,
  ImportStep,
  TemplateStep,
} from '../../../components/import-preview';
import { useNotify } from '../../../components/notifications/notification-context';
import { PageHeader } from '../../../components/page-header';
import { ApiError } from '../../../lib/api-error';
import { errorMessage } from '../../../lib/error-message';
import { plural } from '../../../lib/format';
import { groupImportErrors } from '../../../lib/import-errors';
import { useAreaAccess } from '../../../lib/permissions';
import { useDownloadTemplate } from '../api/download-template';
import { useValueList } from '../api/get-value-list';
import { useImportValueList } from '../api/import-value-list';

const LABELS = { key: 'Key', label: 'Label' };
const XLSX = '.xlsx';

type Preview = { file: File } & Pick<TValueListImport, 'rows' | 'errors'>;

/**
 * A value list from an Excel workbook (new, or replacing a list's items): the template, the
 * file, a preview of its rows with every problem by row, then the import (all or nothing).
 */
export function ImportValueListPage() {
  const params = useParams();
  const listId = params.id ? Number(params.id) : undefined;
  const existing = useValueList(listId ?? null);
  const notify = useNotify();
  const navigate = useNavigate();
  const { canWrite } = useAreaAccess('fileControl');
  const template = useDownloadTemplate();
  const importList = useImportValueList();
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string>();
  const [preview, setPreview] = useState<Preview | null>(null);
  const [fileError, setFileError] = useState<string>();
  const [checking, setChecking] = useState(false);
  const editing = listId !== undefined;
  const listName = existing.data?.name;

  const check = (file: File) => {
    setPreview(null);
    setFileError(undefined);
    if (!editing && !name.trim()) {
      setNameError('Enter a name for the list first');
      return;
    }
    setChecking(true);
    importList.mutate(
      { file, dryRun: true, id: listId, name: editing ? undefined : name.trim() },
      {
        onSuccess: (data) => setPreview({ file, rows: data.rows, errors: data.errors }),
        onError: (e) => {
          setFileError(errorMessage(e));
          notify.notifyFailure('Failed to read the spreadsheet', e);
        },
        onSettled: () => setChecking(false),
      },
    );
  };

  const run = () => {
    if (!preview || importList.isPending) return;
    importList.mutate(
      { file: preview.file, dryRun: false, id: listId, name: editing ? undefined : name.trim() },
      {
        onSuccess: (data) => {
          notify.success(
            editing ? 'Value list updated' : 'Value list created',
            `${data.value_list?.name} has ${plural(data.value_list?.items.length ?? 0, 'item', 'items')}.`,
          );
          navigate(`/admin/value-lists/${data.value_list?.id}`);
        },
        onError: (e) => {
          if (e instanceof ApiError && e.errors.length > 0) setPreview({ ...preview, errors: e.errors });
          notify.notifyFailure('Failed to import the value list!', e);
        },
      },
    );
  };

  const grouped = preview ? groupImportErrors(preview.errors, LABELS) : null;
  const blocked = !preview || preview.rows.length === 0 || preview.errors.length > 0;
  const title = editing ? `Replace the items of ${listName ?? 'a value list'}` : 'New value list from Excel';

  return (
    <>
      <PageHeader title={title}>
        {editing
          ? 'Rows keep the item of the same key (or, without a key, of the same label); items no row keeps are removed, or archived when files use them.'
          : 'One item per row under a header row with the columns key and label. The key may be left empty: a free one is chosen.'}
      </PageHeader>
      <Link to={editing ? `/admin/value-lists/${listId}` : '/admin/value-lists'}>Back</Link>

      <TemplateStep template={template}>
        The first sheet is read. Cells are taken as text, as written: one starting with = + - or @ is a label,
        never a formula.
      </TemplateStep>

      {canWrite ? (
        <ImportStep title="2. Choose the workbook">
          {!editing ? (
            <Field label="Name of the list" error={nameError}>
              {(control) => (
                <input
                  {...control}
                  className="control"
                  value={name}
                  onChange={(e) => {
                    setName(e.target.value);
                    setNameError(undefined);
                  }}
                />
              )}
            </Field>
          ) : null}
          <FileDropZone
            label={`Drop the workbook here (.xlsx, at most ${VALUE_LIST_IMPORT_MAX_BYTES / 1024 / 1024} MB)`}
            accept={[XLSX]}
            multiple={false}
            maxBytes={VALUE_LIST_IMPORT_MAX_BYTES}
            disabled={importList.isPending}
            onFiles={([file]) => file && check(file)}
          />
          {fileError ? (
            <p className="field__error" role="alert">
              {fileError}
            </p>
          ) : null}
          <CheckingRows checking={checking} />
        </ImportStep>
      ) : (
        <ImportReadOnly area="File Control" />
      )}

      {preview && grouped ? (
        <CheckStep
          summary={{
            rows: preview.rows.length,
            fileName: preview.file.name,
            problems: preview.errors.length,
          }}
          general={grouped.general}
        >
          {[...grouped.byRow.keys()].some((row) => !preview.rows.some((r) => r.row === row)) ? (
            <ul className="alert alert--error">
              {[...grouped.byRow.entries()]
                .filter(([row]) => !preview.rows.some((r) => r.row === row))
                .map(([row, problems]) => (
                  <li key={row}>{`Row ${row}: ${problems.join('; ')}`}</li>
                ))}
            </ul>
          ) : null}
          {preview.rows.length > 0 ? (
            <ImportPreviewTable
              rows={preview.rows}
              problems={grouped.byRow}
              columns={[
                { label: 'Key', cell: (r) => r.key ?? <span className="muted">free</span> },
                { label: 'Label', cell: (r) => r.label },
              ]}
            />
          ) : null}
          <div className="form-actions">
            <button
              type="button"
              className="button button--primary"
              onClick={run}
              disabled={blocked || importList.isPending}
            >
              {importList.isPending && !checking
                ? 'Importing…'
                : editing
                  ? `Replace with ${plural(preview.rows.length, 'item', 'items')}`
                  : `Create the list with ${plural(preview.rows.length, 'item', 'items')}`}
            </button>
          </div>
        </CheckStep>
      ) : null}
    </>
  );
}
