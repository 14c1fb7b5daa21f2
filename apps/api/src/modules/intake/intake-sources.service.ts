import { mkdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { TIntakeSource, TIntakeSourceInput } from '@quire/contract';
import type { Prisma } from '@quire/db';
import { type Actor, audit } from '../../lib/audit.js';
import type { Deps, Tx } from '../../lib/deps.js';
import { badField } from '../../lib/errors.js';
import { notifySchedulesChanged } from '../../lib/jobs/queue.js';
import { encryptSecret } from '../../lib/secrets.js';
import { assertInboxHostAllowed, imapSettings, sameServer } from './imap/imap.settings.js';
import { sourceNotFound } from './intake.errors.js';
import * as repo from './intake.repository.js';
import { SOURCE_KINDS } from './source-kinds.js';

// Intake sources: listed with their state, added, changed and removed by File Control
// writers, each change with its audit event. A watched folder must lie in INTAKE_FOLDERS (it
// is created there when missing); an IMAP password is kept encrypted with the secret key, as
// the SMTP one is, and never shown.

const iso = (d: Date | null) => (d ? d.toISOString() : null);

type Settings = Record<string, unknown>;

function toSource(row: repo.SourceRow): TIntakeSource {
  const settings = (row.settings ?? {}) as Settings;
  const common = {
    id: row.id,
    name: row.name,
    enabled: row.enabled,
    category: row.category,
    file_as: row.fileAs,
    owner: row.owner,
    unindexed_group: row.unindexedGroup,
    state: row.state,
    last_error: row.lastError,
    last_run_at: iso(row.lastRunAt),
    taken_count: row.takenCount,
    failed_count: row.failedCount,
    updated_at: row.updatedAt.toISOString(),
  };
  if (row.kind === 'folder')
    return {
      ...common,
      kind: 'folder',
      settings: { path: String(settings.path ?? ''), subfolders: settings.subfolders === true },
    };
  const { password_encrypted, ...shown } = settings;
  return {
    ...common,
    kind: 'imap',
    settings: {
      host: String(shown.host ?? ''),
      port: Number(shown.port ?? 993),
      tls: shown.tls !== false,
      user: String(shown.user ?? ''),
      mailbox: String(shown.mailbox ?? 'INBOX'),
      sender_filter: String(shown.sender_filter ?? ''),
      subject_filter: String(shown.subject_filter ?? ''),
      after_take: shown.after_take === 'move' ? 'move' : 'mark',
      move_to: String(shown.move_to ?? ''),
      take_message: shown.take_message === true,
      ca_certificate: String(shown.ca_certificate ?? ''),
      has_password: typeof password_encrypted === 'string' && password_encrypted.length > 0,
    },
  };
}

export async function listSources(deps: Deps): Promise<TIntakeSource[]> {
  return (await repo.listSources(deps.db)).map(toSource);
}

/** Whether `dir` is `root` or inside it. */
function inside(root: string, dir: string) {
  const rel = path.relative(root, dir);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * The folder a source watches, checked: inside one of INTAKE_FOLDERS (after following links),
 * created there when missing, and a folder.
 */
async function checkFolder(deps: Deps, raw: string): Promise<string> {
  const roots = deps.config.intakeFolders;
  const wanted = path.resolve(raw);
  const allowed = roots.find((r) => inside(r, wanted));
  const where = `Intake may watch only folders in ${roots.join(', ')} (INTAKE_FOLDERS)`;
  if (!allowed) throw badField('body.settings.path', where);
  await mkdir(wanted, { recursive: true }).catch(() => undefined);
  const info = await stat(wanted).catch(() => null);
  if (!info?.isDirectory())
    throw badField('body.settings.path', `${wanted} is not a folder the server can use`);
  // A link inside the allowed folder may point outside it.
  const real = await realpath(wanted);
  const realRoot = await realpath(allowed).catch(() => allowed);
  if (!inside(realRoot, real)) throw badField('body.settings.path', where);
  return wanted;
}

/**
 * The settings as stored but for the IMAP password (see withPassword), checked before the
 * transaction: a folder in INTAKE_FOLDERS (created when missing), an inbox on a host allowed.
 */
async function checkedSettings(deps: Deps, body: TIntakeSourceInput): Promise<Settings> {
  if (body.kind === 'folder')
    return { path: await checkFolder(deps, body.settings.path), subfolders: body.settings.subfolders };
  await assertInboxHostAllowed(deps, body.settings.host);
  const { password: _settledApart, ...rest } = body.settings;
  return rest;
}

/**
 * The settings with their IMAP password: one omitted keeps the stored one (`before`'s, read
 * under the source's lock, so that it is the last one set), an empty one clears it.
 */
function withPassword(
  deps: Deps,
  body: TIntakeSourceInput,
  settings: Settings,
  before: Settings | null,
): Settings {
  if (body.kind === 'folder') return settings;
  const { password } = body.settings;
  // A stored password goes only to the server and user it was given for: changing them
  // without typing it again drops it.
  const kept =
    before && sameServer(imapSettings(before), imapSettings(settings))
      ? imapSettings(before).password_encrypted
      : null;
  const password_encrypted =
    password === undefined ? kept : password ? encryptSecret(deps.secretKey, password) : null;
  return { ...settings, password_encrypted };
}

/**
 * Checks what zod cannot: a live category, an active owner, a group that exists, a name not
 * taken; 400 naming it.
 */
async function checkRefs(tx: Tx, body: TIntakeSourceInput, id: number | null) {
  if (!(await repo.liveCategory(tx, body.category_id)))
    throw badField('body.category_id', 'Choose a category that exists');
  if (!(await repo.activeUser(tx, body.owner_id))) throw badField('body.owner_id', 'Choose an active user');
  if (body.unindexed_group_id !== null && !(await repo.findGroup(tx, body.unindexed_group_id)))
    throw badField('body.unindexed_group_id', 'Choose a group that exists');
  if (await repo.sourceNamed(tx, body.name, id ?? undefined))
    throw badField('body.name', `There is already a source named "${body.name}"`);
}

function auditDetails(row: repo.SourceRow) {
  const { password_encrypted: _hidden, ...settings } = (row.settings ?? {}) as Settings;
  return {
    kind: row.kind,
    name: row.name,
    enabled: row.enabled,
    category_id: row.categoryId,
    file_as: row.fileAs,
    owner_id: row.ownerId,
    unindexed_group_id: row.unindexedGroupId,
    settings,
  } as Prisma.InputJsonObject;
}

/** The columns a source's form sets, on create and on update alike. */
const columnsOf = (body: TIntakeSourceInput, settings: Settings) => ({
  name: body.name,
  enabled: body.enabled,
  categoryId: body.category_id,
  fileAs: body.file_as,
  ownerId: body.owner_id,
  unindexedGroupId: body.file_as === 'unindexed' ? body.unindexed_group_id : null,
  settings: settings as Prisma.InputJsonObject,
});

/** A source created, changed or removed: its audit event, and the scheduler told in the same transaction. */
async function sourceChanged(
  tx: Tx,
  actor: Actor,
  action: 'intake.source_created' | 'intake.source_changed' | 'intake.source_deleted',
  row: { id: number },
  event: { message: string; details: Prisma.InputJsonObject },
) {
  await audit(tx, actor, { type: 'intake', action, targetType: 'intake_source', targetId: row.id, ...event });
  await notifySchedulesChanged(tx);
}

export async function createSource(
  deps: Deps,
  actor: Actor,
  body: TIntakeSourceInput,
): Promise<TIntakeSource> {
  await checkRefs(deps.db, body, null);
  const settings = withPassword(deps, body, await checkedSettings(deps, body), null);
  return deps.db.$transaction(async (tx) => {
    await checkRefs(tx, body, null);
    const row = await repo.createSource(tx, {
      kind: body.kind,
      ...columnsOf(body, settings),
      createdById: actor.userId,
    });
    await sourceChanged(tx, actor, 'intake.source_created', row, {
      message: `Added intake ${row.kind} "${row.name}"`,
      details: auditDetails(row),
    });
    return toSource(row);
  });
}

export async function updateSource(
  deps: Deps,
  actor: Actor,
  id: number,
  body: TIntakeSourceInput,
): Promise<TIntakeSource> {
  const before = await repo.findSource(deps.db, id);
  if (!before) throw sourceNotFound();
  if (before.kind !== body.kind)
    throw badField('body.kind', 'A source keeps its kind; add a new source instead');
  await checkRefs(deps.db, body, id);
  const checked = await checkedSettings(deps, body);
  const row = await deps.db.$transaction(async (tx) => {
    // The source as the last change left it: for the audit, and for the password an edit
    // that leaves it blank keeps (the last one set, not one read before the lock).
    if (!(await repo.lockSource(tx, id))) throw sourceNotFound();
    const current = await repo.findSource(tx, id);
    if (!current) throw sourceNotFound();
    await checkRefs(tx, body, id);
    const settings = withPassword(deps, body, checked, current.settings as Settings);
    const row = await repo.updateSource(tx, id, {
      ...columnsOf(body, settings),
      // A changed source starts afresh: its last error was about what it was.
      ...(body.enabled ? {} : { state: 'idle' as const }),
      lastError: null,
    });
    await sourceChanged(tx, actor, 'intake.source_changed', row, {
      message: `Changed intake ${row.kind} "${row.name}"`,
      details: { before: auditDetails(current), after: auditDetails(row) },
    });
    return row;
  });
  SOURCE_KINDS[row.kind]?.forget?.(row.id);
  return toSource(row);
}

export async function deleteSource(deps: Deps, actor: Actor, id: number) {
  const row = await deps.db.$transaction(async (tx) => {
    await repo.lockSource(tx, id);
    const row = await repo.findSource(tx, id);
    if (!row) throw sourceNotFound();
    await repo.deleteSource(tx, id);
    await sourceChanged(tx, actor, 'intake.source_deleted', row, {
      message: `Removed intake ${row.kind} "${row.name}" (${row.takenCount} taken, ${row.failedCount} failed)`,
      details: auditDetails(row),
    });
    return row;
  });
  SOURCE_KINDS[row.kind]?.forget?.(row.id);
  return { id };
}
