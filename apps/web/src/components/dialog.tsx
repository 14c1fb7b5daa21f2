import { type ReactNode, type RefObject, useEffect, useRef } from 'react';
import { Dialog as AriaDialog, Heading, Modal, ModalOverlay } from 'react-aria-components';

export interface DialogProps {
  title: string;
  /** One line under the title, read out with it. */
  description?: ReactNode;
  /** Esc and the close button call it; ignored while `busy`. */
  onClose: () => void;
  /** What gets the focus when the dialog opens; default: the first field, else the first button. */
  initialFocus?: RefObject<HTMLElement | null>;
  busy?: boolean;
  size?: 'small' | 'medium' | 'large';
  children: ReactNode;
}

const FIRST_FIELD =
  '[data-autofocus], .dialog__body input:not([type="hidden"]), .dialog__body select, .dialog__body textarea';

/** Moves the focus in once, when the dialog opens (React Aria keeps it inside and brings it back). */
function InitialFocus({ target }: { target: RefObject<HTMLElement | null> | undefined }) {
  const marker = useRef<HTMLSpanElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: on open only
  useEffect(() => {
    const dialog = marker.current?.closest<HTMLElement>('[role="dialog"], [role="alertdialog"]');
    const first = target?.current ?? dialog?.querySelector<HTMLElement>(FIRST_FIELD);
    first?.focus();
  }, []);
  return <span ref={marker} hidden />;
}

/**
 * A modal dialog (React Aria): the focus moves in (and back to the opener when it closes),
 * Tab stays inside, Esc closes unless busy, the page behind is inert. Rendered in a portal.
 * Mount it to open it; `onClose` asks the owner to unmount it.
 */
export function Dialog({
  title,
  description,
  onClose,
  initialFocus,
  busy = false,
  size = 'medium',
  children,
}: DialogProps) {
  return (
    <ModalOverlay
      isOpen
      onOpenChange={(open) => {
        if (!open && !busy) onClose();
      }}
      isKeyboardDismissDisabled={busy}
      className="dialog-backdrop"
    >
      <Modal className={`dialog dialog--${size}`}>
        <AriaDialog className="dialog__frame" aria-busy={busy || undefined}>
          <InitialFocus target={initialFocus} />
          <header className="dialog__header">
            <div>
              <Heading slot="title" className="dialog__title">
                {title}
              </Heading>
              {description ? <p className="muted dialog__description">{description}</p> : null}
            </div>
            <button
              type="button"
              className="icon-button"
              aria-label="Close"
              onClick={() => !busy && onClose()}
              disabled={busy}
            >
              ×
            </button>
          </header>
          <div className="dialog__body">{children}</div>
        </AriaDialog>
      </Modal>
    </ModalOverlay>
  );
}
