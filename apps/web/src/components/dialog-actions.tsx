import type { ReactNode } from 'react';
import { Button } from './button';
import { PendingButton } from './pending-button';

export interface DialogActionsProps {
  /** Cancel's action; without it only the submit button shows. */
  onCancel?: () => void;
  cancelLabel?: string;
  /** While true, Cancel is disabled and the submit button shows its spinner and `pendingLabel`. */
  pending: boolean;
  pendingLabel: string;
  variant?: 'primary' | 'danger';
  /** Disables the submit button (Cancel stays usable). */
  disabled?: boolean;
  /** `form-actions` (the default) or `dialog__actions` (set apart from the body above). */
  className?: 'form-actions' | 'dialog__actions';
  /** The submit button's label. */
  children: ReactNode;
}

/** A form's footer: Cancel, then the submit button, which shows its pending label while it runs. */
export function DialogActions({
  onCancel,
  cancelLabel = 'Cancel',
  pending,
  pendingLabel,
  variant,
  disabled,
  className = 'form-actions',
  children,
}: DialogActionsProps) {
  return (
    <div className={className}>
      {onCancel ? (
        <Button variant="ghost" onClick={onCancel} disabled={pending}>
          {cancelLabel}
        </Button>
      ) : null}
      <PendingButton pending={pending} pendingLabel={pendingLabel} variant={variant} disabled={disabled}>
        {children}
      </PendingButton>
    </div>
  );
}
