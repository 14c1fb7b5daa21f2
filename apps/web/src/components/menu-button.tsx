import { type KeyboardEvent, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';

export interface MenuItem {
  /** What the item shows: "Delete". */
  label: string;
  /** Its accessible name, naming the row it acts on: "Delete Alice Smith". */
  name?: string;
  danger?: boolean;
  onSelect: () => void;
}

/**
 * A button that opens a menu of actions (WAI-ARIA menu button): Enter, Space or ↓ opens it
 * on the first item, ↑ on the last; arrows, Home and End move; Enter or Space chooses; Esc
 * closes it and Tab leaves it, the focus back on the button. The menu floats above the page,
 * so that a table's scroll box does not cut it off.
 */
export function MenuButton({
  label,
  name,
  items,
}: {
  /** What the button shows: "More". */
  label: string;
  /** The button's accessible name: "More actions for Alice Smith". */
  name: string;
  items: MenuItem[];
}) {
  const id = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  /** Which item gets the focus when the menu opens; null: closed. */
  const [open, setOpen] = useState<'first' | 'last' | null>(null);

  const itemsOf = () => [...(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
  const close = (refocus: boolean) => {
    setOpen(null);
    if (refocus) buttonRef.current?.focus();
  };

  // Placed under the button (above it when there is no room below), right edges aligned.
  useLayoutEffect(() => {
    const menu = menuRef.current;
    if (!open || !buttonRef.current || !menu) return;
    // Before the first paint, so that the menu shows (and takes the focus) where it belongs.
    const rect = buttonRef.current.getBoundingClientRect();
    const height = menu.offsetHeight;
    const below = rect.bottom + 4;
    const top =
      below + height > window.innerHeight && rect.top - height - 4 > 0 ? rect.top - height - 4 : below;
    menu.style.top = `${top}px`;
    menu.style.right = `${Math.max(8, window.innerWidth - rect.right)}px`;
    const list = menu.querySelectorAll<HTMLElement>('[role="menuitem"]');
    (open === 'first' ? list[0] : list[list.length - 1])?.focus();
  }, [open]);

  // A click elsewhere, scrolling or resizing closes it.
  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!menuRef.current?.contains(target) && !buttonRef.current?.contains(target)) setOpen(null);
    };
    const onMove = (event: Event) => {
      if (event.target instanceof Node && menuRef.current?.contains(event.target)) return;
      setOpen(null);
    };
    document.addEventListener('pointerdown', onPointer);
    window.addEventListener('resize', onMove);
    window.addEventListener('scroll', onMove, true);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      window.removeEventListener('resize', onMove);
      window.removeEventListener('scroll', onMove, true);
    };
  }, [open]);

  function onButtonKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(event.key === 'ArrowDown' ? 'first' : 'last');
    }
  }

  function onMenuKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const list = itemsOf();
    const at = list.indexOf(document.activeElement as HTMLElement);
    const move = (index: number) => {
      event.preventDefault();
      list[(index + list.length) % list.length]?.focus();
    };
    if (event.key === 'ArrowDown') move(at + 1);
    else if (event.key === 'ArrowUp') move(at - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(list.length - 1);
    else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      close(true);
    } else if (event.key === 'Tab') {
      // Back on the button first, so that Tab goes on from there.
      close(true);
    }
  }

  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        className="button button--link button--small menu-button"
        aria-label={name}
        aria-haspopup="menu"
        aria-expanded={open !== null}
        aria-controls={open ? `${id}-menu` : undefined}
        onClick={() => (open ? close(false) : setOpen('first'))}
        onKeyDown={onButtonKeyDown}
      >
        {label}
        <span aria-hidden="true" className="menu-button__caret">
          ▾
        </span>
      </button>
      {open
        ? createPortal(
            <div
              ref={menuRef}
              id={`${id}-menu`}
              role="menu"
              aria-label={name}
              className="menu"
              onKeyDown={onMenuKeyDown}
            >
              {items.map((item) => (
                <button
                  key={item.label}
                  type="button"
                  role="menuitem"
                  tabIndex={-1}
                  className={`menu__item${item.danger ? ' is-danger' : ''}`}
                  aria-label={item.name}
                  onClick={() => {
                    close(true);
                    item.onSelect();
                  }}
                >
                  {item.label}
                </button>
              ))}
            </div>,
            document.body,
          )
        : null}
    </>
  );
}
