import type { TCategory } from '@quire/contract';
import { useState } from 'react';
import { Dialog } from '../../../components/dialog';
import { DialogActions } from '../../../components/dialog-actions';
import { Field } from '../../../components/form-field';
import { useNotify } from '../../../components/notifications/notification-context';
import { errorMessage } from '../../../lib/error-message';
import { useUpdateFolder } from '../api/update-folder';
import { subtreeIds } from '../lib/tree';

const TOP = 'top';

/** "Move to…": any category outside the moved one's own subtree, or the top level. */
export function MoveDialog({
  folder,
  folders,
  onClose,
}: {
  folder: TCategory;
  folders: TCategory[];
  onClose: () => void;
}) {
  const notify = useNotify();
  const update = useUpdateFolder();
  const below = subtreeIds(folders, folder.id);
  const targets = folders.filter((f) => !below.has(f.id));
  const [target, setTarget] = useState<string>(folder.parent_id === null ? TOP : String(folder.parent_id));
  const [problem, setProblem] = useState<string>();

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (update.isPending) return;
    const parent_id = target === TOP ? null : Number(target);
    update.mutate(
      { folder_id: folder.id, parent_id },
      {
        onSuccess: (moved) => {
          const where = moved.ancestors.at(-1)?.name;
          notify.success(
            'Category moved',
            where ? `${moved.name} is now in ${where}.` : `${moved.name} is now at the top.`,
          );
          onClose();
        },
        onError: (error) => {
          setProblem(errorMessage(error));
          notify.notifyFailure('Failed to move category!', error);
        },
      },
    );
  };

  return (
    <Dialog title={`Move ${folder.name}`} onClose={onClose} busy={update.isPending} size="small">
      <form className="form" onSubmit={submit} noValidate>
        <Field label="Move into" error={problem}>
          {(control) => (
            <select
              {...control}
              className="control"
              value={target}
              onChange={(e) => setTarget(e.target.value)}
            >
              <option value={TOP}>The top level</option>
              {targets.map((f) => (
                <option key={f.id} value={f.id}>
                  {`${'— '.repeat(f.depth)}${f.name}`}
                </option>
              ))}
            </select>
          )}
        </Field>
        <DialogActions onCancel={onClose} pending={update.isPending} pendingLabel="Moving…">
          Move
        </DialogActions>
      </form>
    </Dialog>
  );
}
