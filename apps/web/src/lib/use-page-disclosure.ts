import { useCallback, useState } from 'react';
import { useLocation } from 'react-router';

/**
 * Something folded out on this page only (a menu, a drawer, the phone's search): it remembers
 * the page it was opened on, so opening another page folds it again.
 */
export function usePageDisclosure() {
  const { pathname } = useLocation();
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  return {
    open,
    show: () => setOpenOn(pathname),
    close: useCallback(() => setOpenOn(null), []),
    toggle: () => setOpenOn(open ? null : pathname),
  };
}
