import { RESTORE_CONFIRMATION, type TBackupFile } from '@quire/contract';
import { useState } from 'react';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { FormField } from '../../../components/form-field';
import { useNotify } from '../../../components/notifications/notification-context';
import { ApiError } from '../../../lib/api-error';
import { fieldErrorsFrom } from '../../../lib/field-errors';
import { formatBytes, formatDateTime } from '../../../lib/format';
import { useDownloadBackupFile } from '../api/download-backup-file';
import { useRestoreBackup } from '../api/restore-backup';
import { useIdentity } from './identity-fields';

type Errors = Partial<Record<'password' | 'code' | 'confirmation', string>>;

/** Download or restore an archive: asks for the password again (and the code), a restore also for RESTORE typed out. */
export function ArchiveDialog({
  archive,
  action,
  twoFactor,
  onClose,
}: {
  archive: TBackupFile;
  action: 'download' | 'restore';
  twoFactor: boolean;
  onClose: () => void;
}) {
  const notify = useNotify();
  const download = useDownloadBackupFile();
  const restore = useRestoreBackup();
  const identity = useIdentity(twoFactor);
  const [confirmation, setConfirmation] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const busy = download.isPending || restore.isPending;
  const restoring = action === 'restore';

  const fail = (error: unknown, title: string) => {
    const fields =
      error instanceof ApiError
        ? (fieldErrorsFrom(error.errors, ['password', 'code', 'confirmation']) as Errors)
        : {};
    setErrors(fields);
    if (Object.keys(fields).length === 0) notify.notifyFailure(title, error);
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const local: Errors = identity.problems();
    if (restoring && confirmation !== RESTORE_CONFIRMATION)
      local.confirmation = `Type ${RESTORE_CONFIRMATION} to confirm`;
    setErrors(local);
    if (Object.keys(local).length) return;
    const proof = identity.proof();
    if (restoring)
      restore.mutate(
        { id: archive.id, ...proof, confirmation },
        {
          onSuccess: () => {
            notify.success('Restore started', `${archive.file_name} is being checked, then restored.`);
            onClose();
          },
          onError: (e) => fail(e, 'Failed to restore backup!'),
        },
      );
    else
      download.mutate(
        { id: archive.id, fileName: archive.file_name, ...proof },
        {
          onSuccess: () => onClose(),
          onError: (e) => fail(e, 'Failed to download backup!'),
        },
      );
  };

  return (
    <Dialog
      title={restoring ? 'Restore this backup?' : 'Download backup'}
      description={`${archive.file_name} · ${formatBytes(archive.size)} · made ${formatDateTime(archive.created_at)}`}
      onClose={onClose}
      busy={busy}
      size="small"
    >
      <form className="form" onSubmit={submit} noValidate aria-busy={busy}>
        {restoring ? (
          <div className="alert alert--warning" role="note">
            Every file, user, setting and record is replaced by the content of this backup. Changes made since
            it was taken are lost. People may be signed out.
          </div>
        ) : (
          <p className="muted">The archive holds every file and record of Quire: keep it safe.</p>
        )}
        {identity.fields(errors, busy)}
        {restoring ? (
          <FormField
            label={`Type ${RESTORE_CONFIRMATION} to confirm`}
            error={errors.confirmation}
            name="confirmation"
            autoComplete="off"
            value={confirmation}
            disabled={busy}
            onChange={(e) => setConfirmation(e.target.value)}
          />
        ) : null}
        <div className="dialog__actions">
          <Button variant="ghost" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <button
            type="submit"
            className={`button ${restoring ? 'button--danger' : 'button--primary'}`}
            disabled={busy}
          >
            {busy ? <span className="spinner spinner--small" aria-hidden="true" /> : null}
            {restoring ? 'Restore' : 'Download'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
