import type { TFileDetail } from '@quire/contract';
import { type ReactNode, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { Dialog } from '../../../components/dialog';
import { useNotify } from '../../../components/notifications/notification-context';
import { useCheckIn, useCheckOut, useLock, useRename, useToggle, useTrash } from '../api/file-mutations';
import { DialogForm } from './dialog-form';
import { EditValuesDialog } from './edit-values-dialog';
import { FilePermissionsDialog } from './file-permissions-dialog';
import { MoveFileDialog } from './move-file-dialog';

type Open = 'rename' | 'checkin' | 'delete' | 'values' | 'move' | 'permissions' | null;

/** A toolbar button that shows a spinner and is disabled while its call runs. */
function ActionButton({
  pending,
  onClick,
  children,
  ghost = false,
  pressed,
}: {
  pending: boolean;
  onClick: () => void;
  children: ReactNode;
  ghost?: boolean;
  pressed?: boolean;
}) {
  return (
    <button
      type="button"
      className={`button button--small${ghost ? ' button--ghost' : ''}`}
      aria-pressed={pressed}
      aria-busy={pending || undefined}
      disabled={pending}
      onClick={onClick}
    >
      {pending ? <span className="spinner spinner--small spinner--dark" aria-hidden="true" /> : null}{' '}
      {children}
    </button>
  );
}

/**
 * Lock, check out and in, follow, favourite, rename, edit values, move, permissions and delete,
 * as the caller's rights allow. Each shows its busy state, then a toast; the page updates at once.
 */
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
  const locked = file.locked_by !== null;

  return (
    <div className="toolbar" role="toolbar" aria-label="File actions">
      {canEdit ? (
        <ActionButton
          pending={lock.isPending}
          onClick={() =>
            lock.mutate(
              { file_id: file.id, status: locked ? '0' : '1' },
              {
                onSuccess: () => notify.success(locked ? 'File unlocked' : 'File locked'),
                onError: fail(locked ? 'Failed to unlock file!' : 'Failed to lock file!'),
              },
            )
          }
        >
          {locked ? 'Unlock' : 'Lock'}
        </ActionButton>
      ) : null}
      {canEdit && !file.checked_out_by ? (
        <ActionButton
          pending={checkOut.isPending}
          onClick={() =>
            checkOut.mutate(file.id, {
              onSuccess: () =>
                notify.success('File checked out', 'Nobody else can change it until you check it in.'),
              onError: fail('Failed to check out file!'),
            })
          }
        >
          Check out
        </ActionButton>
      ) : null}
      {canEdit && file.checked_out_by ? (
        <Button small onClick={() => setOpen('checkin')}>
          Check in
        </Button>
      ) : null}
      <ActionButton
        ghost
        pending={follow.isPending}
        pressed={file.is_following}
        onClick={() =>
          follow.mutate(file.id, {
            onSuccess: () =>
              notify.success(file.is_following ? 'You no longer follow this file' : 'You follow this file'),
            onError: fail(file.is_following ? 'Failed to unfollow file!' : 'Failed to follow file!'),
          })
        }
      >
        {file.is_following ? 'Unfollow' : 'Follow'}
      </ActionButton>
      <ActionButton
        ghost
        pending={favourite.isPending}
        pressed={file.is_favourite}
        onClick={() =>
          favourite.mutate(file.id, {
            onSuccess: () =>
              notify.success(file.is_favourite ? 'Taken out of your favourites' : 'Added to your favourites'),
            onError: fail('Failed to update favourites!'),
          })
        }
      >
        {file.is_favourite ? 'Unfavourite' : 'Favourite'}
      </ActionButton>
      {canEdit ? (
        <>
          <Button
            variant="ghost"
            small
            onClick={() => {
              setName(file.name);
              setOpen('rename');
            }}
          >
            Rename
          </Button>
          {file.index_status === 'indexed' ? (
            <Button variant="ghost" small onClick={() => setOpen('values')}>
              Edit values
            </Button>
          ) : null}
          <Button variant="ghost" small onClick={() => setOpen('move')}>
            Move
          </Button>
        </>
      ) : null}
      {file.permissions.share ? (
        <Button variant="ghost" small onClick={() => setOpen('permissions')}>
          Permissions
        </Button>
      ) : null}
      {file.permissions.delete ? (
        <Button variant="danger" small onClick={() => setOpen('delete')}>
          Delete
        </Button>
      ) : null}

      {open === 'rename' ? (
        <Dialog title="Rename file" onClose={() => setOpen(null)} busy={rename.isPending}>
          <DialogForm
            onSubmit={() =>
              rename.mutate(
                { file_id: file.id, name },
                {
                  onSuccess: () => {
                    notify.success('File renamed', `It is now called ${name.trim()}.`);
                    setOpen(null);
                  },
                  onError: fail('Failed to edit file'),
                },
              )
            }
            onCancel={() => setOpen(null)}
            pending={rename.isPending}
            pendingLabel="Saving…"
            submitLabel="Save"
          >
            <label className="field">
              <span className="field__label">Name</span>
              <input className="input" value={name} onChange={(e) => setName(e.target.value)} />
            </label>
          </DialogForm>
        </Dialog>
      ) : null}
      {open === 'checkin' ? (
        <Dialog title="Check in" onClose={() => setOpen(null)} busy={checkIn.isPending}>
          <DialogForm
            onSubmit={() =>
              checkIn.mutate(
                { file_id: file.id, comment, file: upload },
                {
                  onSuccess: () => {
                    notify.success(upload ? 'New version checked in' : 'File checked in');
                    setOpen(null);
                    setUpload(null);
                    setComment('');
                  },
                  onError: fail('Failed to check in file!'),
                },
              )
            }
            onCancel={() => setOpen(null)}
            pending={checkIn.isPending}
            pendingLabel="Checking in…"
            submitLabel="Check in"
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
          </DialogForm>
        </Dialog>
      ) : null}
      {open === 'values' ? <EditValuesDialog file={file} onClose={() => setOpen(null)} /> : null}
      {open === 'move' ? <MoveFileDialog file={file} onClose={() => setOpen(null)} /> : null}
      {open === 'permissions' ? <FilePermissionsDialog file={file} onClose={() => setOpen(null)} /> : null}
      {open === 'delete' ? (
        <ConfirmDialog
          title="Move to the trash?"
          confirmLabel="Delete"
          pendingLabel="Deleting…"
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
          {file.name} goes to the trash. You can restore it from My deleted files, or ask a File Control
          admin.
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
