import {
  canAccess,
  type LoginRole,
  mayUseRole,
  passwordProblems,
  type TClientError,
  type TLoginData,
  type TSignInSettings,
  type TTwoFactorState,
  type TUser,
} from '@quire/contract';
import { Prisma } from '@quire/db';
import { generateSecret, generateURI, verify as verifyOtp } from 'otplib';
import QRCode from 'qrcode';
import { z } from 'zod';
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
import { pageMeta } from '../../lib/paging.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../lib/passwords.js';
import { decryptSecret, encryptSecret } from '../../lib/secrets.js';
import type { AuthContext } from '../../lib/session.js';
import { hashToken, newToken } from '../../lib/tokens.js';
import { toUserDto } from '../../lib/user-dto.js';
import { enqueueMail } from '../email/email.queue.js';
import { authenticateExternal } from '../settings/settings.service.js';
import {
  accountInactive,
  codeAlreadyUsed,
  companyRequiresTwoFactor,
  invalidCode,
  invalidCredentials,
  invalidLink,
  invalidRole,
  ownTwoFactorFirst,
  ownTwoFactorInProfile,
  selfRegistrationOff,
  tooManyFailedSignIns,
  tooManyRefusedCodes,
  twoFactorAlreadyOn,
  twoFactorNotSetUp,
  wrongPassword,
} from './auth.errors.js';
import * as repo from './auth.repository.js';

export interface LoginInput {
  username: string;
  password: string;
  role: LoginRole;
}

/** Failed attempts per account allowed within FAILURE_WINDOW_MS, then 429 until they age out. */
const MAX_FAILURES = 10;
const FAILURE_WINDOW_MS = 15 * 60_000;
/** The failures are read from the audit trail, whose rows carry the real time (not deps.now). */
const failureWindowStart = () => new Date(Date.now() - FAILURE_WINDOW_MS);

/** Checks the credentials and the role, and opens a session. */
export async function login(
  deps: Deps,
  input: LoginInput,
  client: { ip?: string; userAgent?: string },
): Promise<TLoginData> {
  let user = await repo.findUserByLogin(deps.db, input.username);
  // Per account, whichever address it is tried from: the username and the e-mail count together.
  const logins = user ? [user.username, user.email] : [input.username.trim().toLowerCase()];
  if ((await repo.countFailedSignIns(deps.db, logins, failureWindowStart())) >= MAX_FAILURES) {
    throw tooManyFailedSignIns();
  }
  // The directory hook (settings area): an account without a local password, or a login
  // unknown here, is checked against the LDAP / Active Directory server when one is on.
  const external = user?.passwordHash
    ? null
    : await authenticateExternal(deps, input.username, input.password);
  if (external) user = await repo.findUserByLogin(deps.db, external.username);
  // Verify against a dummy hash when there is no such user, so the time taken does not tell.
  const ok =
    external !== null ||
    (await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), input.password));
  if (!user || !ok) {
    // Recorded here, always (not throttled like other anonymous refusals): the per-account
    // lock above counts these events, by the login as typed.
    await audit(
      deps.db,
      { userId: null, ip: client.ip },
      {
        type: 'security',
        action: 'access.unauthenticated',
        message: 'Sign-in refused: invalid username or password',
        details: { code: 'auth.invalid_credentials', username: input.username.trim().toLowerCase() },
      },
    );
    throw invalidCredentials();
  }
  if (user.status !== 'active') throw accountInactive(user.status);
  const accessType = accessTypeFromDb(user.accessType);
  if (!mayUseRole(accessType, input.role)) throw invalidRole();

  const { token, hash } = newToken();
  const now = deps.now();
  const actor: Actor = { userId: user.id, ip: client.ip };
  await deps.db.$transaction(async (tx) => {
    await repo.createSession(tx, {
      tokenHash: hash,
      userId: user.id,
      loginRole: input.role,
      expiresAt: new Date(now.getTime() + deps.config.SESSION_TTL_HOURS * 3_600_000),
      ip: client.ip,
      userAgent: client.userAgent?.slice(0, 512),
    });
    await audit(tx, actor, {
      type: 'auth',
      action: 'login.success',
      message: `${user.username} signed in as ${input.role}`,
      targetType: 'user',
      targetId: user.id,
    });
  });
  return {
    access_token: token,
    access_type: accessType,
    accountType: input.role === 'admin' ? 'Admin' : 'User',
    role: input.role,
    isCompany2FAEnabled: user.company.twoFactorRequired,
    isUser2FAEnabled: user.twoFactorEnabled,
    user: toUserDto(user),
  };
}

/** Revokes the session at once: its token stops working on the next call. */
export async function logout(deps: Deps, auth: AuthContext, actor: Actor): Promise<void> {
  await deps.db.$transaction(async (tx) => {
    await repo.revokeSession(tx, auth.sessionId, deps.now());
    await audit(tx, actor, {
      type: 'auth',
      action: 'logout',
      message: `${auth.username} signed out`,
      targetType: 'user',
      targetId: auth.userId,
    });
  });
}

/** The session as the auth hook found it: no second query. */
export function sessionState(auth: AuthContext) {
  return {
    active: true as const,
    twoFactorVerified: !auth.twoFactorPending,
    expires_at: auth.expiresAt.toISOString(),
  };
}

// ---- two-factor authentication -----------------------------------------------------------

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
  const user = await repo.findUserWithCompany(deps.db, auth.userId);
  if (!user) throw notAuthenticated();
  return user;
}

/** Whether the company and the user use 2FA; a Settings-write admin may set the company flag. */
export async function twoFactorState(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  input: { company_2fa?: boolean } | null | undefined,
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

const toSignInSettings = (c: { twoFactorRequired: boolean; selfRegistration: boolean }): TSignInSettings => ({
  require_2fa: c.twoFactorRequired,
  self_registration: c.selfRegistration,
});

export async function signInSettings(deps: Deps): Promise<TSignInSettings> {
  const company = await repo.findCompany(deps.db);
  return toSignInSettings(company ?? { twoFactorRequired: false, selfRegistration: false });
}

/** Company-wide sign-in settings; each change is an audit event of its own. */
export async function updateSignInSettings(
  deps: Deps,
  actor: Actor,
  input: Partial<TSignInSettings>,
): Promise<TSignInSettings> {
  return deps.db.$transaction(async (tx) => {
    const company = await repo.findCompany(tx);
    if (!company) throw notFound('Company');
    if (input.require_2fa && !company.twoFactorRequired && actor.userId !== null) {
      // Requiring 2FA puts every unverified session on hold at once, the admin's own included.
      const admin = await repo.findUser(tx, actor.userId);
      if (!admin?.twoFactorEnabled) throw ownTwoFactorFirst();
    }
    const changes: Array<[string, boolean]> = [];
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

/** A new TOTP secret for the user (not active until verify2fa accepts a code from it). */
export async function startTwoFactorSetup(deps: Deps, auth: AuthContext, actor: Actor) {
  const user = await loadUser(deps, auth);
  // With 2FA on, a new secret would let a password alone replace the authenticator.
  if (user.twoFactorEnabled) throw twoFactorAlreadyOn();
  const secret = generateSecret();
  const otpauthUrl = generateURI({ issuer: TOTP_ISSUER, label: user.username, secret });
  const qrCode = await QRCode.toDataURL(otpauthUrl, { errorCorrectionLevel: 'M', margin: 2, width: 240 });
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
  const result = await verifyOtp({
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
  action: string,
) {
  await audit(deps.db, actor, {
    type: 'security',
    action,
    message: `${user.username}: a two-factor code was refused`,
    targetType: 'user',
    targetId: user.id,
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
  action: string,
  change: () => Promise<T>,
): Promise<T> {
  try {
    return await change();
  } catch (err) {
    if (err instanceof AppError && err.statusCode === 400) await auditFailedCode(deps, actor, user, action);
    throw err;
  }
}

/** 429 once a user has had MAX_FAILURES codes (or passwords) refused within the window. */
async function assertCodeBudget(deps: Deps, userId: number) {
  if ((await repo.countRefusedCodes(deps.db, userId, failureWindowStart())) >= MAX_FAILURES) {
    throw tooManyRefusedCodes();
  }
}

/** Accepts a code: turns the user's 2FA on and completes this session's sign-in. */
export async function verifyTwoFactor(deps: Deps, auth: AuthContext, actor: Actor, code: string) {
  const user = await loadUser(deps, auth);
  await assertCodeBudget(deps, user.id);
  await auditingRefusal(deps, actor, user, '2fa.failed', () =>
    deps.db.$transaction(async (tx) => {
      await checkCode(deps, tx, user, code);
      if (!user.twoFactorEnabled) await repo.enableTwoFactor(tx, user.id);
      await repo.markSessionTwoFactorVerified(tx, auth.sessionId);
      await audit(tx, actor, {
        type: 'auth',
        action: user.twoFactorEnabled ? '2fa.verified' : '2fa.enabled',
        message: user.twoFactorEnabled
          ? `${user.username} passed two-factor verification`
          : `${user.username} turned on two-factor authentication`,
        targetType: 'user',
        targetId: user.id,
      });
    }),
  );
  return {
    verified: true as const,
    isCompany2FAEnabled: user.company.twoFactorRequired,
    isUser2FAEnabled: true,
  };
}

/** Turns the user's own 2FA off, with a current code or the password. */
export async function disableTwoFactor(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  input: { code?: string; password?: string },
): Promise<TTwoFactorState> {
  const user = await loadUser(deps, auth);
  if (user.company.twoFactorRequired) throw companyRequiresTwoFactor();
  await assertCodeBudget(deps, user.id);
  if (input.code === undefined && input.password !== undefined) {
    if (!(await verifyPassword(user.passwordHash, input.password))) {
      await auditFailedCode(deps, actor, user, '2fa.disable_failed');
      throw wrongPassword('password');
    }
  }
  await auditingRefusal(deps, actor, user, '2fa.disable_failed', () =>
    deps.db.$transaction(async (tx) => {
      if (input.code !== undefined) await checkCode(deps, tx, user, input.code);
      await repo.clearTwoFactor(tx, user.id);
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
  if (!input.code)
    throw invalidInput('Enter the 6-digit code from your authenticator app', [
      { path: 'body.code', message: 'Enter the 6-digit code from your authenticator app' },
    ]);
  const code = input.code;
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
      await repo.revokeSession(tx, auth.sessionId, now);
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
  const target = await repo.findUser(deps.db, userId);
  if (!target || target.status === 'deleted') throw notFound('User');
  if (target.accessType === 'VENDOR_ADMIN') throw vendorAdminProtected();
  if (!mayManage(auth.accessType, accessTypeFromDb(target.accessType))) throw moreAccessThanYours();
  await deps.db.$transaction(async (tx) => {
    await repo.clearTwoFactor(tx, target.id);
    await repo.revokeUserSessions(tx, target.id, now, auth.sessionId);
    await audit(tx, actor, {
      type: 'user',
      action: '2fa.reset',
      message: `${auth.username} reset two-factor authentication of ${target.username}`,
      targetType: 'user',
      targetId: target.id,
    });
  });
}

// ---- passwords ---------------------------------------------------------------------------

const RESET_TTL_MS = 60 * 60 * 1000;
const VERIFY_TTL_MS = 24 * 60 * 60 * 1000;

function assertPasswordPolicy(field: string, password: string, who: { username: string; email: string }) {
  const problems = passwordProblems(password, who);
  if (problems.length > 0) {
    throw invalidInput(
      `${field}: ${problems[0]}`,
      problems.map((message) => ({ path: `body.${field}`, message })),
    );
  }
}

function linkUrl(deps: Deps, page: string, token: string, email: string) {
  return `${deps.config.publicUrl}/${page}?token=${encodeURIComponent(token)}&email=${encodeURIComponent(email)}`;
}

/**
 * Sends a reset link when an active user has that address; does nothing otherwise, and the
 * caller answers the same either way.
 */
export async function requestPasswordReset(deps: Deps, email: string, actor: Actor): Promise<void> {
  const user = await repo.findUserByEmail(deps.db, email);
  if (user?.status !== 'active') return;
  const now = deps.now();
  const { token, hash } = newToken();
  const link = linkUrl(deps, 'reset-password', token, user.email);
  await deps.db.$transaction(async (tx) => {
    await repo.spendUserTokens(tx, user.id, 'password_reset', now);
    await repo.createUserToken(tx, {
      userId: user.id,
      purpose: 'password_reset',
      tokenHash: hash,
      expiresAt: new Date(now.getTime() + RESET_TTL_MS),
    });
    await enqueueMail(tx, {
      kind: 'password_reset',
      to: user.email,
      subject: 'Reset your Quire password',
      text: [
        `Hello ${user.firstName || user.username},`,
        '',
        'Someone (hopefully you) asked to reset the password of your Quire account.',
        'Open this link within one hour to choose a new password:',
        '',
        link,
        '',
        'If you did not ask for this, ignore this e-mail: your password stays the same.',
      ].join('\n'),
    });
    await audit(tx, actor, {
      type: 'auth',
      action: 'password.reset_requested',
      message: `A password reset link was sent to ${user.username}`,
      targetType: 'user',
      targetId: user.id,
    });
  });
}

/** The live token row for `email`, or a refusal ("invalid or expired"). */
async function findLiveToken(
  deps: Deps,
  purpose: 'password_reset' | 'email_verification',
  email: string,
  token: string,
) {
  const row = await repo.findUserTokenByHash(deps.db, purpose, hashToken(token));
  if (!row || row.usedAt || row.expiresAt <= deps.now() || row.user.email !== email.trim().toLowerCase()) {
    throw invalidLink();
  }
  return row;
}

export async function checkResetToken(deps: Deps, input: { email: string; token: string }) {
  const row = await findLiveToken(deps, 'password_reset', input.email, input.token);
  if (row.user.status !== 'active') throw invalidLink();
  return { valid: true as const };
}

/** Sets the new password with a reset link; spends the link and ends every session. */
export async function resetPassword(
  deps: Deps,
  input: { email: string; token: string; password: string },
  actor: Actor,
): Promise<void> {
  const row = await findLiveToken(deps, 'password_reset', input.email, input.token);
  const user = row.user;
  if (user.status !== 'active') throw invalidLink();
  assertPasswordPolicy('password', input.password, user);
  const passwordHash = await hashPassword(input.password);
  const now = deps.now();
  await deps.db.$transaction(async (tx) => {
    const spent = await repo.spendUserToken(tx, row.id, now);
    if (spent.count === 0) throw invalidLink();
    await repo.spendUserTokens(tx, user.id, 'password_reset', now);
    await repo.setPassword(tx, user.id, passwordHash, now);
    await repo.revokeUserSessions(tx, user.id, now);
    await audit(
      tx,
      { ...actor, userId: actor.userId ?? user.id },
      {
        type: 'auth',
        action: 'password.reset',
        message: `${user.username} set a new password with a reset link`,
        targetType: 'user',
        targetId: user.id,
      },
    );
  });
}

/** Changes one's own password; the other sessions of the user end. */
export async function updatePassword(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  input: { current_password: string; new_password: string },
): Promise<void> {
  const user = await loadUser(deps, auth);
  if (!(await verifyPassword(user.passwordHash, input.current_password))) {
    throw invalidInput('The current password is not correct', [
      { path: 'body.current_password', message: 'The current password is not correct' },
    ]);
  }
  if (input.new_password === input.current_password) {
    throw invalidInput('The new password must differ from the current one', [
      { path: 'body.new_password', message: 'The new password must differ from the current one' },
    ]);
  }
  assertPasswordPolicy('new_password', input.new_password, user);
  const passwordHash = await hashPassword(input.new_password);
  const now = deps.now();
  await deps.db.$transaction(async (tx) => {
    await repo.setPassword(tx, user.id, passwordHash, now);
    await repo.revokeUserSessions(tx, user.id, now, auth.sessionId);
    await repo.spendUserTokens(tx, user.id, 'password_reset', now);
    await audit(tx, actor, {
      type: 'auth',
      action: 'password.changed',
      message: `${user.username} changed their password`,
      targetType: 'user',
      targetId: user.id,
    });
  });
}

// ---- self-registration -------------------------------------------------------------------

export interface RegisterInput {
  username: string;
  email: string;
  password: string;
  first_name?: string;
  last_name?: string;
}

function verificationMail(
  deps: Deps,
  user: { email: string; username: string; firstName: string },
  token: string,
) {
  return {
    kind: 'email_verification',
    to: user.email,
    subject: 'Confirm your e-mail address for Quire',
    text: [
      `Hello ${user.firstName || user.username},`,
      '',
      'Open this link within 24 hours to confirm your e-mail address and activate your Quire account:',
      '',
      linkUrl(deps, 'verify-email', token, user.email),
      '',
      'If you did not create an account, ignore this e-mail.',
    ].join('\n'),
  };
}

async function takenFields(deps: Deps, input: { username: string; email: string }) {
  const [byName, byEmail] = await Promise.all([
    repo.findUserByUsername(deps.db, input.username),
    repo.findUserByEmail(deps.db, input.email),
  ]);
  return [
    ...(byName ? [{ path: 'body.username', message: 'This username is taken' }] : []),
    ...(byEmail ? [{ path: 'body.email', message: 'An account already uses this e-mail address' }] : []),
  ];
}

/** Creates a General staff account, deactivated until its e-mail link is followed. */
export async function register(deps: Deps, input: RegisterInput, actor: Actor): Promise<TUser> {
  const company = await repo.findCompany(deps.db);
  if (!company?.selfRegistration) throw selfRegistrationOff();
  const taken = await takenFields(deps, input);
  if (taken.length > 0) throw invalidInput(taken[0]?.message ?? 'Already taken', taken);
  assertPasswordPolicy('password', input.password, input);
  const passwordHash = await hashPassword(input.password);
  const now = deps.now();
  const { token, hash } = newToken();
  try {
    const user = await deps.db.$transaction(async (tx) => {
      const created = await repo.createSelfRegisteredUser(tx, {
        companyId: company.id,
        username: input.username,
        email: input.email,
        firstName: input.first_name ?? '',
        lastName: input.last_name ?? '',
        passwordHash,
      });
      await repo.createUserToken(tx, {
        userId: created.id,
        purpose: 'email_verification',
        tokenHash: hash,
        expiresAt: new Date(now.getTime() + VERIFY_TTL_MS),
      });
      await enqueueMail(tx, { ...verificationMail(deps, created, token), createdById: null });
      await audit(tx, actor, {
        type: 'user',
        action: 'user.registered',
        message: `${created.username} registered (waiting for e-mail verification)`,
        targetType: 'user',
        targetId: created.id,
      });
      return created;
    });
    return toUserDto(user);
  } catch (err) {
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') {
      // Someone took the name or address between the check and the insert.
      const raced = await takenFields(deps, input);
      throw invalidInput(raced[0]?.message ?? 'This username or e-mail address is already taken', raced);
    }
    throw err;
  }
}

/**
 * A self-registered account still waiting for its e-mail verification: deactivated, never
 * verified, and holding an unspent verification link (expired is fine: resend replaces it).
 * An administrator's activate / deactivate / delete spends those links, so an account an
 * admin deactivated never reactivates itself by a link.
 */
async function isAwaitingVerification(
  deps: Deps,
  user: { id: number; status: string; emailVerifiedAt: Date | null },
) {
  if (user.status !== 'deactivated' || user.emailVerifiedAt) return false;
  return (await repo.countUnspentUserTokens(deps.db, user.id, 'email_verification')) > 0;
}

/** Follows the verification link: activates the account. */
export async function verifyEmail(deps: Deps, input: { email: string; token: string }, actor: Actor) {
  const row = await findLiveToken(deps, 'email_verification', input.email, input.token);
  if (!(await isAwaitingVerification(deps, row.user))) throw invalidLink();
  const now = deps.now();
  await deps.db.$transaction(async (tx) => {
    const spent = await repo.spendUserToken(tx, row.id, now);
    if (spent.count === 0) throw invalidLink();
    await repo.spendUserTokens(tx, row.userId, 'email_verification', now);
    await repo.activateVerifiedUser(tx, row.userId, now);
    await audit(
      tx,
      { ...actor, userId: actor.userId ?? row.userId },
      {
        type: 'user',
        action: 'user.email_verified',
        message: `${row.user.username} confirmed their e-mail address; the account is active`,
        targetType: 'user',
        targetId: row.userId,
      },
    );
  });
  return { verified: true as const };
}

/** Sends the verification link again when the account waits for it; silent otherwise. */
export async function resendVerification(deps: Deps, email: string, actor: Actor): Promise<void> {
  const user = await repo.findUserByEmail(deps.db, email);
  if (!user || !(await isAwaitingVerification(deps, user))) return;
  const now = deps.now();
  const { token, hash } = newToken();
  await deps.db.$transaction(async (tx) => {
    await repo.spendUserTokens(tx, user.id, 'email_verification', now);
    await repo.createUserToken(tx, {
      userId: user.id,
      purpose: 'email_verification',
      tokenHash: hash,
      expiresAt: new Date(now.getTime() + VERIFY_TTL_MS),
    });
    await enqueueMail(tx, verificationMail(deps, user, token));
    await audit(tx, actor, {
      type: 'user',
      action: 'user.verification_resent',
      message: `A new e-mail verification link was sent to ${user.username}`,
      targetType: 'user',
      targetId: user.id,
    });
  });
}

const emailSyntax = z.email();

/**
 * For the register form: well-formed, and not used by any account (deleted ones included).
 * Only while self-registration is on: otherwise it would just tell who has an account.
 */
export async function emailValidity(deps: Deps, email: string) {
  const company = await repo.findCompany(deps.db);
  if (!company?.selfRegistration) throw selfRegistrationOff();
  const normalized = email.trim().toLowerCase();
  const valid = normalized.length <= 254 && emailSyntax.safeParse(normalized).success;
  if (!valid) return { valid: false, available: false };
  const user = await repo.findUserByEmail(deps.db, normalized);
  return { valid: true, available: !user };
}

// ---- client errors -----------------------------------------------------------------------

const SECRET_KEY = /pass(word)?|token|secret|authorization|cookie|otp/i;

/** A copy of reported data with anything that looks like a credential blanked out. */
function redact(value: unknown, depth = 0): unknown {
  if (depth > 8) return '[…]';
  if (Array.isArray(value)) return value.slice(0, 100).map((v) => redact(v, depth + 1));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, SECRET_KEY.test(k) ? '[redacted]' : redact(v, depth + 1)]),
    );
  }
  return value;
}

function errorMessage(data: unknown): string {
  const raw =
    typeof data === 'string'
      ? data
      : data && typeof data === 'object' && typeof (data as { message?: unknown }).message === 'string'
        ? (data as { message: string }).message
        : JSON.stringify(data);
  return (raw ?? '').trim().slice(0, 500) || 'Client error';
}

export interface ClientErrorReport {
  data: unknown;
  userId: number | null;
  url: string | null;
  userAgent: string | null;
  ip: string | null;
}

export async function recordClientError(deps: Deps, report: ClientErrorReport, actor: Actor): Promise<void> {
  const data = redact(report.data);
  const fromData = data && typeof data === 'object' ? (data as { url?: unknown }).url : undefined;
  const url = (typeof fromData === 'string' ? fromData : report.url)?.slice(0, 2000) ?? null;
  const message = errorMessage(data);
  await deps.db.$transaction(async (tx) => {
    const row = await repo.createClientError(tx, {
      userId: report.userId,
      message,
      data: data as Prisma.InputJsonValue,
      url,
      userAgent: report.userAgent?.slice(0, 512) ?? null,
      ip: report.ip,
    });
    await audit(tx, actor, {
      type: 'client',
      action: 'client_error.reported',
      message: `The web client reported an error: ${message.slice(0, 120)}`,
      targetType: 'client_error',
      targetId: row.id,
    });
  });
}

export async function listClientErrors(deps: Deps, page: number, quantity: number) {
  const { total, rows } = await repo.listClientErrors(deps.db, page, quantity);
  const items: TClientError[] = rows.map((r) => ({
    id: r.id,
    user_id: r.userId,
    username: r.user?.username ?? null,
    message: r.message,
    data: r.data,
    url: r.url,
    user_agent: r.userAgent,
    ip: r.ip,
    created_at: r.createdAt.toISOString(),
  }));
  return { items, ...pageMeta({ page, quantity }, total) };
}
