import type { FormEventHandler, ReactNode } from 'react';
import { Dialog } from '../../../components/dialog';
import { DialogActions } from '../../../components/dialog-actions';

/** A step row's dialog: its form, then Cancel and the submit button ("Saving…" while it runs). */
export function RowDialog({
  title,
  description,
  onClose,
  pending,
  onSubmit,
  submitLabel,
  children,
}: {
  title: string;
  description?: string;
  onClose: () => void;
  pending: boolean;
  onSubmit: FormEventHandler<HTMLFormElement>;
  submitLabel: string;
  children: ReactNode;
}) {
  return (
    <Dialog title={title} description={description} onClose={onClose} busy={pending}>
      <form className="form" onSubmit={onSubmit} noValidate aria-busy={pending}>
        {children}
        <DialogActions onCancel={onClose} pending={pending} pendingLabel="Saving…">
          {submitLabel}
        </DialogActions>
      </form>
    </Dialog>
  );
}
