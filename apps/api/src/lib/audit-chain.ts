import { createHash } from 'node:crypto';
import type { Db } from '@quire/db';

// The audit hash chain, checked from outside the database (decision 015). The database seals
// each event at commit (quire_audit_seal in migration 0011_search): seq = head + 1,
// prev_hash = the head's hash, hash = sha256 of the canonical content below. This file
// recomputes every hash in Node from the stored text of each field, so a verification does
// not trust the SQL functions of the database it checks.

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

/** The hash the chain expects for an event (quire_audit_hash in SQL). */
export function auditHash(row: Omit<ChainRow, 'hash'>): string {
  const canonical =
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
    field(row.created);
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}

export interface ChainProblem {
  kind: 'changed' | 'removed' | 'relinked' | 'unsealed' | 'truncated';
  /** The place in the chain where it shows (the event changed, or the first one missing). */
  seq: number | null;
  eventId: string | null;
  message: string;
}

export interface ChainReport {
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
 * that is gone or different (events removed from the end, or the chain rewritten).
 */
export async function verifyChain(
  db: Db,
  options: {
    batchSize?: number;
    /** The head an earlier walk recorded (audit_verifications). */
    anchor?: { seq: number; hash: string } | null;
    onProgress?: (checked: number) => void;
  } = {},
): Promise<ChainReport> {
  const batchSize = options.batchSize ?? 5000;
  let checked = 0;
  let prevSeq = 0;
  let prevHash = '';
  let prevId: string | null = null;
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
      if (auditHash(row) !== row.hash) {
        return fail({
          kind: 'changed',
          seq,
          eventId: row.id,
          message: `Event #${seq} (id ${row.id}, ${row.action} at ${row.created}) was changed: its content no longer gives its hash`,
        });
      }
      prevSeq = seq;
      prevHash = row.hash;
      prevId = row.id;
      checked += 1;
    }
    options.onProgress?.(checked);
    if (rows.length < batchSize) break;
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
