import { Prisma } from '@quire/db';
import type { Tx } from './deps.js';

/**
 * Every transaction-level advisory lock Quire takes, one key each. A key shared by two kinds of
 * work makes them wait on each other for nothing, or deadlock (a seat check holding the key the
 * audit seal needs at commit). The audit chain's key is taken by the SQL seal itself
 * (`quire_audit_seal` in migration 0011_search) at commit, and by the raise of the category
 * rights epoch before it locks the epoch's row (`quire_category_rights_raise`, migration 0021),
 * so no one waits for that row while holding it; `locks.test.ts` holds them together. The
 * category rights cache's key is SQL's too (`quire_category_rights`, migration 0020): tried with
 * a person's id as the second key, never waited for.
 */
export const ADVISORY_LOCKS = {
  bootstrap: 727361,
  auditChain: 727362,
  backup: 727363,
  seats: 727364,
  categoryTree: 727365,
  categoryRightsCache: 727366,
  /** The first save of the e-mail settings, before their row exists (email.repository.ts). */
  emailSettingsFirstSave: 727367,
  /** The first save of the directory connection, before its row exists (settings.repository.ts). */
  directoryFirstSave: 727368,
} as const;

type AdvisoryLock = Exclude<keyof typeof ADVISORY_LOCKS, 'auditChain' | 'categoryRightsCache'>;

/** Takes the named lock until the transaction ends. */
export async function lockFor(tx: Tx, name: AdvisoryLock): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${ADVISORY_LOCKS[name]}::bigint)`;
}

/** The tables whose rows an edit locks before it reads them (see lockRow). */
type EditedTable =
  | 'auth_providers'
  | 'categories'
  | 'category_groups'
  | 'email_settings'
  | 'groups'
  | 'intake_rules'
  | 'intake_sources'
  | 'metadata_fields'
  | 'related_tags'
  | 'users'
  | 'value_lists'
  | 'workflows';

/**
 * Locks one row until the transaction ends, so that two edits of it run one after the other:
 * each reads what the other wrote (the audit's "before" included), and a set one replaces
 * (members, grants, items) is never inserted twice. FOR NO KEY UPDATE, the lock an UPDATE
 * takes: rows that point at it (a file in a category, a grant) can still be added. False when
 * there is no such row.
 */
export async function lockRow(tx: Tx, table: EditedTable, id: number): Promise<boolean> {
  const rows = await tx.$queryRaw<Array<{ id: number }>>`
    SELECT id FROM ${Prisma.raw(table)} WHERE id = ${id}::int FOR NO KEY UPDATE`;
  return rows.length > 0;
}

/**
 * Locks rows FOR SHARE, in id order, until the transaction ends: for an edit that does not
 * change them but changes what links them (a membership names a group and a person). Edits that
 * share a row run side by side; an edit of the row (lockRow) waits for them, and they for it.
 * The ids that exist.
 *
 * Memberships (group_members) take their locks in one order, so that no two edits wait on each
 * other in a circle: the groups' rows, then the people's. A group edit locks its group
 * (lockRow), then shares the rows of its members and of the people it names; a user edit
 * shares the rows of the groups it names, then locks the person's row (lockRow); creating a
 * person or a group shares the rows it names (its own is seen by no one yet). So whoever
 * adds a membership holds its group's row and its person's row, and whoever removes one holds
 * its person's row, which an edit of its group already shares: each edit reads the memberships
 * the last one left (its audit's "before"), and a person deleted meanwhile (an update of their
 * row) is seen as deleted.
 */
export async function shareRows(tx: Tx, table: EditedTable, ids: number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows = await tx.$queryRaw<Array<{ id: number }>>`
    SELECT id FROM ${Prisma.raw(table)} WHERE id = ANY(${[...new Set(ids)]}::int[]) ORDER BY id FOR SHARE`;
  return new Set(rows.map((r) => r.id));
}
