import type { Tx } from '../../../lib/deps.js';

// What an e-mail inbox source remembers between polls, kept in its settings JSON under keys of
// their own (each written with jsonb_set, so a poll and an admin's retry never overwrite each
// other's): where the mailbox was read up to, when it was last looked at and why it failed,
// when an IDLE watcher saw new mail, which failed parts to take again, and where moved
// messages went. Saving a source's settings drops them: its next poll starts afresh.

export type StateKey = 'imap_cursor' | 'imap_checked' | 'imap_wake_at' | 'imap_retries' | 'imap_moved';

/** Sets one state key of a source's settings. */
export function setState(tx: Tx, sourceId: number, key: StateKey, value: unknown) {
  return tx.$executeRaw`
    UPDATE intake_sources
       SET settings = jsonb_set(settings, ARRAY[${key}]::text[], ${JSON.stringify(value)}::jsonb, true)
     WHERE id = ${sourceId} AND kind = 'imap'`;
}

/** Adds entries to a list kept under `key`, keeping its last `keep` entries. */
export function appendState(tx: Tx, sourceId: number, key: StateKey, entries: unknown[], keep: number) {
  return tx.$executeRaw`
    UPDATE intake_sources
       SET settings = jsonb_set(
             settings,
             ARRAY[${key}]::text[],
             (SELECT coalesce(jsonb_agg(e ORDER BY n), '[]'::jsonb)
                FROM (SELECT e, n, count(*) OVER () AS total
                        FROM jsonb_array_elements(
                               CASE jsonb_typeof(settings -> ${key}) WHEN 'array' THEN settings -> ${key} ELSE '[]'::jsonb END
                               || ${JSON.stringify(entries)}::jsonb
                             ) WITH ORDINALITY AS t(e, n)) kept
               WHERE n > total - ${keep}),
             true)
     WHERE id = ${sourceId} AND kind = 'imap'`;
}

/** Removes the entries of the list under `key` whose `key` field is one of `keys`. */
export function removeFromState(tx: Tx, sourceId: number, key: StateKey, keys: string[]) {
  return tx.$executeRaw`
    UPDATE intake_sources
       SET settings = jsonb_set(
             settings,
             ARRAY[${key}]::text[],
             (SELECT coalesce(jsonb_agg(e ORDER BY n), '[]'::jsonb)
                FROM jsonb_array_elements(
                       CASE jsonb_typeof(settings -> ${key}) WHEN 'array' THEN settings -> ${key} ELSE '[]'::jsonb END
                     ) WITH ORDINALITY AS t(e, n)
               WHERE NOT (e ->> 'key' = ANY(${keys}::text[]))),
             true)
     WHERE id = ${sourceId} AND kind = 'imap'`;
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
