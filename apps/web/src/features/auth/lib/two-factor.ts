// Finishing a sign-in that waited for its second factor (spec §4).
import { landingPath } from '@quire/contract';
import {
  type AuthRecord,
  clearTemporalAuth,
  getTemporalAuth,
  setAuth,
  setIsUser2FAVerified,
} from '../../../lib/storage';
import { safeRedirect } from './next-step';

/** After 2FA verification, this long before the page moves on (spec §9). */
export const TWO_FACTOR_REDIRECT_DELAY_MS = 2_000;

export const TWO_FACTOR_VERIFIED_MESSAGE = '2FA verified successfully!';
export const ENABLE_2FA_FAILED = 'Failed to enable 2FA!';
export const VERIFY_2FA_FAILED = 'Failed to verify 2FA!';
export const CLEAR_2FA_FAILED = 'Failed to clear 2FA session!';

/** Moves temporal_auth to auth and sets isUser2FAVerified; returns the session, or null if none waited. */
export function finishTwoFactorSignIn(): AuthRecord | null {
  const pending = getTemporalAuth();
  if (!pending) return null;
  const record: AuthRecord = { ...pending, data: { ...pending.data, isUser2FAEnabled: true } };
  setAuth(record);
  clearTemporalAuth();
  setIsUser2FAVerified(true);
  return record;
}

/**
 * Where a verified sign-in goes: the redirect parameter wins, else the landing page of the
 * role and access type (from the page's parameters, else from the login itself).
 */
export function afterTwoFactorPath(params: URLSearchParams, record: AuthRecord): string | null {
  const redirect = safeRedirect(params.get('redirect'));
  if (redirect) return redirect;
  return landingPath(
    params.get('role') ?? record.data.role,
    params.get('access_type') ?? record.data.access_type,
  );
}
