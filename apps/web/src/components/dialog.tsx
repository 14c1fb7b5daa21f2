import { type ReactNode, type RefObject, useEffect, useId, useRef } from 'react';
import { createPortal } from 'react-dom';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export interface DialogProps {
  title: string;
  /** One line under the title, read out with it. */
  description?: ReactNode;
  /** Esc and the close button call it; ignored while `busy`. */
  onClose: () => void;
  /** What gets the focus when the dialog opens; default: the first field or button. */
  initialFocus?: RefObject<HTMLElement | null>;
  busy?: boolean;
  size?: 'small' | 'medium' | 'large';
  children: ReactNode;
}

/**
 * A real modal: focus moves in (and back out when it closes), Tab stays inside, Esc closes.
 * Rendered above the page in a portal.
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
  const id = useId();
  const ref = useRef<HTMLDivElement>(null);
  const closeRef = useRef(onClose);
  const busyRef = useRef(busy);
  closeRef.current = onClose;
  busyRef.current = busy;

  // The focus moves in once, when the dialog opens, and back out when it closes.
  // biome-ignore lint/correctness/useExhaustiveDependencies: initialFocus is read on open only
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    const dialog = ref.current;
    const target =
      initialFocus?.current ??
      dialog?.querySelector<HTMLElement>('[data-autofocus]') ??
      dialog?.querySelector<HTMLElement>(
        '.dialog__body input, .dialog__body select, .dialog__body textarea',
      ) ??
      dialog?.querySelector<HTMLElement>(FOCUSABLE);
    (target ?? dialog)?.focus();
    const previousOverflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = previousOverflow;
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  function onKeyDown(event: React.KeyboardEvent<HTMLDivElement>) {
    if (event.key === 'Escape') {
      event.stopPropagation();
      if (!busyRef.current) closeRef.current();
      return;
    }
    if (event.key !== 'Tab' || !ref.current) return;
    const items = [...ref.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    if (items.length === 0) return;
    const first = items[0]!;
    const last = items[items.length - 1]!;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  }

  return createPortal(
    <div className="dialog-backdrop">
      <div
        ref={ref}
        role="dialog"
        aria-modal="true"
        aria-labelledby={`${id}-title`}
        aria-describedby={description ? `${id}-description` : undefined}
        aria-busy={busy || undefined}
        className={`dialog dialog--${size}`}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <header className="dialog__header">
          <div>
            <h2 id={`${id}-title`} className="dialog__title">
              {title}
            </h2>
            {description ? (
              <p id={`${id}-description`} className="muted dialog__description">
                {description}
              </p>
            ) : null}
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
      </div>
    </div>,
    document.body,
  );
}
