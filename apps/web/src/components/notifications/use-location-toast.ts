import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useNotify } from './notification-context';

export interface ToastState {
  toast?: string;
  /** success unless told otherwise. */
  toastKind?: 'success' | 'info' | 'warning';
}

/** Shows the toast a navigation passed in its state (`{ toast }`), once (spec §2). */
export function useLocationToast() {
  const location = useLocation();
  const navigate = useNavigate();
  const notify = useNotify();
  const shown = useRef<string | null>(null);
  const state = location.state as ToastState | null;
  const toast = state?.toast;
  const kind = state?.toastKind ?? 'success';

  useEffect(() => {
    if (!toast || shown.current === location.key) return;
    shown.current = location.key;
    notify[kind](toast);
    // Drop the state, so that a reload or going back does not show it again.
    navigate(`${location.pathname}${location.search}`, { replace: true, state: null });
  }, [toast, kind, location.key, location.pathname, location.search, navigate, notify]);
}
