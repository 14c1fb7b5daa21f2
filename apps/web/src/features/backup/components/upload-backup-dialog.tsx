import { useRef, useState } from 'react';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { FileDropZone } from '../../../components/drop-zone';
import { useNotify } from '../../../components/notifications/notification-context';
import { ApiError } from '../../../lib/api-error';
import { fieldErrorsFrom } from '../../../lib/field-errors';
import { formatBytes } from '../../../lib/format';
import { useUploadBackup } from '../api/upload-backup';
import { useIdentity } from './identity-fields';

type Errors = Partial<Record<'password' | 'code' | 'file', string>>;

/** Upload an archive made by a Quire: checked against its manifest before it is listed. */
export function UploadBackupDialog({ twoFactor, onClose }: { twoFactor: boolean; onClose: () => void }) {
  const notify = useNotify();
  const upload = useUploadBackup();
  const [file, setFile] = useState<File | null>(null);
  const identity = useIdentity(twoFactor);
  const [errors, setErrors] = useState<Errors>({});
  const [progress, setProgress] = useState<number | null>(null);
  const abort = useRef<AbortController | null>(null);
  const busy = progress !== null;

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const local: Errors = {
      ...(file ? {} : { file: 'Choose a backup archive (.tar)' }),
      ...identity.problems(),
    };
    setErrors(local);
    if (!file || Object.keys(local).length) return;
    abort.current = new AbortController();
    setProgress(0);
    try {
      const row = await upload({
        file,
        ...identity.proof(),
        signal: abort.current.signal,
        onProgress: (p) => setProgress(p.total ? Math.round((100 * p.loaded) / p.total) : 0),
      });
      notify.success('Backup uploaded', `${row.file_name} matches its manifest and can be restored.`);
      onClose();
    } catch (error) {
      setProgress(null);
      if (error instanceof DOMException && error.name === 'AbortError') return;
      const fields =
        error instanceof ApiError
          ? (fieldErrorsFrom(error.errors, ['password', 'code', 'file']) as Errors)
          : {};
      setErrors(fields);
      if (!fields.password && !fields.code) notify.notifyFailure('Failed to upload backup!', error);
    }
  };

  return (
    <Dialog title="Upload a backup" onClose={onClose} busy={busy} size="medium">
      <form className="form" onSubmit={submit} noValidate aria-busy={busy}>
        <FileDropZone
          label="Drop a backup archive here"
          accept={['.tar']}
          multiple={false}
          disabled={busy}
          onFiles={([chosen]) => {
            setFile(chosen ?? null);
            setErrors((e) => ({ ...e, file: undefined }));
          }}
        />
        {file ? (
          <p>
            <strong>{file.name}</strong> <span className="muted">({formatBytes(file.size)})</span>
          </p>
        ) : null}
        {errors.file ? (
          <p className="field__error" role="alert">
            {errors.file}
          </p>
        ) : null}
        {identity.fields(errors, busy)}
        {progress !== null ? (
          <div className="field">
            <label htmlFor="backup-upload-progress">
              {progress < 100 ? `Uploading… ${progress}%` : 'Checking every part against the manifest…'}
            </label>
            <progress id="backup-upload-progress" max={100} value={progress} />
          </div>
        ) : null}
        <div className="dialog__actions">
          {busy ? (
            <Button variant="ghost" onClick={() => abort.current?.abort()}>
              Cancel upload
            </Button>
          ) : (
            <Button variant="ghost" onClick={onClose}>
              Cancel
            </Button>
          )}
          <button type="submit" className="button button--primary" disabled={busy}>
            Upload
          </button>
        </div>
      </form>
    </Dialog>
  );
}
