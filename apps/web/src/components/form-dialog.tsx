import type { FormEventHandler, ReactNode } from 'react';
import { Dialog, type DialogProps } from './dialog';
import { DialogActions } from './dialog-actions';

/** A dialog that is one form: its fields, then Cancel and the submit button ("Saving…" while it runs). */
export function FormDialog({
  title,
  description,
  size,
  onClose,
  pending,
  onSubmit,
  submitLabel,
  children,
}: {
  title: string;
  description?: string;
  size?: DialogProps['size'];
  onClose: () => void;
  pending: boolean;
  onSubmit: FormEventHandler<HTMLFormElement>;
  submitLabel: string;
  children: ReactNode;
}) {
  return (
    <Dialog
      title={title}
      description={description}
      onClose={onClose}
      busy={pending}
      {...(size ? { size } : {})}
    >
      <form className="form" onSubmit={onSubmit} noValidate aria-busy={pending}>
        {children}
        <DialogActions onCancel={onClose} pending={pending} pendingLabel="Saving…">
          {submitLabel}
        </DialogActions>
      </form>
    </Dialog>
  );
}
