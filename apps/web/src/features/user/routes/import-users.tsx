import {
  ACCESS_TYPES,
  accessTypeLabel,
  USER_IMPORT_COLUMNS,
  USER_IMPORT_MAX_BYTES,
  VENDOR_ADMIN,
  XLSX_MEDIA_TYPE,
} from '@quire/contract';
import { type ChangeEvent, useRef } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../../components/button';
import { Field } from '../../../components/form-field';
import { CheckStep, FileStep, TemplateStep } from '../../../components/import-preview';
import { useNotificationStore, useNotify } from '../../../components/notifications/notification-context';
import { PageHeader } from '../../../components/page-header';
import { plural } from '../../../lib/format';
import { useAreaAccess } from '../../../lib/permissions';
import { READ_FAILED, useImportCheck } from '../../../lib/use-import-check';
import { useDownloadImportTemplate } from '../api/download-import-template';
import { useImportUsers } from '../api/import-users';

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

export function ImportUsersPage() {
  const notify = useNotify();
  const notifications = useNotificationStore();
  const navigate = useNavigate();
  const { canWrite } = useAreaAccess('settings');
  const template = useDownloadImportTemplate();
  const importUsers = useImportUsers();
  const fileRef = useRef<HTMLInputElement>(null);
  const { preview, grouped, blocked, fileError, setFileError, checking, importing, clear, check, run } =
    useImportCheck(importUsers, {
      labels: COLUMN_LABELS,
      onChecked: () => {
        // The failure of an earlier file is over: its toast goes with it.
        const shown = notifications.current();
        if (shown?.title === READ_FAILED) notifications.dismiss(shown.id);
      },
    });

  function onFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    clear();
    if (!file) return;
    if (!file.name.toLowerCase().endsWith('.xlsx')) {
      setFileError('Choose an Excel workbook (.xlsx), such as the template.');
      return;
    }
    if (file.size > USER_IMPORT_MAX_BYTES) {
      setFileError(`The file is larger than ${USER_IMPORT_MAX_BYTES / 1024 / 1024} MB.`);
      return;
    }
    check(file, {});
  }

  function runImport() {
    run(
      {},
      {
        failure: 'Failed to import users!',
        onDone: (data) => {
          notify.success('Users imported', `${plural(data.created, 'user was', 'users were')} created.`);
          navigate('/admin/users');
        },
      },
    );
  }

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

      <FileStep
        title="2. Choose the filled-in workbook"
        canWrite={canWrite}
        area="Settings"
        checking={checking}
      >
        <Field
          label={`Workbook (.xlsx, at most ${USER_IMPORT_MAX_BYTES / 1024 / 1024} MB)`}
          error={fileError}
        >
          {(control) => (
            <input
              ref={fileRef}
              {...control}
              type="file"
              accept={`.xlsx,${XLSX_MEDIA_TYPE}`}
              onChange={onFile}
              disabled={importUsers.isPending}
            />
          )}
        </Field>
      </FileStep>

      {preview && grouped ? (
        <CheckStep
          preview={preview}
          grouped={grouped}
          rowsWithProblems
          columns={[
            { label: 'Username', cell: (r) => r.username },
            { label: 'E-mail', cell: (r) => r.email },
            { label: 'Name', cell: (r) => `${r.first_name} ${r.last_name}`.trim() },
            { label: 'Access type', cell: (r) => accessTypeLabel(r.access_type) },
            { label: 'Role', cell: (r) => r.role },
          ]}
          empty={<p className="muted">The workbook has no data rows under the header.</p>}
        >
          <div className="form-actions">
            <Button
              variant="ghost"
              onClick={() => {
                clear();
                if (fileRef.current) fileRef.current.value = '';
                fileRef.current?.focus();
              }}
              disabled={importing}
            >
              Choose another file
            </Button>
            <Button variant="primary" onClick={runImport} disabled={blocked || importing}>
              {importing ? (
                <>
                  <span className="spinner spinner--small" aria-hidden="true" /> Importing…
                </>
              ) : (
                `Import ${plural(preview.rows.length, 'user', 'users')}`
              )}
            </Button>
          </div>
        </CheckStep>
      ) : null}
    </>
  );
}
