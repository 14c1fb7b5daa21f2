import type { TIntakeSourceInput } from '@quire/contract';
import { type FormEvent, useState } from 'react';
import { DialogActions } from '../../../components/dialog-actions';
import { FormField, SelectField } from '../../../components/form-field';
import { useNotify } from '../../../components/notifications/notification-context';
import { ApiError } from '../../../lib/api-error';
import { useCategoryChoices, usePeopleChoices, useSaveSource } from '../api/intake';

type Errors = Partial<Record<'name' | 'path' | 'category_id' | 'owner_id', string>>;

const FIELD_OF: Record<string, keyof Errors> = {
  'body.name': 'name',
  'body.settings.path': 'path',
  'body.category_id': 'category_id',
  'body.owner_id': 'owner_id',
};

/** Adds a watched folder: where on the server, which category, whose files, how filed. */
export function SourceForm() {
  const notify = useNotify();
  const categories = useCategoryChoices();
  const people = usePeopleChoices();
  const save = useSaveSource();
  const [errors, setErrors] = useState<Errors>({});

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (save.isPending) return;
    const form = e.currentTarget;
    const data = new FormData(form);
    const text = (k: string) => String(data.get(k) ?? '').trim();
    const found: Errors = {};
    if (!text('name')) found.name = 'Required';
    if (!text('path')) found.path = 'Required';
    if (!text('category_id')) found.category_id = 'Choose the category its files go to';
    if (!text('owner_id')) found.owner_id = 'Choose whose files they become';
    setErrors(found);
    if (Object.keys(found).length) {
      notify.error('Please check the highlighted fields.');
      return;
    }
    const body: TIntakeSourceInput = {
      kind: 'folder',
      name: text('name'),
      enabled: true,
      category_id: Number(text('category_id')),
      owner_id: Number(text('owner_id')),
      file_as: text('file_as') === 'unindexed' ? 'unindexed' : 'indexed',
      settings: { path: text('path'), subfolders: data.get('subfolders') === 'on' },
    };
    save.mutate(
      { id: null, body },
      {
        onSuccess: ({ message, data: source }) => {
          notify.success(message ?? 'Intake source added', `Watching ${body.settings.path}`);
          form.reset();
        },
        onError: (error) => {
          if (error instanceof ApiError && error.errors.length) {
            const next: Errors = {};
            for (const fe of error.errors) {
              const field = FIELD_OF[fe.path];
              if (field) next[field] = fe.message;
            }
            setErrors(next);
          }
          notify.notifyFailure('Failed to add intake source!', error);
        },
      },
    );
  };

  return (
    <form className="form card" onSubmit={onSubmit} noValidate aria-labelledby="source-form-title">
      <h2 id="source-form-title">Watch a folder</h2>
      <div className="form-grid">
        <FormField label="Name" name="name" error={errors.name} maxLength={100} />
        <FormField
          label="Folder on the server"
          name="path"
          error={errors.path}
          hint="An absolute path, inside the folders the server allows (INTAKE_FOLDERS)."
        />
        <SelectField label="Category" name="category_id" error={errors.category_id} defaultValue="">
          <option value="">Choose a category</option>
          {(categories.data ?? []).map((c) => (
            <option key={c.id} value={c.id}>
              {c.path}
            </option>
          ))}
        </SelectField>
        <SelectField label="Owner" name="owner_id" error={errors.owner_id} defaultValue="">
          <option value="">Choose whose files they become</option>
          {(people.data ?? []).map((u) => (
            <option key={u.id} value={u.id}>
              {u.name} ({u.username})
            </option>
          ))}
        </SelectField>
        <SelectField label="Files are" name="file_as" defaultValue="indexed">
          <option value="indexed">Indexed into the category</option>
          <option value="unindexed">Left unindexed for the owner</option>
        </SelectField>
        <label className="checkbox">
          <input type="checkbox" name="subfolders" /> Sub-folders go to the sub-categories of the same name
        </label>
      </div>
      <DialogActions pending={save.isPending} pendingLabel="Adding…">
        Add folder
      </DialogActions>
    </form>
  );
}
