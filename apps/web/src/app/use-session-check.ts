import { useEffect, useEffectEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useNotify } from '../components/notifications/notification-context';
import type { ToastState } from '../components/notifications/use-location-toast';
import { isAbortError, isNotAuthenticated } from '../lib/api-error';
import { useCurrentUser } from '../lib/current-user';
import { onSessionEnded } from '../lib/session-events';
import { clearAuth, setUserData } from '../lib/storage';
import { loginPathFor } from './login-path';

export const SESSION_ENDED_MESSAGE = 'Your session has ended, please sign in again';

/**
 * Loads the current user when a signed-in area opens (spec §8). A 401 ("You are not
 * authenticated, Please login") from it or from any other call clears the session and goes to
 * /login at once; other failures toast.
 */
export function useSessionCheck() {
  const query = useCurrentUser();
  const notify = useNotify();
  const endSession = useEndSession();

  const onError = useEffectEvent((error: Error) => {
    if (isAbortError(error)) return;
    if (isNotAuthenticated(error)) {
      endSession();
      return;
    }
    notify.notifyFailure('Failed to load user', error);
  });

  const { error, errorUpdatedAt, data } = query;
  useEffect(() => {
    if (error && errorUpdatedAt) onError(error);
  }, [error, errorUpdatedAt]);

  useEffect(() => {
    if (data) setUserData(data);
  }, [data]);

  // Any other call answered 401 ends the session too, on that failed load.
  const ended = useEffectEvent(() => endSession());
  useEffect(() => onSessionEnded(() => ended()), []);

  return query;
}

/** Forgets the session and goes to /login (back here after signing in), saying why. */
function useEndSession() {
  const navigate = useNavigate();
  const location = useLocation();
  return () => {
    clearAuth();
    navigate(loginPathFor(location), {
      replace: true,
      state: { toast: SESSION_ENDED_MESSAGE, toastKind: 'info' } satisfies ToastState,
    });
  };
}
