import {
  type AuditAction,
  canAccess,
  type TDisable2faBody,
  type TTwoFactorState,
  type ZIs2faEnabledBody,
} from '@quire/contract';
import type { z } from 'zod';
import { accessTypeFromDb, mayManage } from '../../lib/access-types.js';
import { AREA_VERBS } from '../../lib/area-verbs.js';
import { type Actor, audit } from '../../lib/audit.js';
import type { Deps, Tx } from '../../lib/deps.js';
import {
  AppError,
  forbidden,
  invalidInput,
  moreAccessThanYours,
  notAuthenticated,
  notFound,
  twoFactorRequired,
  vendorAdminProtected,
} from '../../lib/errors.js';
import { otp, qrcode } from '../../lib/load-later.js';
import { verifyPassword } from '../../lib/passwords.js';
import { decryptSecret, encryptSecret } from '../../lib/secrets.js';
import type { AuthContext } from '../../lib/session.js';
import { findUser, findUserWithCompany } from '../account/account.service.js';
import {
  dropRecoveryCodes,
  issueRecoveryCodes,
  recoveryCodesLeft,
  spendRecoveryCode,
} from '../account/recovery-code.service.js';
import { endSession, endUserSessions, markSessionVerified } from '../account/session.service.js';
import { enqueueMail } from '../email/email.queue.js';
import {
  codeAlreadyUsed,
  companyRequiresTwoFactor,
  invalidCode,
  invalidRecoveryCode,
  ownTwoFactorInProfile,
  tooManyRefusedCodes,
  twoFactorAlreadyOn,
  twoFactorNotSetUp,
  wrongPassword,
} from './auth.errors.js';
import { recoveryCodeUsedMail } from './auth.mail.js';
import * as repo from './auth.repository.js';
import { updateSignInSettings } from './sign-in-settings.service.js';

// Two-factor authentication (TOTP): setting it up, checking codes, turning it off, and an
// admin's reset. Refused codes are audited and counted per user (10 in 15 minutes, then 429).

/** Failed codes per user allowed within the window, then 429 until they age out. */
const MAX_REFUSED_CODES = 10;
const REFUSED_CODES_WINDOW_MS = 15 * 60_000;
/** The refusals are read from the audit trail, whose rows carry the real time (not deps.now). */
const windowStart = (deps: Pick<Deps, 'now'>) => new Date(deps.now().getTime() - REFUSED_CODES_WINDOW_MS);

const TOTP_ISSUER = 'Quire';
/** One 30-second step of clock drift either way. */
const TOTP_TOLERANCE_SECONDS = 30;

/** A Settings-write admin in a session that has passed 2FA, or a refusal. */
function assertSettingsWriter(auth: AuthContext): void {
  if (auth.twoFactorPending) throw twoFactorRequired();
  if (auth.role !== 'admin' || !canAccess(auth.accessType, 'settings', 'write')) {
    throw forbidden(AREA_VERBS.settings.write);
  }
}

async function loadUser(deps: Deps, auth: AuthContext) {
  const user = await findUserWithCompany(deps.db, auth.userId);
  if (!user) throw notAuthenticated();
  return user;
}

/** Whether the company and the user use 2FA; a Settings-write admin may set the company flag. */
export async function twoFactorState(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  input: z.infer<typeof ZIs2faEnabledBody>,
): Promise<TTwoFactorState> {
  const user = await loadUser(deps, auth);
  let companyRequired = user.company.twoFactorRequired;
  if (input?.company_2fa !== undefined) {
    assertSettingsWriter(auth);
    companyRequired = (await updateSignInSettings(deps, actor, { require_2fa: input.company_2fa }))
      .require_2fa;
  }
  return { isCompany2FAEnabled: companyRequired, isUser2FAEnabled: user.twoFactorEnabled };
}

/** A new TOTP secret for the user (not active until verify2fa accepts a code from it). */
export async function startTwoFactorSetup(deps: Deps, auth: AuthContext, actor: Actor) {
  const user = await loadUser(deps, auth);
  // With 2FA on, a new secret would let a password alone replace the authenticator.
  if (user.twoFactorEnabled) throw twoFactorAlreadyOn();
  const secret = otp().generateSecret();
  const otpauthUrl = otp().generateURI({ issuer: TOTP_ISSUER, label: user.username, secret });
  const qrCode = await qrcode().toDataURL(otpauthUrl, { errorCorrectionLevel: 'M', margin: 2, width: 240 });
  await deps.db.$transaction(async (tx) => {
    await repo.setTwoFactorSecret(tx, user.id, encryptSecret(deps.secretKey, secret));
    await audit(tx, actor, {
      type: 'auth',
      action: '2fa.setup_started',
      message: `${user.username} started setting up two-factor authentication`,
      targetType: 'user',
      targetId: user.id,
    });
  });
  return { secret, otpauth_url: otpauthUrl, qr_code: qrCode };
}

/**
 * Checks a code against the user's secret (one step of drift either way) and claims its
 * time step inside `tx`, so the same code cannot be used twice. Throws when it does not fit.
 */
async function checkCode(
  deps: Deps,
  tx: Tx,
  user: { id: number; username: string; twoFactorSecret: string | null },
  code: string,
) {
  if (!user.twoFactorSecret) throw twoFactorNotSetUp();
  const secret = decryptSecret(deps.secretKey, user.twoFactorSecret);
  const result = await otp().verify({
    secret,
    token: code,
    epoch: Math.floor(deps.now().getTime() / 1000),
    epochTolerance: TOTP_TOLERANCE_SECONDS,
  });
  if (!result.valid || !('timeStep' in result)) throw invalidCode();
  const claimed = await repo.claimTwoFactorStep(tx, user.id, result.timeStep);
  if (claimed.count === 0) throw codeAlreadyUsed();
}

/** A refused code is an audit event of its own (a 400 is not audited by the error handler). */
async function auditFailedCode(
  deps: Deps,
  actor: Actor,
  user: { id: number; username: string },
  action: AuditAction<'security'>,
) {
  await audit(deps.db, actor, {
    type: 'security',
    action,
    message: `${user.username}: a two-factor code was refused`,
    targetType: 'user',
    targetId: user.id,
    at: deps.now(),
  });
}

/**
 * Runs a change that checks a code; when the code (or password) is refused (400), the
 * transaction rolls back and the refusal is audited on its own.
 */
async function auditingRefusal<T>(
  deps: Deps,
  actor: Actor,
  user: { id: number; username: string },
  action: AuditAction<'security'>,
  change: () => Promise<T>,
): Promise<T> {
  try {
    return await change();
  } catch (err) {
    if (err instanceof AppError && err.statusCode === 400) await auditFailedCode(deps, actor, user, action);
    throw err;
  }
}

/** 429 once a user has had MAX_REFUSED_CODES codes (or passwords) refused within the window. */
async function assertCodeBudget(deps: Deps, userId: number) {
  if ((await repo.countRefusedCodes(deps.db, userId, windowStart(deps))) >= MAX_REFUSED_CODES) {
    throw tooManyRefusedCodes();
  }
}

/** Accepts a code: turns the user's 2FA on and completes this session's sign-in. */
export async function verifyTwoFactor(deps: Deps, auth: AuthContext, actor: Actor, code: string) {
  const user = await loadUser(deps, auth);
  await assertCodeBudget(deps, user.id);
  const recoveryCodes = await auditingRefusal(deps, actor, user, '2fa.failed', () =>
    deps.db.$transaction(async (tx) => {
      await checkCode(deps, tx, user, code);
      // Turning 2FA on issues the recovery codes, answered this once.
      const codes = user.twoFactorEnabled ? undefined : await issueRecoveryCodes(tx, deps, user.id);
      if (!user.twoFactorEnabled) await repo.enableTwoFactor(tx, user.id);
      await markSessionVerified(tx, auth.sessionId);
      await audit(tx, actor, {
        type: 'auth',
        action: user.twoFactorEnabled ? '2fa.verified' : '2fa.enabled',
        message: user.twoFactorEnabled
          ? `${user.username} passed two-factor verification`
          : `${user.username} turned on two-factor authentication`,
        targetType: 'user',
        targetId: user.id,
        ...(codes ? { details: { recovery_codes_issued: codes.length } } : {}),
      });
      return codes;
    }),
  );
  return {
    verified: true as const,
    isCompany2FAEnabled: user.company.twoFactorRequired,
    isUser2FAEnabled: true,
    ...(recoveryCodes ? { recovery_codes: recoveryCodes } : {}),
  };
}

/**
 * Completes this session's sign-in with a recovery code in place of an authenticator code:
 * the code is spent, audited, and the user is told by e-mail. A wrong one is refused like a
 * wrong code (400, audited, counted towards the same budget).
 */
export async function verifyRecoveryCode(deps: Deps, auth: AuthContext, actor: Actor, code: string) {
  const user = await loadUser(deps, auth);
  if (!user.twoFactorEnabled) throw twoFactorNotSetUp();
  await assertCodeBudget(deps, user.id);
  const left = await auditingRefusal(deps, actor, user, '2fa.failed', () =>
    deps.db.$transaction(async (tx) => {
      if (!(await spendRecoveryCode(tx, deps, user.id, code))) throw invalidRecoveryCode();
      await markSessionVerified(tx, auth.sessionId);
      const remaining = await recoveryCodesLeft(tx, user.id);
      await audit(tx, actor, {
        type: 'auth',
        action: '2fa.recovery_used',
        message: `${user.username} signed in with a recovery code (${remaining} left)`,
        targetType: 'user',
        targetId: user.id,
        details: { remaining },
      });
      await enqueueMail(tx, {
        ...recoveryCodeUsedMail({ publicUrl: deps.config.publicUrl }, user, remaining),
        createdById: user.id,
      });
      return remaining;
    }),
  );
  return {
    verified: true as const,
    isCompany2FAEnabled: user.company.twoFactorRequired,
    isUser2FAEnabled: true,
    remaining_recovery_codes: left,
  };
}

/** How many of the signed-in user's recovery codes are left. */
export async function recoveryCodeCount(deps: Deps, auth: AuthContext) {
  return { remaining: await recoveryCodesLeft(deps.db, auth.userId) };
}

/** Ten new recovery codes, with a current code or the password; the old ones stop working. */
export async function regenerateRecoveryCodes(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  input: TDisable2faBody,
) {
  const user = await loadUser(deps, auth);
  if (!user.twoFactorEnabled) throw twoFactorNotSetUp();
  await assertCodeBudget(deps, user.id);
  await checkPasswordInstead(deps, actor, user, input);
  const codes = await auditingRefusal(deps, actor, user, '2fa.failed', () =>
    deps.db.$transaction(async (tx) => {
      if (input.code !== undefined) await checkCode(deps, tx, user, input.code);
      const issued = await issueRecoveryCodes(tx, deps, user.id);
      await audit(tx, actor, {
        type: 'auth',
        action: '2fa.recovery_codes_issued',
        message: `${user.username} made new two-factor recovery codes; the old ones stopped working`,
        targetType: 'user',
        targetId: user.id,
      });
      return issued;
    }),
  );
  return { recovery_codes: codes, remaining: codes.length };
}

/** Without a code, the password must be right (a refusal is audited and counted as a code's). */
async function checkPasswordInstead(
  deps: Deps,
  actor: Actor,
  user: { id: number; username: string; passwordHash: string | null },
  input: TDisable2faBody,
) {
  if (input.code !== undefined || input.password === undefined) return;
  if (!(await verifyPassword(user.passwordHash, input.password))) {
    await auditFailedCode(deps, actor, user, '2fa.disable_failed');
    throw wrongPassword('password');
  }
}

/** Turns the user's own 2FA off, with a current code or the password. */
export async function disableTwoFactor(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  input: TDisable2faBody,
): Promise<TTwoFactorState> {
  const user = await loadUser(deps, auth);
  if (user.company.twoFactorRequired) throw companyRequiresTwoFactor();
  await assertCodeBudget(deps, user.id);
  await checkPasswordInstead(deps, actor, user, input);
  await auditingRefusal(deps, actor, user, '2fa.disable_failed', () =>
    deps.db.$transaction(async (tx) => {
      if (input.code !== undefined) await checkCode(deps, tx, user, input.code);
      await repo.clearTwoFactor(tx, user.id);
      await dropRecoveryCodes(tx, user.id);
      await audit(tx, actor, {
        type: 'auth',
        action: '2fa.disabled',
        message: `${user.username} turned off two-factor authentication`,
        targetType: 'user',
        targetId: user.id,
      });
    }),
  );
  return { isCompany2FAEnabled: false, isUser2FAEnabled: false };
}

/**
 * Asks a signed-in admin to prove it is them again before a dangerous act (downloading,
 * uploading or restoring a backup): the password, and the current 2FA code when the user
 * has 2FA on. A refusal is a 400 naming the field, audited, and counts towards the same
 * budget as refused 2FA codes.
 */
export async function confirmIdentity(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  input: { password: string; code?: string },
): Promise<void> {
  const user = await loadUser(deps, auth);
  await assertCodeBudget(deps, user.id);
  if (!(await verifyPassword(user.passwordHash, input.password))) {
    await auditFailedCode(deps, actor, user, 'reauth.failed');
    throw wrongPassword('password');
  }
  if (!user.twoFactorEnabled) return;
  const code = input.code;
  if (!code)
    throw invalidInput('Enter the 6-digit code from your authenticator app', [
      { path: 'body.code', message: 'Enter the 6-digit code from your authenticator app' },
    ]);
  await auditingRefusal(deps, actor, user, 'reauth.failed', () =>
    deps.db.$transaction((tx) => checkCode(deps, tx, user, code)),
  );
}

/**
 * Without `userId`: gives up this session (the half-signed-in one waiting for its code).
 * With it: a Settings-write admin resets that user's 2FA and ends their sessions.
 */
export async function clearTwoFactor(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  userId: number | undefined,
) {
  const now = deps.now();
  if (userId === undefined) {
    await deps.db.$transaction(async (tx) => {
      await endSession(tx, auth.sessionId, now);
      await audit(tx, actor, {
        type: 'auth',
        action: '2fa.session_cleared',
        message: `${auth.username} gave up a sign-in waiting for two-factor verification`,
        targetType: 'user',
        targetId: auth.userId,
      });
    });
    return;
  }
  assertSettingsWriter(auth);
  if (userId === auth.userId) throw ownTwoFactorInProfile();
  const target = await findUser(deps.db, userId);
  if (!target || target.status === 'deleted') throw notFound('User');
  if (target.accessType === 'VENDOR_ADMIN') throw vendorAdminProtected();
  if (!mayManage(auth.accessType, accessTypeFromDb(target.accessType))) throw moreAccessThanYours();
  await deps.db.$transaction(async (tx) => {
    await repo.clearTwoFactor(tx, target.id);
    await dropRecoveryCodes(tx, target.id);
    await endUserSessions(tx, target.id, now, auth.sessionId);
    await audit(tx, actor, {
      type: 'user',
      action: '2fa.reset',
      message: `${auth.username} reset two-factor authentication of ${target.username}`,
      targetType: 'user',
      targetId: target.id,
    });
  });
}
