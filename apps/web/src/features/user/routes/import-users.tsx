import {
  ACCESS_TYPES,
  accessTypeLabel,
  USER_IMPORT_COLUMNS,
  USER_IMPORT_MAX_BYTES,
  VENDOR_ADMIN,
} from '@quire/contract';
import { type ChangeEvent, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Field } from '../../../components/form-field';
import {
  CheckingRows,
  CheckStep,
  ImportPreviewTable,
  ImportReadOnly,
  ImportStep,
  TemplateStep,
} from '../../../components/import-preview';
import { useNotificationStore, useNotify } from '../../../components/notifications/notification-context';
import { PageHeader } from '../../../components/page-header';
import { ApiError } from '../../../lib/api-error';
import { errorMessage } from '../../../lib/error-message';
import { plural } from '../../../lib/format';
import { groupImportErrors } from '../../../lib/import-errors';
import { useAreaAccess } from '../../../lib/permissions';
import { useDownloadImportTemplate } from '../api/download-import-template';
import { useImportUsers } from '../api/import-users';

type Preview = {
  file: File;
  rows: Array<{
    row: number;
    username: string;
    email: string;
    first_name: string;
    last_name: string;
    access_type: string;
    role: string;
  }>;
  errors: Array<{ path: string; message: string }>;
};

const COLUMN_LABELS: Record<string, string> = {
  username: 'Username',
  email: 'E-mail',
  first_name: 'First name',
  last_name: 'Last name',
  access_type: 'Access type',
  role: 'Role',
  password: 'Password',
  group_ids: 'Groups',
};

const READ_FAILED = 'Failed to read the spreadsheet';

export function ImportUsersPage() {
  const notify = useNotify();
  const notifications = useNotificationStore();
  const navigate = useNavigate();
  const { canWrite } = useAreaAccess('settings');
  const template = useDownloadImportTemplate();
  const importUsers = useImportUsers();
  const fileRef = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [fileError, setFileError] = useState<string>();
  const [checking, setChecking] = useState(false);

  function onFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    setPreview(null);
    setFileError(undefined);
    if (!file) return;
    if (!file.name.toLowerCase().endsWith('.xlsx')) {
      setFileError('Choose an Excel workbook (.xlsx), such as the template.');
      return;
    }
    if (file.size > USER_IMPORT_MAX_BYTES) {
      setFileError(`The file is larger than ${USER_IMPORT_MAX_BYTES / 1024 / 1024} MB.`);
      return;
    }
    setChecking(true);
    importUsers.mutate(
      { file, dryRun: true },
      {
        onSuccess: (data) => {
          setPreview({ file, rows: data.rows, errors: data.errors });
          // The failure of an earlier file is over: its toast goes with it.
          const shown = notifications.current();
          if (shown?.title === READ_FAILED) notifications.dismiss(shown.id);
        },
        onError: (e) => {
          setFileError(errorMessage(e));
          notify.notifyFailure(READ_FAILED, e);
        },
        onSettled: () => setChecking(false),
      },
    );
  }

  function runImport() {
    if (!preview || importUsers.isPending) return;
    importUsers.mutate(
      { file: preview.file, dryRun: false },
      {
        onSuccess: (data) => {
          notify.success('Users imported', `${plural(data.created, 'user was', 'users were')} created.`);
          navigate('/admin/users');
        },
        onError: (e) => {
          // All or nothing: the API names the rows that stopped it (e.g. taken meanwhile).
          if (e instanceof ApiError && e.errors.length > 0) setPreview({ ...preview, errors: e.errors });
          notify.notifyFailure('Failed to import users!', e);
        },
      },
    );
  }

  const grouped = preview ? groupImportErrors(preview.errors, COLUMN_LABELS) : null;
  const rowsWithErrors = preview ? preview.rows.filter((r) => grouped?.byRow.has(r.row)).length : 0;
  const blocked = !preview || preview.rows.length === 0 || preview.errors.length > 0;
  const importing = importUsers.isPending && !checking;

  return (
    <>
      <PageHeader title="Import users">
        Create many accounts at once from an Excel workbook. Either every row is imported, or none is.
      </PageHeader>
      <Link to="/admin/users">Back to users</Link>

      <TemplateStep template={template}>
        One user per row under the header row, in these columns: {USER_IMPORT_COLUMNS.join(', ')}. Access
        types, written as here: {ACCESS_TYPES.filter((a) => a !== VENDOR_ADMIN).join(', ')}. Roles: user or
        admin.
      </TemplateStep>

      {canWrite ? (
        <ImportStep title="2. Choose the filled-in workbook">
          <Field
            label={`Workbook (.xlsx, at most ${USER_IMPORT_MAX_BYTES / 1024 / 1024} MB)`}
            error={fileError}
          >
            {(control) => (
              <input
                ref={fileRef}
                {...control}
                type="file"
                accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                onChange={onFile}
                disabled={importUsers.isPending}
              />
            )}
          </Field>
          <CheckingRows checking={checking} />
        </ImportStep>
      ) : (
        <ImportReadOnly area="Settings" />
      )}

      {preview && grouped ? (
        <CheckStep
          summary={{
            rows: preview.rows.length,
            fileName: preview.file.name,
            problems: preview.errors.length,
            rowsWithProblems: rowsWithErrors,
          }}
          general={grouped.general}
        >
          {preview.rows.length > 0 ? (
            <ImportPreviewTable
              rows={preview.rows}
              problems={grouped.byRow}
              columns={[
                { label: 'Username', cell: (r) => r.username },
                { label: 'E-mail', cell: (r) => r.email },
                { label: 'Name', cell: (r) => `${r.first_name} ${r.last_name}`.trim() },
                { label: 'Access type', cell: (r) => accessTypeLabel(r.access_type) },
                { label: 'Role', cell: (r) => r.role },
              ]}
            />
          ) : (
            <p className="muted">The workbook has no data rows under the header.</p>
          )}
          <div className="form-actions">
            <button
              type="button"
              className="button button--ghost"
              onClick={() => {
                setPreview(null);
                if (fileRef.current) fileRef.current.value = '';
                fileRef.current?.focus();
              }}
              disabled={importing}
            >
              Choose another file
            </button>
            <button
              type="button"
              className="button button--primary"
              onClick={runImport}
              disabled={blocked || importing}
            >
              {importing ? (
                <>
                  <span className="spinner spinner--small" aria-hidden="true" /> Importing…
                </>
              ) : (
                `Import ${plural(preview.rows.length, 'user', 'users')}`
              )}
            </button>
          </div>
        </CheckStep>
      ) : null}
    </>
  );
}
