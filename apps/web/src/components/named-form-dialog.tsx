import type { ComponentProps, FormEventHandler, ReactNode } from 'react';
import { Dialog, type DialogProps } from './dialog';
import { DialogActions } from './dialog-actions';
import { DescriptionField, FormField, type FormFieldProps } from './form-field';

/**
 * The dialog that creates or edits a named thing (a group, a category group, a workflow):
 * Name, an optional Description, the rest of its form, then Cancel and the submit button.
 * `name` and `description` are the fields' props (`fieldBinder(form)('name')`).
 */
export function NamedFormDialog({
  title,
  size,
  onClose,
  pending,
  onSubmit,
  name,
  description,
  submitLabel,
  children,
}: {
  title: string;
  size?: DialogProps['size'];
  onClose: () => void;
  pending: boolean;
  onSubmit: FormEventHandler<HTMLFormElement>;
  name: Omit<FormFieldProps, 'label'>;
  description: ComponentProps<typeof DescriptionField>;
  submitLabel: string;
  children: ReactNode;
}) {
  return (
    <Dialog title={title} onClose={onClose} busy={pending} {...(size ? { size } : {})}>
      <form className="form" onSubmit={onSubmit} noValidate aria-busy={pending}>
        <FormField label="Name" autoComplete="off" {...name} />
        <DescriptionField {...description} />
        {children}
        <DialogActions onCancel={onClose} pending={pending} pendingLabel="Saving…">
          {submitLabel}
        </DialogActions>
      </form>
    </Dialog>
  );
}
