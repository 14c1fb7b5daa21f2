import type { TEmailTokenBody, TRegisterBody } from '@quire/contract';
import { z } from 'zod';
import { type Actor, audit } from '../../lib/audit.js';
import type { Deps, Tx } from '../../lib/deps.js';
import { invalidInput, isUniqueViolation } from '../../lib/errors.js';
import { hashPassword } from '../../lib/passwords.js';
import { assertPasswordPolicy, findUserByEmail, findUserByUsername } from '../account/account.service.js';
import {
  findLiveLinkToken,
  hasUnspentLink,
  issueLinkToken,
  spendLink,
} from '../account/link-token.service.js';
import { enqueueMail } from '../email/email.queue.js';
import { assertSeatsAvailable } from '../licence/licence.service.js';
import { invalidLink, selfRegistrationOff } from './auth.errors.js';
import { accountExistsMail, verificationMail } from './auth.mail.js';
import * as repo from './auth.repository.js';
import { selfRegistrationOn } from './sign-in-settings.service.js';

// Self-registration. Nothing a caller can see tells whether an e-mail address has an account:
// the address is looked at only after the call has been answered (completeRegistration, run in
// the background), where a taken address gets a mail instead of a second account.

type PreparedRegistration = repo.SelfRegisteredUser;

const usernameTaken = () =>
  invalidInput('This username is taken', [{ path: 'body.username', message: 'This username is taken' }]);

/**
 * What a registration can be refused for, during the call: self-registration off (403), a
 * taken username (400), a password the policy refuses (400). The e-mail address is not
 * looked at here.
 */
export async function prepareRegistration(deps: Deps, input: TRegisterBody): Promise<PreparedRegistration> {
  const company = await selfRegistrationOn(deps);
  if (!company) throw selfRegistrationOff();
  if (await findUserByUsername(deps.db, input.username)) throw usernameTaken();
  assertPasswordPolicy('password', input.password, input);
  return {
    companyId: company.id,
    username: input.username,
    email: input.email,
    firstName: input.first_name ?? '',
    lastName: input.last_name ?? '',
    passwordHash: await hashPassword(input.password),
  };
}

/**
 * After the answer: creates the account (deactivated until its e-mail link is followed) with
 * its link and mail, or, when the address already has an account, mails that address instead
 * (a new link when the account still waits for one).
 */
export async function completeRegistration(deps: Deps, reg: PreparedRegistration, ip: string | null) {
  const actor: Actor = { userId: null, ip };
  if (await findUserByEmail(deps.db, reg.email)) return mailExistingOwner(deps, reg, actor);
  try {
    await deps.db.$transaction(async (tx) => {
      const created = await repo.createSelfRegisteredUser(tx, {
        companyId: reg.companyId,
        username: reg.username,
        email: reg.email,
        firstName: reg.firstName,
        lastName: reg.lastName,
        passwordHash: reg.passwordHash,
      });
      const token = await issueLinkToken(tx, deps, created.id, 'email_verification');
      await enqueueMail(tx, verificationMail({ publicUrl: deps.config.publicUrl }, created, token));
      await audit(tx, actor, {
        type: 'user',
        action: 'user.registered',
        message: `${created.username} registered (waiting for e-mail verification)`,
        targetType: 'user',
        targetId: created.id,
      });
    });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    // The address or the username was taken between the answer and now.
    if (await findUserByEmail(deps.db, reg.email)) return mailExistingOwner(deps, reg, actor);
    deps.log.info({ username: reg.username }, 'registration lost a race for its username');
  }
}

async function mailExistingOwner(deps: Deps, reg: PreparedRegistration, actor: Actor) {
  const owner = await findUserByEmail(deps.db, reg.email);
  if (!owner) return;
  if (await isAwaitingVerification(deps.db, owner)) return sendVerification(deps, owner, actor);
  await deps.db.$transaction(async (tx) => {
    await enqueueMail(
      tx,
      accountExistsMail({ publicUrl: deps.config.publicUrl }, owner.email, owner.status === 'deleted'),
    );
    await audit(tx, actor, {
      type: 'security',
      action: 'user.registration_for_taken_email',
      message: `Someone registered as "${reg.username}" with the e-mail address of ${owner.username}; that address was told instead`,
      targetType: 'user',
      targetId: owner.id,
    });
  });
}

/**
 * A self-registered account still waiting for its e-mail verification: deactivated, never
 * verified, and holding an unspent verification link (expired is fine: resend replaces it).
 * An administrator's activate / deactivate / delete spends those links, so an account an
 * admin deactivated never reactivates itself by a link.
 */
async function isAwaitingVerification(
  db: Tx,
  user: { id: number; status: string; emailVerifiedAt: Date | null },
) {
  if (user.status !== 'deactivated' || user.emailVerifiedAt) return false;
  return hasUnspentLink(db, user.id, 'email_verification');
}

/** Follows the verification link: activates the account. */
export async function verifyEmail(deps: Deps, input: TEmailTokenBody, actor: Actor) {
  const row = await findLiveLinkToken(deps, 'email_verification', input.email, input.token);
  if (!(await isAwaitingVerification(deps.db, row.user))) throw invalidLink();
  const now = deps.now();
  await deps.db.$transaction(async (tx) => {
    await spendLink(tx, row, now);
    // Seats (licence area): a verified self-registration takes one like any activation.
    await assertSeatsAvailable(deps, tx, 1);
    // Only from deactivated: an admin's decision taken meanwhile wins.
    if ((await repo.activateVerifiedUser(tx, row.userId, now)).count === 0) throw invalidLink();
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

async function sendVerification(
  deps: Deps,
  user: { id: number; username: string; email: string; firstName: string; lastName: string },
  actor: Actor,
) {
  await deps.db.$transaction(async (tx) => {
    const token = await issueLinkToken(tx, deps, user.id, 'email_verification');
    await enqueueMail(tx, verificationMail({ publicUrl: deps.config.publicUrl }, user, token));
    await audit(tx, actor, {
      type: 'user',
      action: 'user.verification_resent',
      message: `A new e-mail verification link was sent to ${user.username}`,
      targetType: 'user',
      targetId: user.id,
    });
  });
}

/**
 * The work behind "resend the verification link", run after the call has been answered: a
 * new link when an account waits for one at `email`; nothing otherwise.
 */
export async function sendVerificationMail(deps: Deps, email: string, ip: string | null = null) {
  const user = await findUserByEmail(deps.db, email);
  if (!user || !(await isAwaitingVerification(deps.db, user))) return;
  await sendVerification(deps, user, { userId: null, ip });
}

const emailSyntax = z.email();

/**
 * For the register form: whether the address is well-formed. `available` is the same as
 * `valid`: whether an address has an account is never told (the registration mails it).
 * Only while self-registration is on.
 */
export async function emailValidity(deps: Deps, email: string) {
  if (!(await selfRegistrationOn(deps))) throw selfRegistrationOff();
  const normalized = email.trim().toLowerCase();
  const valid = normalized.length <= 254 && emailSyntax.safeParse(normalized).success;
  return { valid, available: valid };
}
