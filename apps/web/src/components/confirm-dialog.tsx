import { type ReactNode, useRef } from 'react';
import { Dialog } from './dialog';

export interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** Shown on the confirm button while the action runs. */
  pendingLabel?: string;
  tone?: 'danger' | 'default';
  pending?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * "Are you sure?" before an action. The focus starts on Cancel (shown with its focus ring even
 * after a click), so Enter never deletes by accident; Esc cancels.
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  pendingLabel,
  tone = 'default',
  pending = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <Dialog title={title} onClose={onCancel} initialFocus={cancelRef} busy={pending} size="small">
      <div className="dialog__text">{children}</div>
      <div className="dialog__actions">
        <button
          ref={cancelRef}
          type="button"
          className="button button--ghost dialog__cancel"
          onClick={onCancel}
          disabled={pending}
        >
          Cancel
        </button>
        <button
          type="button"
          className={`button ${tone === 'danger' ? 'button--danger' : 'button--primary'}`}
          onClick={onConfirm}
          disabled={pending}
          aria-disabled={pending || undefined}
        >
          {pending ? (
            <>
              <span className="spinner spinner--small" aria-hidden="true" /> {pendingLabel ?? confirmLabel}
            </>
          ) : (
            confirmLabel
          )}
        </button>
      </div>
    </Dialog>
  );
}
