import type { TFileDetail } from '@quire/contract';
import { useState } from 'react';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { useNotify } from '../../../components/notifications/notification-context';
import { useEditValues } from '../api/file-mutations';
import { useFolderMeta } from '../api/get-folder-meta';
import { type MetadataErrors, MetadataForm, metadataErrors, valuesFromFile } from './metadata-form';

/** Corrects a filed file's metadata values, checked by its category's fields. */
export function EditValuesDialog({ file, onClose }: { file: TFileDetail; onClose: () => void }) {
  const notify = useNotify();
  const fields = useFolderMeta(file.folder_id);
  const save = useEditValues();
  const [errors, setErrors] = useState<MetadataErrors>({});

  return (
    <Dialog title={`Edit the values of ${file.name}`} onClose={onClose} busy={save.isPending}>
      {fields.isPending ? (
        <p className="muted">Loading the category's fields…</p>
      ) : fields.isError ? (
        <p className="field__error">The category's fields could not be loaded.</p>
      ) : (
        <MetadataForm
          fields={fields.data.fields}
          initialValues={valuesFromFile(file.values)}
          label={`Values of ${file.name}`}
          submitLabel="Save values"
          busy={save.isPending}
          errors={errors}
          onSubmit={(values) => {
            setErrors({});
            save.mutate(
              { file_id: file.id, values },
              {
                onSuccess: () => {
                  notify.success('Values saved', `${file.name} shows its new values.`);
                  onClose();
                },
                onError: (error) => {
                  setErrors(metadataErrors(error));
                  notify.notifyFailure('Failed to edit values!', error);
                },
              },
            );
          }}
          actions={
            <Button variant="ghost" onClick={onClose} disabled={save.isPending}>
              Cancel
            </Button>
          }
        />
      )}
    </Dialog>
  );
}
