import { useCallback, useRef, useState } from 'react';
import { useLocation } from 'react-router';

/**
 * Something folded out on this page only (a menu, a drawer, the phone's search): it remembers
 * the page it was opened on, so opening another page folds it again. `toggleProps` make the
 * button that shows it a disclosure button for `panelId` (its `aria-expanded`, `aria-controls`
 * and click); `closeToButton` folds it and gives the focus back to that button.
 */
export function usePageDisclosure(panelId: string) {
  const { pathname } = useLocation();
  const [openOn, setOpenOn] = useState<string | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const open = openOn === pathname;
  const close = useCallback(() => setOpenOn(null), []);
  const toggle = () => setOpenOn(open ? null : pathname);
  return {
    open,
    show: () => setOpenOn(pathname),
    close,
    toggle,
    closeToButton: () => {
      close();
      button.current?.focus();
    },
    toggleProps: {
      ref: button,
      type: 'button',
      'aria-expanded': open,
      'aria-controls': panelId,
      onClick: toggle,
    } as const,
  };
}
