import type { TRegistrationState, TSignInSettings, TSignInSettingsBody } from '@quire/contract';
import { type Actor, audit } from '../../lib/audit.js';
import type { Deps } from '../../lib/deps.js';
import { notFound } from '../../lib/errors.js';
import { findUser } from '../account/account.service.js';
import { ownTwoFactorFirst } from './auth.errors.js';
import * as repo from './auth.repository.js';

// The company-wide sign-in settings: 2FA required for everyone, self-registration.

const toSignInSettings = (c: { twoFactorRequired: boolean; selfRegistration: boolean }): TSignInSettings => ({
  require_2fa: c.twoFactorRequired,
  self_registration: c.selfRegistration,
});

export async function signInSettings(deps: Deps): Promise<TSignInSettings> {
  const company = await repo.findCompany(deps.db);
  return toSignInSettings(company ?? { twoFactorRequired: false, selfRegistration: false });
}

/** For anyone: whether self-registration is on (the one setting the public pages need). */
export async function registrationState(deps: Deps): Promise<TRegistrationState> {
  return { open: (await signInSettings(deps)).self_registration };
}

/** Company-wide sign-in settings; each change is an audit event of its own. */
export async function updateSignInSettings(
  deps: Deps,
  actor: Actor,
  input: TSignInSettingsBody,
): Promise<TSignInSettings> {
  return deps.db.$transaction(async (tx) => {
    const company = await repo.findCompany(tx);
    if (!company) throw notFound('Company');
    if (input.require_2fa && !company.twoFactorRequired && actor.userId !== null) {
      // Requiring 2FA puts every unverified session on hold at once, the admin's own included.
      const admin = await findUser(tx, actor.userId);
      if (!admin?.twoFactorEnabled) throw ownTwoFactorFirst();
    }
    const changes: Array<['require_2fa' | 'self_registration', boolean]> = [];
    if (input.require_2fa !== undefined && input.require_2fa !== company.twoFactorRequired)
      changes.push(['require_2fa', input.require_2fa]);
    if (input.self_registration !== undefined && input.self_registration !== company.selfRegistration)
      changes.push(['self_registration', input.self_registration]);
    if (changes.length === 0) return toSignInSettings(company);
    const updated = await repo.updateCompanySignIn(tx, company.id, {
      twoFactorRequired: input.require_2fa,
      selfRegistration: input.self_registration,
    });
    for (const [setting, on] of changes) {
      await audit(tx, actor, {
        type: 'settings',
        action: `company.${setting}.${on ? 'on' : 'off'}`,
        message:
          setting === 'require_2fa'
            ? `Two-factor authentication ${on ? 'required' : 'no longer required'} for everyone`
            : `Self-registration turned ${on ? 'on' : 'off'}`,
        targetType: 'company',
        targetId: company.id,
        details: { [setting]: on },
      });
    }
    return toSignInSettings(updated);
  });
}

/** Whether the company lets people register themselves. */
export async function selfRegistrationOn(deps: Deps) {
  const company = await repo.findCompany(deps.db);
  return company?.selfRegistration ? company : null;
}
