import { createHash, createHmac } from 'node:crypto';
import type { Db } from '@quire/db';
import type pg from 'pg';
import { deriveKey } from './secrets.js';

// The audit hash chain, checked from outside the database (decision 015). The database seals
// each event at commit (quire_audit_seal, migrations 0011_search and 0012_audit_chain_keyed):
// seq = head + 1, prev_hash = the head's hash, hash = an HMAC-SHA256 of the canonical content
// below with the audit key ('k1:<hex>'), or its plain sha256 for events sealed before 0012 or
// by a connection without the key. The key is derived from APP_SECRET and is never stored in
// the database: each of Quire's connections is given it as the setting quire.audit_key
// (keyAuditPool), so a trail rewritten in the database or in a backup cannot be re-sealed.
// This file recomputes every hash in Node from the stored text of each field, so a
// verification does not trust the SQL functions of the database it checks.

/** How a keyed hash starts; a plain (unkeyed, pre-0012) hash is 64 hex digits alone. */
export const KEYED_PREFIX = 'k1:';

/** The audit key of an installation: derived from its secret key (APP_SECRET), never stored. */
export const auditKeyOf = (secretKey: Buffer) => deriveKey(secretKey, 'audit-chain');

/** The quire.audit_key setting for a key: the HMAC's inner and outer pad keys, in hex. */
export function auditKeySetting(key: Buffer): string {
  const block = Buffer.alloc(64);
  (key.length > 64 ? createHash('sha256').update(key).digest() : key).copy(block);
  const pad = (byte: number) => Buffer.from(block.map((b) => b ^ byte)).toString('hex');
  return pad(0x36) + pad(0x5c);
}

/**
 * Gives every connection of a pool the audit key (for its session), so the events its
 * transactions write are sealed keyed, and finishes doing so before the connection is handed
 * out: the caller's first query never waits in the client's queue behind the key (which
 * node-postgres deprecates). A connection opened from now on is keyed in the pool's
 * `onConnect` hook, which the pool awaits; one the pool already held idle (opened at start,
 * before the app was built: migrations, the first admin) is taken now, ahead of any other
 * use, keyed and given back. Call it while no connection is checked out (buildApp does,
 * before it answers anything). A connection that cannot be keyed is not handed out: its
 * caller gets the error, as for a failed connect.
 */
export function keyAuditPool(pool: pg.Pool, key: Buffer, onError: (err: Error) => void = () => {}) {
  const setting = auditKeySetting(key);
  const give = async (client: pg.ClientBase) => {
    await client.query(`SELECT set_config('quire.audit_key', $1, false)`, [setting]);
  };
  const options = (pool as unknown as { options: { onConnect?: (client: pg.ClientBase) => unknown } })
    .options;
  const before = options.onConnect;
  options.onConnect = async (client) => {
    await before?.(client);
    await give(client);
  };
  for (let i = 0; i < pool.idleCount; i++)
    pool.connect().then(async (client) => {
      try {
        await give(client);
        client.release();
      } catch (err) {
        client.release(err as Error);
        onError(err as Error);
      }
    }, onError);
}

/** Keys the current transaction of a connection of its own (the restore's): `SET LOCAL`. */
export async function keyAuditTransaction(client: pg.Client, key: Buffer) {
  await client.query(`SELECT set_config('quire.audit_key', $1, true)`, [auditKeySetting(key)]);
}

/** One event as stored, every field as PostgreSQL prints it (null where null). */
export interface ChainRow {
  id: string;
  seq: string;
  prev_hash: string | null;
  hash: string | null;
  user_id: string | null;
  type: string;
  action: string;
  target_type: string | null;
  target_id: string | null;
  message: string;
  /** `details::text` (jsonb's own printing). */
  details: string | null;
  ip: string | null;
  /** `created_at` as `YYYY-MM-DDTHH:MI:SS.MS` (UTC). */
  created: string;
}

const field = (v: string | null) => (v === null ? '-' : `${Buffer.byteLength(v, 'utf8')}:${v}`);

function canonical(row: Omit<ChainRow, 'hash'>): string {
  return (
    field(row.prev_hash) +
    field(row.seq) +
    field(row.id) +
    field(row.user_id) +
    field(row.type) +
    field(row.action) +
    field(row.target_type) +
    field(row.target_id) +
    field(row.message) +
    field(row.details) +
    field(row.ip) +
    field(row.created)
  );
}

/** The plain hash of an event (quire_audit_hash in SQL): events sealed before the key. */
export function auditHash(row: Omit<ChainRow, 'hash'>): string {
  return createHash('sha256').update(canonical(row), 'utf8').digest('hex');
}

/** The keyed hash of an event (quire_audit_keyed_hash in SQL). */
export function keyedAuditHash(row: Omit<ChainRow, 'hash'>, key: Buffer): string {
  return KEYED_PREFIX + createHmac('sha256', key).update(canonical(row), 'utf8').digest('hex');
}

interface ChainProblem {
  kind: 'changed' | 'removed' | 'relinked' | 'unsealed' | 'truncated' | 'unkeyed';
  /** The place in the chain where it shows (the event changed, or the first one missing). */
  seq: number | null;
  eventId: string | null;
  message: string;
}

interface ChainReport {
  ok: boolean;
  checked: number;
  head: { seq: number; hash: string } | null;
  problem: ChainProblem | null;
}

const SELECT_ROWS = `
  SELECT id::text, seq::text, prev_hash, hash, user_id::text, type, action, target_type, target_id,
         message, details::text AS details, ip,
         to_char(created_at, 'YYYY-MM-DD"T"HH24:MI:SS.MS') AS created
    FROM audit_events`;

/**
 * Walks the whole chain in seq order, batch by batch, and answers the first problem: an event
 * whose content no longer gives its hash (changed), a gap in seq (removed), an event whose
 * link to the one before does not match (the one before was changed, hash and all), an event
 * outside the chain (written around the triggers), or a head that an earlier walk saw and
 * that is gone or different (events removed from the end, or the chain rewritten). Keyed
 * events are checked with `key`; once one is keyed every later event must be, and so must the
 * newest (a trail rewritten with plain hashes, from anywhere up to its end, is found).
 */
export async function verifyChain(
  db: Db,
  options: {
    /** The audit key (deriveKey(secretKey, 'audit-chain')): without it keyed events do not verify. */
    key: Buffer | null;
    batchSize?: number;
    /** The head an earlier walk recorded (audit_verifications). */
    anchor?: { seq: number; hash: string } | null;
    onProgress?: (checked: number) => void;
  },
): Promise<ChainReport> {
  const batchSize = options.batchSize ?? 5000;
  let checked = 0;
  let prevSeq = 0;
  let prevHash = '';
  let prevId: string | null = null;
  let keyedSince: number | null = null;
  const key = options.key;
  const fail = (problem: ChainProblem): ChainReport => ({
    ok: false,
    checked,
    head: prevSeq ? { seq: prevSeq, hash: prevHash } : null,
    problem,
  });

  for (;;) {
    const rows = await db.$queryRawUnsafe<ChainRow[]>(
      `${SELECT_ROWS} WHERE audit_events.seq > $1 ORDER BY audit_events.seq LIMIT $2`,
      prevSeq,
      batchSize,
    );
    for (const row of rows) {
      const seq = Number(row.seq);
      if (seq !== prevSeq + 1) {
        const missing = seq - prevSeq - 1;
        return fail({
          kind: 'removed',
          seq: prevSeq + 1,
          eventId: null,
          message:
            missing === 1
              ? `Event #${prevSeq + 1} of the chain was removed (between event ids ${prevId ?? 'none'} and ${row.id})`
              : `Events #${prevSeq + 1} to #${seq - 1} of the chain were removed (between event ids ${prevId ?? 'none'} and ${row.id})`,
        });
      }
      if (row.prev_hash !== prevHash) {
        return fail({
          kind: 'relinked',
          seq: prevSeq || seq,
          eventId: prevId ?? row.id,
          message: prevSeq
            ? `Event #${prevSeq} (id ${prevId}) was changed: the event after it no longer links to it`
            : `Event #${seq} (id ${row.id}) was changed: the first event links to something`,
        });
      }
      const keyed = row.hash?.startsWith(KEYED_PREFIX) ?? false;
      if (!keyed && keyedSince !== null) {
        return fail({
          kind: 'unkeyed',
          seq,
          eventId: row.id,
          message: `Event #${seq} (id ${row.id}, ${row.action} at ${row.created}) is not sealed with the audit key, though the chain is keyed since #${keyedSince}: it was rewritten or written around Quire`,
        });
      }
      if (keyed && !key) {
        return fail({
          kind: 'changed',
          seq,
          eventId: row.id,
          message: `Event #${seq} is sealed with the audit key, which this check was not given (APP_SECRET): it cannot be verified`,
        });
      }
      if ((keyed && key ? keyedAuditHash(row, key) : auditHash(row)) !== row.hash) {
        return fail({
          kind: 'changed',
          seq,
          eventId: row.id,
          message: `Event #${seq} (id ${row.id}, ${row.action} at ${row.created}) was changed: its content no longer gives its hash`,
        });
      }
      if (keyed) keyedSince ??= seq;
      prevSeq = seq;
      prevHash = row.hash as string;
      prevId = row.id;
      checked += 1;
    }
    options.onProgress?.(checked);
    if (rows.length < batchSize) break;
  }

  if (prevSeq > 0 && keyedSince === null) {
    return fail({
      kind: 'unkeyed',
      seq: prevSeq,
      eventId: prevId,
      message: `The newest event #${prevSeq} (id ${prevId}) is not sealed with the audit key: the chain was rewritten from there or before (Quire seals every event it writes with the key, and writes one when it starts on an unkeyed chain)`,
    });
  }

  const outside = await db.$queryRawUnsafe<Array<{ id: string }>>(
    'SELECT id::text FROM audit_events WHERE seq IS NULL ORDER BY id LIMIT 1',
  );
  if (outside[0]) {
    return fail({
      kind: 'unsealed',
      seq: null,
      eventId: outside[0].id,
      message: `Event id ${outside[0].id} is outside the chain: it was written around the audit triggers`,
    });
  }
  const anchor = options.anchor;
  if (anchor && anchor.seq > prevSeq) {
    return fail({
      kind: 'truncated',
      seq: prevSeq + 1,
      eventId: null,
      message: `Events #${prevSeq + 1} to #${anchor.seq} were removed from the end of the chain (an earlier check saw them)`,
    });
  }
  if (anchor && anchor.seq > 0) {
    const [seen] = await db.$queryRawUnsafe<Array<{ hash: string | null }>>(
      'SELECT hash FROM audit_events WHERE seq = $1',
      anchor.seq,
    );
    if (seen?.hash !== anchor.hash) {
      return fail({
        kind: 'changed',
        seq: anchor.seq,
        eventId: null,
        message: `Event #${anchor.seq} no longer has the hash an earlier check recorded: the chain was rewritten from there or before`,
      });
    }
  }
  return { ok: true, checked, head: prevSeq ? { seq: prevSeq, hash: prevHash } : null, problem: null };
}
