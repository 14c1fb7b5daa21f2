import { Prisma } from '@quire/db';
import type { Tx } from '../../../lib/deps.js';

// What an e-mail inbox source remembers between polls, kept in its settings JSON under keys of
// their own (each written with jsonb_set, so a poll and an admin's retry never overwrite each
// other's): where the mailbox was read up to, when it was last looked at and why it failed,
// when an IDLE watcher saw new mail, which failed parts to take again, and where moved
// messages went. Saving a source's settings drops them: its next poll starts afresh.

type StateKey = 'imap_cursor' | 'imap_checked' | 'imap_wake_at' | 'imap_retries' | 'imap_moved';

/** Sets state key `key` of an inbox source's settings to `value` (an SQL jsonb expression). */
function setKey(tx: Tx, sourceId: number, key: StateKey, value: Prisma.Sql) {
  return tx.$executeRaw`
    UPDATE intake_sources
       SET settings = jsonb_set(settings, ARRAY[${key}]::text[], ${value}, true)
     WHERE id = ${sourceId} AND kind = 'imap'`;
}

/** The list kept under `key`, or an empty one, as the rows `(entry, position)` of its entries in order. */
const entriesOf = (
  key: StateKey,
  added: Prisma.Sql = Prisma.sql`'[]'::jsonb`,
) => Prisma.sql`jsonb_array_elements(
    CASE jsonb_typeof(settings -> ${key}) WHEN 'array' THEN settings -> ${key} ELSE '[]'::jsonb END || ${added}
  ) WITH ORDINALITY AS listed(entry, position)`;

/** Sets one state key of a source's settings. */
export function setState(tx: Tx, sourceId: number, key: StateKey, value: unknown) {
  return setKey(tx, sourceId, key, Prisma.sql`${JSON.stringify(value)}::jsonb`);
}

/** Adds entries to a list kept under `key`, keeping its last `keep` entries. */
export function appendState(tx: Tx, sourceId: number, key: StateKey, entries: unknown[], keep: number) {
  return setKey(
    tx,
    sourceId,
    key,
    Prisma.sql`(SELECT coalesce(jsonb_agg(entry ORDER BY position), '[]'::jsonb)
       FROM (SELECT entry, position, count(*) OVER () AS total
               FROM ${entriesOf(key, Prisma.sql`${JSON.stringify(entries)}::jsonb`)}) kept
      WHERE position > total - ${keep})`,
  );
}

/** Removes the entries of the list under `key` whose `key` field is one of `keys`. */
export function removeFromState(tx: Tx, sourceId: number, key: StateKey, keys: string[]) {
  return setKey(
    tx,
    sourceId,
    key,
    Prisma.sql`(SELECT coalesce(jsonb_agg(entry ORDER BY position), '[]'::jsonb)
       FROM ${entriesOf(key)}
      WHERE NOT (entry ->> 'key' = ANY(${keys}::text[])))`,
  );
}

/** A source's settings as stored now (the state a poll started with may be stale). */
export async function settingsOf(tx: Tx, sourceId: number): Promise<Record<string, unknown> | null> {
  const row = await tx.intakeSource.findUnique({ where: { id: sourceId }, select: { settings: true } });
  return row ? ((row.settings ?? {}) as Record<string, unknown>) : null;
}

/** The enabled e-mail inbox sources (for the IDLE watchers). */
export function enabledImapSources(tx: Tx) {
  return tx.intakeSource.findMany({
    where: { kind: 'imap', enabled: true },
    select: { id: true, settings: true, updatedAt: true },
    orderBy: { id: 'asc' },
  });
}
