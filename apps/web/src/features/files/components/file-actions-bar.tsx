import type { TFileDetail } from '@quire/contract';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { Dialog } from '../../../components/dialog';
import { useNotify } from '../../../components/notifications/notification-context';
import { useCheckIn, useCheckOut, useLock, useRename, useToggle, useTrash } from '../api/file-mutations';

type Open = 'rename' | 'checkin' | 'delete' | null;

/** Lock, check out and in, follow, favourite, rename and delete, as the caller's rights allow. */
export function FileActionsBar({ file, userId }: { file: TFileDetail; userId: number }) {
  const notify = useNotify();
  const navigate = useNavigate();
  const [open, setOpen] = useState<Open>(null);
  const [name, setName] = useState(file.name);
  const [comment, setComment] = useState('');
  const [upload, setUpload] = useState<File | null>(null);
  const lock = useLock();
  const checkOut = useCheckOut();
  const checkIn = useCheckIn();
  const rename = useRename();
  const trash = useTrash();
  const follow = useToggle(file.is_following ? 'unfollow' : 'follow');
  const favourite = useToggle(file.is_favourite ? 'unfavouriteFile' : 'favouriteFile');
  const canEdit = file.permissions.edit;
  const mineOut = file.checked_out_by?.id === userId;
  const fail = (title: string) => (error: unknown) => notify.notifyFailure(title, error);

  return (
    <div className="toolbar" role="toolbar" aria-label="File actions">
      {canEdit ? (
        <button
          type="button"
          className="button button--small"
          onClick={() =>
            lock.mutate(
              { file_id: file.id, status: file.locked_by ? '0' : '1' },
              { onError: fail(file.locked_by ? 'Failed to unlock file!' : 'Failed to lock file!') },
            )
          }
        >
          {file.locked_by ? 'Unlock' : 'Lock'}
        </button>
      ) : null}
      {canEdit && !file.checked_out_by ? (
        <button
          type="button"
          className="button button--small"
          onClick={() => checkOut.mutate(file.id, { onError: fail('Failed to check out file!') })}
        >
          Check out
        </button>
      ) : null}
      {canEdit && file.checked_out_by ? (
        <button type="button" className="button button--small" onClick={() => setOpen('checkin')}>
          Check in
        </button>
      ) : null}
      <button
        type="button"
        className="button button--ghost button--small"
        aria-pressed={file.is_following}
        onClick={() => follow.mutate(file.id, { onError: fail('Failed to follow file!') })}
      >
        {file.is_following ? 'Unfollow' : 'Follow'}
      </button>
      <button
        type="button"
        className="button button--ghost button--small"
        aria-pressed={file.is_favourite}
        onClick={() => favourite.mutate(file.id, { onError: fail('Failed to update favourites!') })}
      >
        {file.is_favourite ? 'Unfavourite' : 'Favourite'}
      </button>
      {canEdit ? (
        <button
          type="button"
          className="button button--ghost button--small"
          onClick={() => setOpen('rename')}
        >
          Rename
        </button>
      ) : null}
      {file.permissions.delete ? (
        <button
          type="button"
          className="button button--danger button--small"
          onClick={() => setOpen('delete')}
        >
          Delete
        </button>
      ) : null}

      {open === 'rename' ? (
        <Dialog title="Rename file" onClose={() => setOpen(null)} busy={rename.isPending}>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              rename.mutate(
                { file_id: file.id, name },
                { onSuccess: () => setOpen(null), onError: fail('Failed to edit file') },
              );
            }}
          >
            <label className="field">
              <span className="field__label">Name</span>
              <input className="input" value={name} onChange={(e) => setName(e.target.value)} />
            </label>
            <div className="dialog__actions">
              <button type="button" className="button button--ghost" onClick={() => setOpen(null)}>
                Cancel
              </button>
              <button type="submit" className="button button--primary">
                Save
              </button>
            </div>
          </form>
        </Dialog>
      ) : null}
      {open === 'checkin' ? (
        <Dialog title="Check in" onClose={() => setOpen(null)} busy={checkIn.isPending}>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              checkIn.mutate(
                { file_id: file.id, comment, file: upload },
                {
                  onSuccess: () => {
                    notify.success(upload ? 'New version checked in' : 'File checked in');
                    setOpen(null);
                  },
                  onError: fail('Failed to check in file!'),
                },
              );
            }}
          >
            {mineOut ? (
              <label className="field">
                <span className="field__label">New version (optional)</span>
                <input
                  className="input"
                  type="file"
                  aria-label="New version"
                  onChange={(e) => setUpload(e.target.files?.[0] ?? null)}
                />
              </label>
            ) : (
              <p>This releases the check-out {file.checked_out_by?.name} holds.</p>
            )}
            <label className="field">
              <span className="field__label">Comment</span>
              <input className="input" value={comment} onChange={(e) => setComment(e.target.value)} />
            </label>
            <div className="dialog__actions">
              <button type="button" className="button button--ghost" onClick={() => setOpen(null)}>
                Cancel
              </button>
              <button type="submit" className="button button--primary">
                Check in
              </button>
            </div>
          </form>
        </Dialog>
      ) : null}
      {open === 'delete' ? (
        <ConfirmDialog
          title="Move to the trash?"
          confirmLabel="Delete"
          tone="danger"
          pending={trash.isPending}
          onCancel={() => setOpen(null)}
          onConfirm={() =>
            trash.mutate([file.id], {
              onSuccess: () => {
                notify.success('File moved to the trash');
                navigate(file.folder_id ? `/files/category/${file.folder_id}` : '/dashboard');
              },
              onError: fail('Failed to delete file'),
            })
          }
        >
          {file.name} goes to the trash, where a File Control admin can restore it.
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
