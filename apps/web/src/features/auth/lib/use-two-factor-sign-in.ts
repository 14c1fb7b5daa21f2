// The shared half of /auth/setup-2fa and /auth/verify-2fa: verify a code, finish the sign-in,
// say so, move on after 2 s (spec §4); or give the sign-in up (Cancel).
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useNotify } from '../../../components/notifications/notification-context';
import type { ToastState } from '../../../components/notifications/use-location-toast';
import { ApiError, isNotAuthenticated } from '../../../lib/api-error';
import { clearAuth } from '../../../lib/storage';
import { useClear2fa } from '../api/clear-2fa';
import { useVerify2fa } from '../api/verify-2fa';
import { useVerify2faRecovery } from '../api/verify-2fa-recovery';
import { INVALID_ROLE_MESSAGE } from './next-step';
import {
  afterTwoFactorPath,
  CLEAR_2FA_FAILED,
  finishTwoFactorSignIn,
  TWO_FACTOR_REDIRECT_DELAY_MS,
  TWO_FACTOR_VERIFIED_MESSAGE,
  VERIFY_2FA_FAILED,
} from './two-factor';

export const SIGN_IN_AGAIN_MESSAGE = 'Your sign-in has expired, please sign in again';

export function useTwoFactorSignIn() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const verify = useVerify2fa();
  const recover = useVerify2faRecovery();
  const clear = useClear2fa();
  const [destination, setDestination] = useState<string | null>(null);
  const [codeError, setCodeError] = useState<string | undefined>();
  const [recoveryError, setRecoveryError] = useState<string | undefined>();
  /** Recovery codes issued by this verification (2FA just turned on), shown before moving on. */
  const [held, setHeld] = useState<{ to: string; codes: string[] } | null>(null);

  useEffect(() => {
    if (!destination) return;
    const timer = setTimeout(() => navigate(destination, { replace: true }), TWO_FACTOR_REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [destination, navigate]);

  /** The waiting sign-in is no longer valid on the server: start again from /login. */
  function restart() {
    clearAuth();
    navigate('/login', {
      replace: true,
      state: { toast: SIGN_IN_AGAIN_MESSAGE, toastKind: 'warning' } satisfies ToastState,
    });
  }

  /** The sign-in is complete: move on (after showing new recovery codes, when there are). */
  function signedIn(codes?: string[]) {
    const record = finishTwoFactorSignIn();
    const to = record ? afterTwoFactorPath(params, record) : null;
    notify.success(TWO_FACTOR_VERIFIED_MESSAGE);
    if (!to) {
      clearAuth();
      navigate('/login', {
        replace: true,
        state: { toast: INVALID_ROLE_MESSAGE, toastKind: 'warning' } satisfies ToastState,
      });
    } else if (codes?.length) setHeld({ to, codes });
    else setDestination(to);
  }

  /** A refused code: said at its field (`path`), toasted; an expired sign-in starts again. */
  function refused(error: unknown, path: string, show: (message: string) => void) {
    notify.notifyFailure(VERIFY_2FA_FAILED, error);
    if (isNotAuthenticated(error)) {
      restart();
      return;
    }
    const field = error instanceof ApiError ? error.errors.find((e) => e.path === path) : undefined;
    show(
      field?.message ?? (error instanceof ApiError ? error.serverMessage : undefined) ?? VERIFY_2FA_FAILED,
    );
  }

  function submitCode(code: string) {
    setCodeError(undefined);
    verify.mutate(code, {
      onSuccess: (verified) => signedIn(verified.recovery_codes),
      onError: (error) => refused(error, 'body.code', setCodeError),
    });
  }

  function submitRecoveryCode(code: string) {
    setRecoveryError(undefined);
    recover.mutate(code, {
      onSuccess: () => signedIn(),
      onError: (error) => refused(error, 'body.recovery_code', setRecoveryError),
    });
  }

  function cancel() {
    clear.mutate(undefined, {
      onError: (error) => notify.notifyFailure(CLEAR_2FA_FAILED, error),
      onSettled: () => {
        clearAuth();
        queryClient.clear();
        navigate('/login', { replace: true });
      },
    });
  }

  return {
    submitCode,
    submitRecoveryCode,
    verifying: verify.isPending || recover.isPending,
    verified: destination !== null,
    codeError,
    recoveryError,
    /** Recovery codes to show before moving on, and the way on. */
    newCodes: held?.codes ?? null,
    proceed: () => held && setDestination(held.to),
    cancel,
    cancelling: clear.isPending,
    restart,
  };
}
