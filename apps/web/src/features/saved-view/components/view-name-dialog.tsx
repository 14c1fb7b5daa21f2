import { zodResolver } from '@hookform/resolvers/zod';
import { type TFilterFilesBody, type TSavedView, ZSavedViewName } from '@quire/contract';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Dialog } from '../../../components/dialog';
import { DialogActions } from '../../../components/dialog-actions';
import { FormField } from '../../../components/form-field';
import { useNotify } from '../../../components/notifications/notification-context';
import { fieldBinder, setServerErrors, withEmptyMessages } from '../../../lib/form';
import { useCreateSavedView } from '../api/create-saved-view';
import { useUpdateSavedView } from '../api/update-saved-view';

const ZViewForm = z.object({ name: ZSavedViewName, pinned: z.boolean() });
type ViewForm = z.input<typeof ZViewForm>;
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
}: {
  /** Saving this search as a new view. */
  query?: TFilterFilesBody;
  /** Renaming this view. */
  view?: TSavedView;
  onClose: () => void;
}) {
  const notify = useNotify();
  const create = useCreateSavedView();
  const update = useUpdateSavedView();
  const form = useForm<ViewForm, unknown, z.output<typeof ZViewForm>>({
    resolver,
    defaultValues: { name: view?.name ?? '', pinned: view?.pinned ?? false },
  });
  const pending = create.isPending || update.isPending;
  const bind = fieldBinder(form);

  const onSubmit = form.handleSubmit((values) => {
    if (pending) return;
    const failed = (title: string) => (error: Error) => {
      setServerErrors(form, error, FIELDS);
      notify.notifyFailure(title, error);
    };
    if (view)
      update.mutate(
        { id: view.id, name: values.name },
        {
          onSuccess: (saved) => {
            notify.success('View renamed', `It is called ${saved.name} now.`);
            onClose();
          },
          onError: failed('Failed to rename view!'),
        },
      );
    else if (query)
      create.mutate(
        { name: values.name, pinned: values.pinned, query },
        {
          onSuccess: (saved) => {
            notify.success(
              'View saved',
              saved.pinned
                ? `${saved.name} is on your dashboard and under Saved views.`
                : `${saved.name} is under Saved views.`,
            );
            onClose();
          },
          onError: failed('Failed to save view!'),
        },
      );
  });

  return (
    <Dialog title={view ? `Rename ${view.name}` : 'Save view'} onClose={onClose} busy={pending} size="small">
      <form
        className="form"
        onSubmit={(e) => {
          // Opened from inside the search form: React would bubble this submit up to it.
          e.stopPropagation();
          void onSubmit(e);
        }}
        noValidate
        aria-busy={pending}
      >
        <FormField label="Name" autoComplete="off" maxLength={100} {...bind('name')} />
        {view ? null : (
          <label className="checkbox">
            <input type="checkbox" {...form.register('pinned')} /> Pin to dashboard
          </label>
        )}
        <DialogActions onCancel={onClose} pending={pending} pendingLabel="Saving…">
          {view ? 'Rename' : 'Save view'}
        </DialogActions>
      </form>
    </Dialog>
  );
}
