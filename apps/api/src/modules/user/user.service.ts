import {
  canAccess,
  passwordProblems,
  type TAdminUser,
  type TEditUserBody,
  type TLoggedInUser,
  type TSetUserPasswordBody,
  type TUserOption,
  type TUsersQuery,
  VENDOR_ADMIN,
} from '@quire/contract';
import type { UserStatus } from '@quire/db';
import { accessTypeFromDb, accessTypeToDb, assertMayManage } from '../../lib/access-types.js';
import { type Actor, audit, type FieldChange } from '../../lib/audit.js';
import type { Deps, Tx } from '../../lib/deps.js';
import { type FieldError, invalidInput, summarise } from '../../lib/errors.js';
import { pageMeta } from '../../lib/paging.js';
import { hashPassword } from '../../lib/passwords.js';
import type { AuthContext } from '../../lib/session.js';
import { toUserDto } from '../../lib/user-dto.js';
import { findUser, setPassword as storePassword } from '../account/account.service.js';
import { spendLinks } from '../account/link-token.service.js';
import {
  endUserSessions,
  findLiveSession,
  liveSessions,
  endSession as revokeSession,
} from '../account/session.service.js';
import { assertSeatsAvailable } from '../licence/licence.service.js';
import {
  deletedIsFinal,
  deletedUnchangeable,
  ownAccessUnchangeable,
  ownPasswordHere,
  ownSessionHere,
  ownStatusUnchangeable,
  sessionNotFound,
  userNotFound,
  vendorAdminProtected,
  vendorAdminRefused,
} from './user.errors.js';
import * as repo from './user.repository.js';

// ---------------------------------------------------------------------------------------------
// Shapes

export function displayName(user: { firstName: string; lastName: string; username: string }) {
  return `${user.firstName} ${user.lastName}`.trim() || user.username;
}

export function toAdminUser(user: repo.AdminUserRow): TAdminUser {
  return {
    ...toUserDto(user),
    groups: user.memberships.map((m) => m.group),
    has_signature: user.signatureBlobId !== null,
    deleted_at: user.deletedAt?.toISOString() ?? null,
  };
}

export function toUserOption(user: Parameters<typeof toUserDto>[0]): TUserOption {
  return {
    id: user.id,
    name: displayName(user),
    username: user.username,
    email: user.email,
    access_type: accessTypeFromDb(user.accessType),
    status: user.status,
  };
}

export async function adminUser(db: Tx, id: number): Promise<TAdminUser> {
  const user = await repo.findAdminUser(db, id);
  if (!user) throw userNotFound();
  return toAdminUser(user);
}

export const isSettings = (auth: AuthContext, access: 'read' | 'write') =>
  auth.role === 'admin' && canAccess(auth.accessType, 'settings', access);

// ---------------------------------------------------------------------------------------------
// Lists

export async function listUserOptions(deps: Deps): Promise<TUserOption[]> {
  return (await repo.listUserOptions(deps.db)).map(toUserOption);
}

/** Live sessions; `current` marks the caller's own session (not their other ones). */
export async function listLoggedIn(deps: Deps, auth: AuthContext): Promise<TLoggedInUser[]> {
  const sessions = await liveSessions(deps);
  return sessions.map((s) => ({
    session_id: s.id,
    current: s.id === auth.sessionId,
    user: toUserOption(s.user),
    role: s.loginRole,
    ip: s.ip,
    user_agent: s.userAgent,
    created_at: s.createdAt.toISOString(),
    last_seen_at: s.lastSeenAt.toISOString(),
    expires_at: s.expiresAt.toISOString(),
  }));
}

/**
 * An admin ends another live session (POST /api/logged-in-user/{id}/end): not their own current
 * one (they sign out), not one of a user they may not manage. Audited.
 */
export async function endSession(deps: Deps, auth: AuthContext, actor: Actor, sessionId: string) {
  if (sessionId === auth.sessionId) throw ownSessionHere();
  const session = await findLiveSession(deps, sessionId);
  if (!session) throw sessionNotFound();
  if (session.userId !== auth.userId) assertMayManage(auth.accessType, [session.user]);
  await deps.db.$transaction(async (tx) => {
    if (!(await revokeSession(tx, session.id, deps.now()))) throw sessionNotFound();
    await audit(tx, actor, {
      type: 'user',
      action: 'session.ended_by_admin',
      message: `Ended a session of "${session.user.username}" (signed in ${session.createdAt.toISOString()})`,
      targetType: 'user',
      targetId: session.userId,
      details: { session_id: session.id, ip: session.ip, role: session.loginRole },
    });
  });
}

export async function pageUsers(deps: Deps, query: TUsersQuery) {
  const { total, rows } = await repo.pageUsers(deps.db, query);
  return { users: rows.map(toAdminUser), ...pageMeta(query, total) };
}

// ---------------------------------------------------------------------------------------------
// Changing users

export async function editUser(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  id: number,
  body: TEditUserBody,
): Promise<TAdminUser> {
  const now = deps.now();
  const groupIds = body.group_ids ? [...new Set(body.group_ids)] : undefined;
  await deps.db.$transaction(async (tx) => {
    // The locks memberships take, in their order (lib/locks.ts shareRows): the rows of the
    // groups named, then the person's row.
    const found = groupIds && (await repo.shareGroups(tx, groupIds));
    if (!(await repo.lockUser(tx, id))) throw userNotFound();
    const user = await repo.findAdminUser(tx, id);
    if (!user) throw userNotFound();
    // Deleted is final: a deleted account is neither edited nor promoted.
    if (user.status === 'deleted') throw deletedUnchangeable();
    const before = toAdminUser(user);
    if (body.access_type === VENDOR_ADMIN && before.access_type !== VENDOR_ADMIN) throw vendorAdminRefused();
    if (user.accessType === 'VENDOR_ADMIN') throw vendorAdminProtected();

    const accessType = body.access_type ?? before.access_type;
    let role = body.role ?? before.role;
    if (accessType === 'General staff') role = 'user';
    const accessChanged = accessType !== before.access_type || role !== before.role;
    if (accessChanged && id === auth.userId) throw ownAccessUnchangeable();
    assertMayManage(auth.accessType, [{ accessType: before.access_type }, { accessType }]);

    const username = body.username?.trim().toLowerCase();
    const email = body.email?.trim().toLowerCase();
    const errors: FieldError[] = [];
    if ((username && username !== user.username) || (email && email !== user.email)) {
      const taken = await repo.findTaken(tx, username ? [username] : [], email ? [email] : [], id);
      if (username && taken.some((u) => u.username.toLowerCase() === username)) {
        errors.push({ path: 'body.username', message: 'This username is taken' });
      }
      if (email && taken.some((u) => u.email.toLowerCase() === email)) {
        errors.push({ path: 'body.email', message: 'This e-mail is already in use' });
      }
    }
    if (groupIds && found) {
      const unknown = groupIds.filter((g) => !found.has(g));
      if (unknown.length)
        errors.push({ path: 'body.group_ids', message: `Unknown groups: ${unknown.join(', ')}` });
    }
    if (errors.length) throw invalidInput(summarise(errors), errors);

    const after = {
      username: username ?? before.username,
      email: email ?? before.email,
      first_name: body.first_name ?? before.first_name,
      last_name: body.last_name ?? before.last_name,
      role,
      access_type: accessType,
    };
    const changes: Record<string, FieldChange> = {};
    for (const key of Object.keys(after) as Array<keyof typeof after>) {
      if (after[key] !== before[key]) changes[key] = { before: before[key], after: after[key] };
    }
    if (groupIds) {
      const old = before.groups.map((g) => g.id).sort((a, b) => a - b);
      const next = [...groupIds].sort((a, b) => a - b);
      if (old.join() !== next.join()) changes.group_ids = { before: old, after: next };
    }
    if (!Object.keys(changes).length) return;

    // Only while not deleted: a delete committed meanwhile wins.
    const updated = await repo.updateUserUnlessDeleted(tx, id, {
      username: after.username,
      email: after.email,
      firstName: after.first_name,
      lastName: after.last_name,
      loginRole: after.role,
      accessType: accessTypeToDb(after.access_type),
    });
    if (updated.count === 0) throw deletedUnchangeable();
    if (groupIds) await repo.replaceGroups(tx, id, groupIds);
    const revoked = accessChanged ? await endUserSessions(tx, id, now) : 0;
    await audit(tx, actor, {
      type: 'user',
      action: 'user.updated',
      message: `Edited user "${after.username}": ${Object.keys(changes).join(', ')}`,
      targetType: 'user',
      targetId: id,
      details: { changes, sessions_revoked: revoked },
    });
  });
  return adminUser(deps.db, id);
}

const VERBS: Record<UserStatus, string> = {
  active: 'activate',
  deactivated: 'deactivate',
  deleted: 'delete',
};

/** The states each change may leave: deleted is final (docs/data-model.md). */
const LEAVES: Record<UserStatus, UserStatus[]> = {
  active: ['deactivated'],
  deactivated: ['active'],
  deleted: ['active', 'deactivated'],
};

/**
 * active / deactivated / deleted (soft: the row, its history and names stay), as a conditional
 * update on the state it leaves: of two admins acting at once, the second sees the first's
 * result (a deleted user stays deleted), never overwrites it.
 */
export async function setStatus(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  id: number,
  status: UserStatus,
): Promise<TAdminUser> {
  const now = deps.now();
  await deps.db.$transaction(async (tx) => {
    const user = await findUser(tx, id);
    if (!user) throw userNotFound();
    if (id === auth.userId) throw ownStatusUnchangeable(VERBS[status]);
    assertMayManage(auth.accessType, [user]);
    if (user.status === status) return;
    if (user.status === 'deleted') throw deletedIsFinal();
    if (status === 'active') await assertSeatsAvailable(deps, tx, 1);
    const changed = await repo.updateStatus(tx, id, LEAVES[status], {
      status,
      deletedAt: status === 'deleted' ? now : null,
      ...(status === 'active' && !user.emailVerifiedAt ? { emailVerifiedAt: now } : {}),
    });
    if (changed.count === 0) {
      // Another change got there first: say what it did.
      const current = await findUser(tx, id);
      if (current?.status === status) return;
      throw deletedIsFinal();
    }
    // The admin's decision replaces any pending self-registration: its links are spent, and
    // activating a never-verified account vouches for its address.
    await spendLinks(tx, id, 'email_verification', now);
    const revoked = status === 'active' ? 0 : await endUserSessions(tx, id, now);
    await audit(tx, actor, {
      type: 'user',
      action: `user.${status === 'active' ? 'activated' : status}`,
      message: `${VERBS[status][0]!.toUpperCase()}${VERBS[status].slice(1)}d user "${user.username}"`,
      targetType: 'user',
      targetId: id,
      details: { before: user.status, after: status, sessions_revoked: revoked },
    });
  });
  return adminUser(deps.db, id);
}

/**
 * Lifts a user's sign-in slowdown after failed attempts (PUT /api/unlock_user): the audit
 * event it writes starts the account's count afresh (account/throttle.service.ts).
 */
export async function unlockSignIn(deps: Deps, auth: AuthContext, actor: Actor, id: number) {
  const user = await findUser(deps.db, id);
  if (!user || user.status === 'deleted') throw userNotFound();
  if (id !== auth.userId) assertMayManage(auth.accessType, [user]);
  await audit(deps.db, actor, {
    type: 'user',
    action: 'user.sign_in_unlocked',
    message: `Lifted the sign-in slowdown of "${user.username}"`,
    targetType: 'user',
    targetId: id,
    at: deps.now(),
  });
  return adminUser(deps.db, id);
}

/** An admin sets a user's password: checked by the policy, never recorded; the user is signed out. */
export async function setPassword(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  input: TSetUserPasswordBody,
): Promise<void> {
  const user = await findUser(deps.db, input.user_id);
  if (!user) throw userNotFound();
  if (user.id === auth.userId) throw ownPasswordHere();
  if (user.status === 'deleted') throw deletedUnchangeable();
  assertMayManage(auth.accessType, [user]);
  const problems = passwordProblems(input.password, { username: user.username, email: user.email });
  if (problems.length) {
    throw invalidInput(
      problems.join(', '),
      problems.map((message) => ({ path: 'body.password', message })),
    );
  }
  const passwordHash = await hashPassword(input.password);
  const now = deps.now();
  await deps.db.$transaction(async (tx) => {
    const revoked = await storePassword(tx, { userId: user.id, passwordHash, at: now });
    await audit(tx, actor, {
      type: 'user',
      action: 'password.reset_by_admin',
      message: `Set a new password for "${user.username}"`,
      targetType: 'user',
      targetId: user.id,
      details: { sessions_revoked: revoked },
      at: deps.now(),
    });
  });
}
