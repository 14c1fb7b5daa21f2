import { useEffect, useRef, useState } from 'react';
import { Button } from './button';
import { Dialog } from './dialog';

/**
 * The attribute that makes an element a row for the list shortcuts (j, k, x, Enter). Any list
 * can take part: put it on each row's element (focusable: a React Aria row, or tabIndex={-1}).
 * `x` clicks the row's first checkbox; Enter its first link.
 */
export const SHORTCUT_ROW = 'data-shortcut-row';
export const shortcutRowProps = { [SHORTCUT_ROW]: '' } as const;

export const SHORTCUTS: Array<{ keys: string[]; what: string }> = [
  { keys: ['/'], what: 'Search files' },
  { keys: ['j'], what: 'Next row of the list' },
  { keys: ['k'], what: 'Previous row of the list' },
  { keys: ['x'], what: 'Select or unselect the row' },
  { keys: ['Enter'], what: 'Open the row' },
  { keys: ['?'], what: 'This list of shortcuts' },
];

const NOT_TYPING = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file']);

/** The key goes into a field (or a widget that reads letters): no shortcut then. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLInputElement) return !NOT_TYPING.has(target.type);
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return (
    target.closest('[role="combobox"], [role="textbox"], [role="searchbox"], [role="spinbutton"]') !== null
  );
}

/** A dialog or menu is open: its own keys win, the page behind stays as it was. */
function somethingOnTop(target: EventTarget | null): boolean {
  if (document.querySelector('.dialog-backdrop, [role="dialog"][aria-modal="true"]')) return true;
  return (
    target instanceof HTMLElement &&
    target.closest('[role="menu"], [role="listbox"], [role="dialog"]') !== null
  );
}

function visibleRows(): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>(`[${SHORTCUT_ROW}]`)].filter(
    (row) => !row.closest('[hidden], [inert], [aria-hidden="true"]'),
  );
}

/** Moves the focus one row down (+1) or up (-1); from outside the list, to its first or last row. */
function moveRow(step: 1 | -1): boolean {
  const rows = visibleRows();
  if (rows.length === 0) return false;
  const active = document.activeElement;
  const at = rows.findIndex((row) => row === active || row.contains(active));
  const next =
    at === -1 ? (step === 1 ? 0 : rows.length - 1) : Math.min(rows.length - 1, Math.max(0, at + step));
  const row = rows[next];
  row?.focus();
  row?.scrollIntoView?.({ block: 'nearest' });
  return true;
}

function focusedRow(): HTMLElement | null {
  return document.activeElement?.closest<HTMLElement>(`[${SHORTCUT_ROW}]`) ?? null;
}

export interface ShortcutActions {
  /** `/`: brings up and focuses the search box; absent: no search on this page. */
  focusSearch?: () => void;
}

/**
 * The keyboard shortcuts of the signed-in pages, for people who live in them: `/` search,
 * `j`/`k` next and previous row, `x` select the row, Enter open it, `?` the list of shortcuts.
 * Never while typing in a field, with a modifier held, or while a dialog or menu is open.
 * Listens in the capture phase, so that a row's own typeahead does not read j and k as well.
 */
export function useKeyboardShortcuts(actions: ShortcutActions) {
  const [helpOpen, setHelpOpen] = useState(false);
  const latest = useRef(actions);
  latest.current = actions;

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTyping(event.target) || somethingOnTop(event.target)) return;
      const handled = (() => {
        switch (event.key) {
          case '/':
            if (!latest.current.focusSearch) return false;
            latest.current.focusSearch();
            return true;
          case '?':
            setHelpOpen(true);
            return true;
          case 'j':
            return moveRow(1);
          case 'k':
            return moveRow(-1);
          case 'x': {
            const box = focusedRow()?.querySelector<HTMLInputElement>('input[type="checkbox"]');
            box?.click();
            return Boolean(box);
          }
          case 'Enter': {
            // On the row or one of its cells (a link or button inside it does its own thing).
            const row = focusedRow();
            if (!row || document.activeElement?.closest('a, button, input, select, textarea')) return false;
            const link = row.querySelector<HTMLAnchorElement>('a[href]');
            link?.click();
            return Boolean(link);
          }
          default:
            return false;
        }
      })();
      if (handled) {
        event.preventDefault();
        event.stopPropagation();
      }
    };
    document.addEventListener('keydown', onKey, true);
    return () => document.removeEventListener('keydown', onKey, true);
  }, []);

  return { helpOpen, openHelp: () => setHelpOpen(true), closeHelp: () => setHelpOpen(false) };
}

/** The list of shortcuts (`?`). */
export function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  return (
    <Dialog title="Keyboard shortcuts" onClose={onClose} size="small">
      <p className="muted">Anywhere but in a field:</p>
      <dl className="details shortcut-list">
        {SHORTCUTS.map(({ keys, what }) => (
          <div key={what}>
            <dt>
              {keys.map((key) => (
                <kbd key={key}>{key}</kbd>
              ))}
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
      <div className="dialog__actions">
        <Button variant="primary" data-autofocus onClick={onClose}>
          Close
        </Button>
      </div>
    </Dialog>
  );
}
