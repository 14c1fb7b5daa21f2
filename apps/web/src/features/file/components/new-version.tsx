import type { TFileDetail } from '@quire/contract';
import { useState } from 'react';
import { Dialog } from '../../../components/dialog';
import { FileDropZone } from '../../../components/drop-zone';
import { useNotify } from '../../../components/notifications/notification-context';
import { formatBytes } from '../../../lib/format';
import { useNewVersion } from '../api/file-mutations';
import { DialogForm } from './dialog-form';

/**
 * "Upload new version": a file dropped or chosen becomes the next version, with a comment.
 * The API adds versions only through a check-in, so one action checks the file out (unless you
 * hold its check-out already), checks it in with the new content, and says so.
 */
export function NewVersion({ file, userId }: { file: TFileDetail; userId: number }) {
  const notify = useNotify();
  const upload = useNewVersion();
  const [chosen, setChosen] = useState<File | null>(null);
  const [comment, setComment] = useState('');
  const mineOut = file.checked_out_by?.id === userId;
  const theirsOut = file.checked_out_by !== null && !mineOut;
  const theirsLocked = file.locked_by !== null && file.locked_by.id !== userId;
  const blocked = theirsOut
    ? `${file.checked_out_by?.name} has it checked out: a new version waits until they check it in.`
    : theirsLocked
      ? `${file.locked_by?.name} has locked it: a new version waits until it is unlocked.`
      : null;
  const next = Math.max(0, ...file.versions.map((v) => v.number)) + 1;

  if (blocked) return <p className="muted">{blocked}</p>;
  return (
    <div className="file-page__new-version">
      <FileDropZone
        label="Drop a file here to upload it as a new version, or"
        chooseLabel="Upload new version"
        multiple={false}
        onFiles={(files) => setChosen(files[0] ?? null)}
      />
      {chosen ? (
        <Dialog title={`Upload version ${next}`} onClose={() => setChosen(null)} busy={upload.isPending}>
          <DialogForm
            onSubmit={() =>
              upload.mutate(
                { file_id: file.id, comment, file: chosen, checkOutFirst: !mineOut },
                {
                  onSuccess: () => {
                    notify.success(`Version ${next} uploaded`, `${chosen.name} is now the current version.`);
                    setChosen(null);
                    setComment('');
                  },
                  onError: (error) => notify.notifyFailure('Failed to upload new version!', error),
                },
              )
            }
            onCancel={() => setChosen(null)}
            pending={upload.isPending}
            pendingLabel="Uploading…"
            submitLabel={`Upload version ${next}`}
          >
            <p>
              {chosen.name} <span className="muted">({formatBytes(chosen.size)})</span> becomes version {next}{' '}
              of {file.name}.{' '}
              {mineOut
                ? 'This checks in your check-out with it.'
                : 'Quire checks the file out, adds the new version and checks it back in, in one step.'}
            </p>
            <label className="field">
              <span className="field__label">Comment (optional)</span>
              <input className="input" value={comment} onChange={(e) => setComment(e.target.value)} />
            </label>
          </DialogForm>
        </Dialog>
      ) : null}
    </div>
  );
}
