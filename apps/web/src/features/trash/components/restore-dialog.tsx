import { contract, type TTrashFile } from '@quire/contract';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { apiQueryOptions } from '../../../lib/api-client';

/**
 * Restores a file from the trash: to its category, or (when that is gone, or asked for) to a
 * category chosen from those the person may file into.
 */
export function RestoreDialog({
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
    ...apiQueryOptions(contract.category.fileCategories, { query: { right: 'upload' } }),
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
