import type { Readable } from 'node:stream';
import {
  ACCESS_TYPE_LABELS,
  ACCESS_TYPES,
  canAccess,
  passwordProblems,
  SIGNATURE_MAX_BYTES,
  type TAdminUser,
  type TCreateUserBody,
  type TEditUserBody,
  type TLoggedInUser,
  type TSetUserPasswordBody,
  type TUserOption,
  type TUsersQuery,
  USER_IMPORT_MAX_ROWS,
  VENDOR_ADMIN,
  ZCreateUserBody,
} from '@quire/contract';
import type { UserStatus } from '@quire/db';
import { accessTypeFromDb, accessTypeToDb, assertMayManage } from '../../lib/access-types.js';
import { type Actor, audit } from '../../lib/audit.js';
import { recordBlob } from '../../lib/blob-rows.js';
import type { StoredBlob } from '../../lib/blob-store.js';
import type { Deps, Tx } from '../../lib/deps.js';
import { type FieldError, invalidInput, summarise } from '../../lib/errors.js';
import { sniffImage } from '../../lib/image-type.js';
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
  notAnImage,
  notASpreadsheet,
  othersSignatureRefused,
  ownAccessUnchangeable,
  ownPasswordHere,
  ownSessionHere,
  ownStatusUnchangeable,
  sessionNotFound,
  signatureNotFound,
  tooManyRows,
  userNotFound,
  vendorAdminProtected,
  vendorAdminRefused,
} from './user.errors.js';
import * as repo from './user.repository.js';
import { buildTemplate, readSheet, type SheetRow } from './user.spreadsheet.js';

// ---------------------------------------------------------------------------------------------
// Shapes

function displayName(user: { firstName: string; lastName: string; username: string }) {
  return `${user.firstName} ${user.lastName}`.trim() || user.username;
}

function toAdminUser(user: repo.AdminUserRow): TAdminUser {
  return {
    ...toUserDto(user),
    groups: user.memberships.map((m) => m.group),
    has_signature: user.signatureBlobId !== null,
    deleted_at: user.deletedAt?.toISOString() ?? null,
  };
}

function toUserOption(user: Parameters<typeof toUserDto>[0]): TUserOption {
  return {
    id: user.id,
    name: displayName(user),
    username: user.username,
    email: user.email,
    access_type: accessTypeFromDb(user.accessType),
    status: user.status,
  };
}

async function adminUser(db: Tx, id: number): Promise<TAdminUser> {
  const user = await repo.findAdminUser(db, id);
  if (!user) throw userNotFound();
  return toAdminUser(user);
}

const isSettings = (auth: AuthContext, access: 'read' | 'write') =>
  auth.role === 'admin' && canAccess(auth.accessType, 'settings', access);

// ---------------------------------------------------------------------------------------------
// Signatures

/** Signatures are PNG or JPEG. */
function signatureType(head: Buffer): 'image/png' | 'image/jpeg' | null {
  const type = sniffImage(head);
  return type === 'image/png' || type === 'image/jpeg' ? type : null;
}

export interface StoredImage extends StoredBlob {
  mimeType: string;
}

/**
 * Whose signature an upload sets: the caller's own, or with Settings write another user's
 * (`userId`). Checked before the file is read, so a refused upload stores nothing.
 */
export async function signatureTarget(deps: Deps, auth: AuthContext, userId: number | undefined) {
  const targetId = userId ?? auth.userId;
  if (targetId !== auth.userId && !isSettings(auth, 'write')) throw othersSignatureRefused('change');
  const target = await findUser(deps.db, targetId);
  if (!target || target.status === 'deleted') throw userNotFound();
  if (target.id !== auth.userId) assertMayManage(auth.accessType, [target]);
  return target;
}
export type SignatureTarget = Awaited<ReturnType<typeof signatureTarget>>;

/**
 * Streams an uploaded signature into the blob store (at most SIGNATURE_MAX_BYTES, the
 * pipeline's limit) and checks by its first bytes that it is a PNG or JPEG before anything
 * is kept: a refused file leaves nothing behind.
 */
export async function storeSignatureImage(deps: Deps, content: Readable): Promise<StoredImage> {
  let mimeType: StoredImage['mimeType'] | null = null;
  const stored = await deps.blobs.put(content, {
    maxBytes: SIGNATURE_MAX_BYTES,
    inspectBytes: 16,
    inspect: (head) => {
      mimeType = signatureType(head);
      if (!mimeType) throw notAnImage();
    },
  });
  return { ...stored, mimeType: mimeType ?? 'application/octet-stream' };
}

/** Sets a signature stored by storeSignatureImage on the user signatureTarget chose. */
export async function setSignature(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  target: SignatureTarget,
  image: StoredImage,
) {
  await deps.db.$transaction(async (tx) => {
    await recordBlob(tx, { id: image.id, size: image.size, mimeType: image.mimeType });
    await repo.updateUser(tx, target.id, { signatureBlobId: image.id });
    await audit(tx, actor, {
      type: 'user',
      action: 'signature.updated',
      message:
        target.id === auth.userId
          ? `${target.username} uploaded their signature`
          : `Uploaded the signature of ${target.username}`,
      targetType: 'user',
      targetId: target.id,
      details: {
        blob_id: image.id,
        size: image.size,
        mime_type: image.mimeType,
        before: target.signatureBlobId,
      },
    });
  });
  return { user_id: target.id, blob_id: image.id, size: image.size };
}

/** A user's signature image: the caller's own, or anyone's with Settings read. */
export async function readSignature(deps: Deps, auth: AuthContext, userId: number) {
  if (userId !== auth.userId && !isSettings(auth, 'read')) throw othersSignatureRefused('view');
  const user = await findUser(deps.db, userId);
  if (!user) throw userNotFound();
  const blob = user.signatureBlobId ? await repo.findBlob(deps.db, user.signatureBlobId) : null;
  if (!blob || !(await deps.blobs.exists(blob.id))) throw signatureNotFound();
  const ext = blob.mimeType === 'image/png' ? 'png' : 'jpg';
  return {
    blobId: blob.id,
    mimeType: blob.mimeType,
    size: Number(blob.size),
    filename: `signature-${user.username}.${ext}`,
  };
}

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
// Creating users: one, many, or from a spreadsheet, all through the same checks

export type NewUserInput = TCreateUserBody;

interface Candidate {
  /** Where errors point: `body`, `body.users.3`, `row 4`. */
  at: string;
  input: NewUserInput;
  /** Fields already reported as malformed: not checked again. */
  skip?: Set<string>;
}

/** Lower-cases the login names; General staff always sign in as user. */
function normalise(input: NewUserInput): NewUserInput {
  return {
    ...input,
    username: input.username.trim().toLowerCase(),
    email: input.email.trim().toLowerCase(),
    role: input.access_type === 'General staff' ? 'user' : input.role,
    group_ids: [...new Set(input.group_ids ?? [])],
  };
}

/** Every reason these users cannot be created, each naming its field; empty when all are fine. */
async function checkNewUsers(db: Tx, candidates: Candidate[]): Promise<FieldError[]> {
  const errors: FieldError[] = [];
  const taken = await repo.findTaken(
    db,
    candidates.map((c) => c.input.username),
    candidates.map((c) => c.input.email),
  );
  const takenNames = new Set(taken.map((u) => u.username.toLowerCase()));
  const takenEmails = new Set(taken.map((u) => u.email.toLowerCase()));
  const groups = await repo.existingGroupIds(db, [
    ...new Set(candidates.flatMap((c) => c.input.group_ids ?? [])),
  ]);
  const seenNames = new Map<string, string>();
  const seenEmails = new Map<string, string>();

  for (const { at, input } of candidates) {
    if (input.access_type === VENDOR_ADMIN) {
      errors.push({ path: `${at}.access_type`, message: 'Vendor Admin accounts cannot be created here' });
    }
    if (takenNames.has(input.username))
      errors.push({ path: `${at}.username`, message: 'This username is taken' });
    else if (seenNames.has(input.username)) {
      errors.push({ path: `${at}.username`, message: `Same username as ${seenNames.get(input.username)}` });
    } else seenNames.set(input.username, at);
    if (takenEmails.has(input.email))
      errors.push({ path: `${at}.email`, message: 'This e-mail is already in use' });
    else if (seenEmails.has(input.email)) {
      errors.push({ path: `${at}.email`, message: `Same e-mail as ${seenEmails.get(input.email)}` });
    } else seenEmails.set(input.email, at);
    for (const message of passwordProblems(input.password, {
      username: input.username,
      email: input.email,
    })) {
      errors.push({ path: `${at}.password`, message });
    }
    const unknown = (input.group_ids ?? []).filter((id) => !groups.has(id));
    if (unknown.length)
      errors.push({ path: `${at}.group_ids`, message: `Unknown groups: ${unknown.join(', ')}` });
  }
  return errors;
}

/** argon2 hashes, a few at a time (each takes ~50 ms of a libuv thread). */
async function hashAll(passwords: string[]): Promise<string[]> {
  const out: string[] = new Array(passwords.length);
  let next = 0;
  const worker = async () => {
    while (next < passwords.length) {
      const i = next++;
      out[i] = await hashPassword(passwords[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(4, passwords.length) }, worker));
  return out;
}

/** Writes users already checked by checkNewUsers, in one transaction, each with its audit event. */
async function insertUsers(
  deps: Deps,
  actor: Actor,
  candidates: Candidate[],
  source: 'form' | 'batch' | 'import',
): Promise<number[]> {
  const inputs = candidates.map((c) => c.input);
  const hashes = await hashAll(inputs.map((i) => i.password));
  return deps.db
    .$transaction(
      async (tx) => {
        // Check again inside the transaction: another admin may have taken a name meanwhile.
        const errors = await checkNewUsers(tx, candidates);
        if (errors.length) throw invalidInput(summarise(errors), errors);
        await assertSeatsAvailable(deps, tx, inputs.length);
        const company = await repo.companyId(tx);
        if (!company) throw new Error('No company row: the first start did not run');
        const ids: number[] = [];
        for (const [i, input] of inputs.entries()) {
          const user = await repo.createUser(tx, {
            companyId: company.id,
            username: input.username,
            email: input.email,
            firstName: input.first_name,
            lastName: input.last_name,
            loginRole: input.role,
            accessType: accessTypeToDb(input.access_type),
            passwordHash: hashes[i]!,
            createdById: actor.userId,
          });
          await repo.replaceGroups(tx, user.id, input.group_ids ?? []);
          await audit(tx, actor, {
            type: 'user',
            action: 'user.created',
            message: `Created ${ACCESS_TYPE_LABELS[input.access_type]} "${user.username}"`,
            targetType: 'user',
            targetId: user.id,
            details: {
              source,
              username: user.username,
              email: user.email,
              first_name: user.firstName,
              last_name: user.lastName,
              role: input.role,
              access_type: input.access_type,
              group_ids: input.group_ids ?? [],
            },
          });
          ids.push(user.id);
        }
        return ids;
      },
      { timeout: 120_000, maxWait: 10_000 },
    )
    .catch((err: unknown) => {
      if ((err as { code?: string }).code === 'P2002') {
        throw invalidInput('A username or e-mail was taken meanwhile; try again', []);
      }
      throw err;
    });
}

/** 403 when any new user (but a Vendor Admin, refused as bad input) would outrank the caller. */
function assertMayCreate(auth: AuthContext, candidates: Candidate[]) {
  assertMayManage(
    auth.accessType,
    candidates
      .filter((c) => c.input.access_type !== VENDOR_ADMIN)
      .map((c) => ({ accessType: c.input.access_type })),
  );
}

export async function createUser(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  body: NewUserInput,
): Promise<TAdminUser> {
  if (body.access_type === VENDOR_ADMIN) throw vendorAdminRefused();
  assertMayManage(auth.accessType, [{ accessType: body.access_type }]);
  const candidates = [{ at: 'body', input: normalise(body) }];
  const errors = await checkNewUsers(deps.db, candidates);
  if (errors.length) throw invalidInput(summarise(errors), errors);
  const [id] = await insertUsers(deps, actor, candidates, 'form');
  return adminUser(deps.db, id!);
}

export async function createManyUsers(deps: Deps, auth: AuthContext, actor: Actor, users: NewUserInput[]) {
  const candidates = users.map((user, i) => ({ at: `body.users.${i}`, input: normalise(user) }));
  assertMayCreate(auth, candidates);
  const errors = await checkNewUsers(deps.db, candidates);
  if (errors.length) throw invalidInput(summarise(errors), errors);
  const ids = await insertUsers(deps, actor, candidates, 'batch');
  const rows = await repo.findAdminUsers(deps.db, ids);
  return { created: ids.length, users: rows.map(toAdminUser) };
}

/** `Company Admin`, `company admin` and `COMPANY ADMIN` all name the same access type. */
/** A spreadsheet cell's problem in words for the person who filled it in. */
function importMessage(field: string, message: string): string {
  if (field === 'access_type') {
    const names = ACCESS_TYPES.filter((t) => t !== VENDOR_ADMIN).map((t) => ACCESS_TYPE_LABELS[t]);
    return `Unknown access type. Use one of: ${names.join(', ')}`;
  }
  if (field === 'role') return 'Unknown role. Use Admin or User';
  return message;
}

function accessTypeFromText(text: string): string {
  const wanted = text.trim().toLowerCase();
  return (
    ACCESS_TYPES.find((t) => t.toLowerCase() === wanted || ACCESS_TYPE_LABELS[t].toLowerCase() === wanted) ??
    text
  );
}

/** Reads, checks and (unless a dry run) creates the users of an import spreadsheet. */
export async function importUsers(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  input: { content: Buffer; dryRun: boolean },
) {
  const sheet = await readSheet(input.content);
  if (sheet.kind === 'unreadable') throw notASpreadsheet();
  if (sheet.kind === 'tooManyRows') throw tooManyRows(USER_IMPORT_MAX_ROWS);
  const errors: FieldError[] = [...sheet.errors];
  const candidates: Candidate[] = [];
  // Rows with a bad cell are still checked for the rest (taken username, password policy),
  // so one preview lists every problem of the file.
  const partial: Candidate[] = [];
  for (const row of sheet.rows) {
    const at = `row ${row.row}`;
    const fields = { ...row, access_type: accessTypeFromText(row.access_type), role: row.role.toLowerCase() };
    const parsed = ZCreateUserBody.safeParse(fields);
    if (parsed.success) {
      candidates.push({ at, input: normalise(parsed.data) });
      continue;
    }
    const bad = new Set<string>();
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? '');
      bad.add(field);
      errors.push({ path: `${at}.${issue.path.join('.')}`, message: importMessage(field, issue.message) });
    }
    partial.push({
      at,
      input: {
        ...fields,
        username: row.username.trim().toLowerCase(),
        email: row.email.trim().toLowerCase(),
      } as NewUserInput,
      skip: bad,
    });
  }
  assertMayCreate(auth, candidates);
  const checked = await checkNewUsers(deps.db, [...candidates, ...partial]);
  const skipOf = new Map(partial.map((c) => [c.at, c.skip]));
  errors.push(...checked.filter((e) => !skipOf.get(e.path.split('.')[0]!)?.has(e.path.split('.')[1] ?? '')));
  errors.sort((a, b) => rowOf(a.path) - rowOf(b.path));
  const rows = sheet.rows.map(({ password: _password, ...rest }: SheetRow) => rest);

  if (input.dryRun) return { dry_run: true, rows, errors, created: 0 };
  if (errors.length) throw invalidInput(`Nothing was imported: ${summarise(errors)}`, errors);
  const ids = await insertUsers(deps, actor, candidates, 'import');
  return { dry_run: false, rows, errors: [], created: ids.length };
}

const rowOf = (path: string) => Number(/^row (\d+)/.exec(path)?.[1] ?? 0);

export const importTemplate = buildTemplate;

// ---------------------------------------------------------------------------------------------
// Changing users

type Change = { before: string | number[]; after: string | number[] };

export async function editUser(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  id: number,
  body: TEditUserBody,
): Promise<TAdminUser> {
  const now = deps.now();
  await deps.db.$transaction(async (tx) => {
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
    const groupIds = body.group_ids ? [...new Set(body.group_ids)] : undefined;
    if (groupIds) {
      const found = await repo.existingGroupIds(tx, groupIds);
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
    const changes: Record<string, Change> = {};
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
