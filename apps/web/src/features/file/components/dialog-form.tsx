import type { ReactNode } from 'react';
import { DialogActions } from '../../../components/dialog-actions';

/**
 * A file dialog's form: its fields, then Cancel and the submit button set apart below them.
 * Submitting runs `onSubmit` (the page is not sent).
 */
export function DialogForm({
  onSubmit,
  onCancel,
  pending,
  pendingLabel,
  submitLabel,
  noValidate,
  children,
}: {
  onSubmit: () => void;
  onCancel: () => void;
  /** While true, Cancel is disabled and the submit button says `pendingLabel`. */
  pending: boolean;
  pendingLabel: string;
  submitLabel: string;
  /** For a form that tells its own errors. */
  noValidate?: boolean;
  children: ReactNode;
}) {
  return (
    <form
      noValidate={noValidate}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {children}
      <DialogActions
        className="dialog__actions"
        onCancel={onCancel}
        pending={pending}
        pendingLabel={pendingLabel}
      >
        {submitLabel}
      </DialogActions>
    </form>
  );
}
