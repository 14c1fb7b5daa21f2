import type { TFileDetail } from '@quire/contract';
import { useState } from 'react';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { Field } from '../../../components/form-field';
import { useNotify } from '../../../components/notifications/notification-context';
import { useMove } from '../api/file-mutations';
import { useMoveTargets } from '../api/file-queries';
import { useFolderMeta } from '../api/get-folder-meta';
import { type MetadataErrors, MetadataForm, metadataErrors, valuesFromFile } from './metadata-form';

/**
 * Moves a file to another category the caller may upload into. The new category's fields are
 * shown with the values the file keeps (shared fields), so required ones can be filled in.
 */
export function MoveFileDialog({ file, onClose }: { file: TFileDetail; onClose: () => void }) {
  const notify = useNotify();
  const targets = useMoveTargets();
  const move = useMove();
  const [target, setTarget] = useState<number | null>(null);
  const fields = useFolderMeta(target);
  const [errors, setErrors] = useState<MetadataErrors>({});
  const options = (targets.data ?? []).filter((c) => c.id !== file.folder_id);
  const chosen = options.find((c) => c.id === target);
  const cancel = (
    <Button variant="ghost" onClick={onClose} disabled={move.isPending}>
      Cancel
    </Button>
  );

  return (
    <Dialog
      title={`Move ${file.name}`}
      description={`Now in ${file.folder_name ?? 'no category'}. It gets the new category's next running number.`}
      onClose={onClose}
      busy={move.isPending}
    >
      <Field label="Move to category">
        {(control) => (
          <select
            {...control}
            className="input"
            name="folder_id"
            value={target ?? ''}
            disabled={move.isPending}
            onChange={(e) => {
              setErrors({});
              setTarget(e.target.value ? Number(e.target.value) : null);
            }}
          >
            <option value="">{targets.isPending ? 'Loading…' : '— choose a category —'}</option>
            {options.map((c) => (
              <option key={c.id} value={c.id}>
                {c.path}
              </option>
            ))}
          </select>
        )}
      </Field>
      {targets.isSuccess && options.length === 0 ? (
        <p className="muted">There is no other category you may file into.</p>
      ) : null}
      {target === null ? (
        <div className="dialog__actions">{cancel}</div>
      ) : fields.isPending ? (
        <p className="muted">Loading the category's fields…</p>
      ) : fields.isError ? (
        <p className="field__error">The category's fields could not be loaded.</p>
      ) : (
        <MetadataForm
          key={target}
          fields={fields.data.fields}
          initialValues={valuesFromFile(file.values)}
          label={`Values in ${chosen?.name ?? 'the new category'}`}
          submitLabel={`Move to ${chosen?.name ?? 'this category'}`}
          busyLabel="Moving…"
          busy={move.isPending}
          errors={errors}
          onSubmit={(values) => {
            setErrors({});
            move.mutate(
              { file_id: file.id, folder_id: target, ...(values.length ? { values } : {}) },
              {
                onSuccess: () => {
                  notify.success(
                    'File moved',
                    `${file.name} is now in ${chosen?.name ?? 'the new category'}.`,
                  );
                  onClose();
                },
                onError: (error) => {
                  setErrors(metadataErrors(error));
                  notify.notifyFailure('Failed to move file!', error);
                },
              },
            );
          }}
          actions={cancel}
        />
      )}
    </Dialog>
  );
}
