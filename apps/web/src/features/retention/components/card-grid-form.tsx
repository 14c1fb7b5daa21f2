import { type FormEventHandler, type ReactNode, useId } from 'react';
import { DialogActions } from '../../../components/dialog-actions';

/** A form of the retention pages in a card: its heading, its fields in a grid, then its submit button. */
export function CardGridForm({
  title,
  onSubmit,
  pending,
  pendingLabel,
  submitLabel,
  children,
}: {
  title: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  pending: boolean;
  pendingLabel: string;
  submitLabel: string;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <form className="form card" onSubmit={onSubmit} noValidate aria-busy={pending} aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <div className="form-grid">{children}</div>
      <DialogActions pending={pending} pendingLabel={pendingLabel}>
        {submitLabel}
      </DialogActions>
    </form>
  );
}
