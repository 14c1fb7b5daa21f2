// Where a successful login goes next (spec §4). Pure: the login page stores and navigates.
import { landingPath } from '@quire/contract/access';

export const INVALID_ROLE_MESSAGE = 'Invalid role, Try again with the correct role';

export interface LoginOutcome {
  /** The login role chosen on the form. */
  role: string;
  accessType: string;
  isCompany2FAEnabled: boolean;
  isUser2FAEnabled: boolean;
  /** `?redirect=` (or `?preview=`) of the login page. */
  redirect?: string | null;
}

export type NextStep =
  | { kind: 'setup-2fa'; to: string }
  | { kind: 'verify-2fa'; to: string }
  | { kind: 'signed-in'; to: string }
  | { kind: 'invalid-role'; message: string };

/** Only a path of this site: no `//host`, no `https://…`, nothing that leads back to /login. */
export function safeRedirect(redirect: string | null | undefined): string | null {
  if (!redirect?.startsWith('/') || redirect.startsWith('//') || redirect.startsWith('/\\')) return null;
  if (redirect === '/login' || redirect.startsWith('/login?')) return null;
  return redirect;
}

function twoFactorPath(page: 'setup-2fa' | 'verify-2fa', o: LoginOutcome, redirect: string | null): string {
  const query = new URLSearchParams({ role: o.role });
  if (o.accessType) query.set('access_type', o.accessType);
  if (redirect) query.set('redirect', redirect);
  return `/auth/${page}?${query.toString()}`;
}

export function nextStep(o: LoginOutcome): NextStep {
  const redirect = safeRedirect(o.redirect);
  if (o.isCompany2FAEnabled && !o.isUser2FAEnabled) {
    return { kind: 'setup-2fa', to: twoFactorPath('setup-2fa', o, redirect) };
  }
  if (o.isUser2FAEnabled) {
    return { kind: 'verify-2fa', to: twoFactorPath('verify-2fa', o, redirect) };
  }
  if (redirect) return { kind: 'signed-in', to: redirect };
  const landing = landingPath(o.role, o.accessType);
  return landing
    ? { kind: 'signed-in', to: landing }
    : { kind: 'invalid-role', message: INVALID_ROLE_MESSAGE };
}
