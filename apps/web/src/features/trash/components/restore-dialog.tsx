import type { TFileSummary, TTrashFile } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { type UseMutationResult, useQuery } from '@tanstack/react-query';
import { type ReactNode, useId, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useNotify } from '../../../components/notifications/notification-context';
import { apiQueryOptions } from '../../../lib/api-client';

type Restore = UseMutationResult<{ data: TFileSummary }, Error, { id: number; folder_id?: number }>;

/**
 * A deleted-files page's restore: `open(file)` asks where to, then runs `restore` and toasts
 * "File restored" (with `restoredText` of the restored file, if given) or the `failure` title.
 * Render `dialog` in the page.
 */
export function useRestoreDialog({
  restore,
  failure,
  restoredText,
}: {
  restore: Restore;
  failure: string;
  restoredText?: (file: TFileSummary) => string;
}): { open: (file: TTrashFile) => void; dialog: ReactNode } {
  const notify = useNotify();
  const [restoring, setRestoring] = useState<TTrashFile | null>(null);
  const dialog = restoring ? (
    <RestoreDialog
      file={restoring}
      pending={restore.isPending}
      onCancel={() => setRestoring(null)}
      onRestore={(folder_id) =>
        restore.mutate(
          { id: restoring.id, folder_id },
          {
            onSuccess: ({ data: file }) => {
              notify.success('File restored', restoredText?.(file));
              setRestoring(null);
            },
            onError: (error) => notify.notifyFailure(failure, error),
          },
        )
      }
    />
  ) : null;
  return { open: setRestoring, dialog };
}

/**
 * Restores a file from the trash: to its category, or (when that is gone, or asked for) to a
 * category chosen from those the person may file into.
 */
function RestoreDialog({
  file,
  pending,
  onRestore,
  onCancel,
}: {
  file: TTrashFile;
  pending: boolean;
  onRestore: (folderId?: number) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const [choice, setChoice] = useState('');
  const [error, setError] = useState('');
  const mustChoose = !file.folder_live;
  const categories = useQuery({
    ...apiQueryOptions(calls.category.fileCategories, { query: { right: 'upload' } }),
    enabled: mustChoose,
  });
  const options = categories.data ?? [];
  return (
    <ConfirmDialog
      title={`Restore ${file.name}?`}
      confirmLabel="Restore"
      pendingLabel="Restoring…"
      pending={pending}
      onCancel={onCancel}
      onConfirm={() => {
        if (!mustChoose) return onRestore();
        if (!choice) return setError('Choose the category to restore it into');
        onRestore(Number(choice));
      }}
    >
      {mustChoose ? (
        <>
          <p>Its category, {file.folder_name ?? 'unknown'}, was deleted. Choose another one.</p>
          <div className="field">
            <label htmlFor={id}>Restore into</label>
            <select
              id={id}
              className="input"
              value={choice}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              onChange={(e) => {
                setChoice(e.target.value);
                setError('');
              }}
            >
              <option value="">
                {categories.isPending
                  ? 'Loading…'
                  : options.length
                    ? 'Choose a category'
                    : 'No category to file into'}
              </option>
              {options.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.path}
                </option>
              ))}
            </select>
            {error ? (
              <span id={`${id}-error`} className="field__error">
                {error}
              </span>
            ) : null}
          </div>
        </>
      ) : (
        <p>It goes back to {file.folder_name}.</p>
      )}
    </ConfirmDialog>
  );
}
