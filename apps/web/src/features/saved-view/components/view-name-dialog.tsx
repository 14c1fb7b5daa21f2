import { zodResolver } from '@hookform/resolvers/zod';
import { type TFilterFilesBody, type TSavedView, ZSavedViewName } from '@quire/contract';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { FormDialog } from '../../../components/form-dialog';
import { FormField } from '../../../components/form-field';
import { fieldBinder, withEmptyMessages } from '../../../lib/form';
import { type SaveMutation, sendingAs, useFormSubmit } from '../../../lib/use-form-submit';
import { useCreateSavedView } from '../api/create-saved-view';
import { useUpdateSavedView } from '../api/update-saved-view';

const ZViewForm = z.object({ name: ZSavedViewName, pinned: z.boolean() });
type ViewForm = z.input<typeof ZViewForm>;
type ViewValues = z.output<typeof ZViewForm>;
const FIELDS = ['name', 'pinned'] as const;
const resolver = withEmptyMessages(zodResolver(ZViewForm), { name: 'Enter a name for the view' });

/**
 * "Save view…" (the search `query` by a name, pinned to the dashboard or not) or "Rename…"
 * (`view`'s name). A name the person already uses is refused at the name field.
 */
export function ViewNameDialog({
  query,
  view,
  onClose,
}: (
  | {
      /** Saving this search as a new view. */
      query: TFilterFilesBody;
      view?: undefined;
    }
  | {
      query?: undefined;
      /** Renaming this view. */
      view: TSavedView;
    }
) & { onClose: () => void }) {
  const create = useCreateSavedView();
  const update = useUpdateSavedView();
  const form = useForm<ViewForm, unknown, ViewValues>({
    resolver,
    defaultValues: { name: view?.name ?? '', pinned: view?.pinned ?? false },
  });
  const bind = fieldBinder(form);
  const save: SaveMutation<ViewValues, TSavedView> = view
    ? sendingAs(update, ({ name }) => ({ id: view.id, name }))
    : sendingAs(create, ({ name, pinned }) => ({ name, pinned, query }));
  const onSubmit = useFormSubmit(form, save, {
    fields: FIELDS,
    failure: view ? 'Failed to rename view!' : 'Failed to save view!',
    told: (saved) =>
      view
        ? ['View renamed', `It is called ${saved.name} now.`]
        : [
            'View saved',
            saved.pinned
              ? `${saved.name} is on your dashboard and under Saved views.`
              : `${saved.name} is under Saved views.`,
          ],
    onDone: onClose,
    whilePending: 'ignore',
  });

  return (
    <FormDialog
      title={view ? `Rename ${view.name}` : 'Save view'}
      size="small"
      onClose={onClose}
      pending={save.isPending}
      onSubmit={(e) => {
        // Opened from inside the search form: React would bubble this submit up to it.
        e.stopPropagation();
        void onSubmit(e);
      }}
      submitLabel={view ? 'Rename' : 'Save view'}
    >
      <FormField label="Name" autoComplete="off" maxLength={100} {...bind('name')} />
      {view ? null : (
        <label className="checkbox">
          <input type="checkbox" {...form.register('pinned')} /> Pin to dashboard
        </label>
      )}
    </FormDialog>
  );
}
