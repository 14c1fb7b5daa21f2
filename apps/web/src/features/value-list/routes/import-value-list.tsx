import { VALUE_LIST_IMPORT_MAX_BYTES } from '@quire/contract';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Button } from '../../../components/button';
import { FileDropZone } from '../../../components/drop-zone';
import { Field } from '../../../components/form-field';
import { CheckStep, FileStep, TemplateStep } from '../../../components/import-preview';
import { useNotify } from '../../../components/notifications/notification-context';
import { PageHeader } from '../../../components/page-header';
import { plural } from '../../../lib/format';
import { useAreaAccess } from '../../../lib/permissions';
import { useImportCheck } from '../../../lib/use-import-check';
import { useDownloadTemplate } from '../api/download-template';
import { useValueList } from '../api/get-value-list';
import { useImportValueList } from '../api/import-value-list';

const LABELS = { key: 'Key', label: 'Label' };
const XLSX = '.xlsx';

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
  const { preview, grouped, blocked, fileError, checking, importing, clear, check, run } = useImportCheck(
    importList,
    { labels: LABELS },
  );
  const editing = listId !== undefined;
  const listName = existing.data?.name;
  const vars = { id: listId, name: editing ? undefined : name.trim() };

  const checkFile = (file: File) => {
    if (!editing && !name.trim()) {
      clear();
      setNameError('Enter a name for the list first');
      return;
    }
    check(file, vars);
  };

  const runImport = () =>
    run(vars, {
      failure: 'Failed to import the value list!',
      onDone: (data) => {
        notify.success(
          editing ? 'Value list updated' : 'Value list created',
          `${data.value_list?.name} has ${plural(data.value_list?.items.length ?? 0, 'item', 'items')}.`,
        );
        navigate(`/admin/value-lists/${data.value_list?.id}`);
      },
    });

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

      <FileStep title="2. Choose the workbook" canWrite={canWrite} area="File Control" checking={checking}>
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
          onFiles={([file]) => file && checkFile(file)}
        />
        {fileError ? (
          <p className="field__error" role="alert">
            {fileError}
          </p>
        ) : null}
      </FileStep>

      {preview && grouped ? (
        <CheckStep
          preview={preview}
          grouped={grouped}
          notes={
            [...grouped.byRow.keys()].some((row) => !preview.rows.some((r) => r.row === row)) ? (
              <ul className="alert alert--error">
                {[...grouped.byRow.entries()]
                  .filter(([row]) => !preview.rows.some((r) => r.row === row))
                  .map(([row, problems]) => (
                    <li key={row}>{`Row ${row}: ${problems.join('; ')}`}</li>
                  ))}
              </ul>
            ) : null
          }
          columns={[
            { label: 'Key', cell: (r) => r.key ?? <span className="muted">free</span> },
            { label: 'Label', cell: (r) => r.label },
          ]}
        >
          <div className="form-actions">
            <Button variant="primary" onClick={runImport} disabled={blocked || importList.isPending}>
              {importing
                ? 'Importing…'
                : editing
                  ? `Replace with ${plural(preview.rows.length, 'item', 'items')}`
                  : `Create the list with ${plural(preview.rows.length, 'item', 'items')}`}
            </Button>
          </div>
        </CheckStep>
      ) : null}
    </>
  );
}
