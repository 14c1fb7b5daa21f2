import { calls } from '@quire/contract/calls';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { useNotificationStore } from '../components/notifications/notification-context';
import type { ToastState } from '../components/notifications/use-location-toast';
import { callApi } from '../lib/api-client';
import { clearAuth } from '../lib/storage';

export const SIGNED_OUT_MESSAGE = 'You have been signed out';

/** How long sign-out waits for the server before signing out locally anyway. */
export const LOGOUT_TIMEOUT_MS = 5_000;

/**
 * Signs out: tells the server, then clears the stored session and lands on / with a toast,
 * whether or not the server call succeeded (spec §4).
 */
export function useLogout() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const notifications = useNotificationStore();
  const [pending, setPending] = useState(false);

  const logout = useCallback(async () => {
    setPending(true);
    try {
      await callApi(calls.auth.logout, { signal: AbortSignal.timeout(LOGOUT_TIMEOUT_MS) });
    } catch {
      // The server may be down or the session already gone: the client signs out regardless.
    }
    clearAuth();
    // No message of the signed-in pages outlives them ("2FA verified successfully!" on /).
    notifications.clear();
    await navigate('/', { replace: true, state: { toast: SIGNED_OUT_MESSAGE } satisfies ToastState });
    // After leaving the signed-in pages, so that none of them refetches with no session.
    queryClient.clear();
  }, [navigate, queryClient, notifications]);

  return { logout, pending };
}
