import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { runScript } from '../../../test/cli.js';
import { asDatabaseOwner } from '../../../test/db-owner.js';
import { audit } from '../../lib/audit.js';
import {
  auditHash,
  auditKeyOf,
  type ChainRow,
  KEYED_PREFIX,
  keyAuditPool,
  verifyChain,
} from '../../lib/audit-chain.js';
import { keyChainOnStart, runVerification } from './audit.service.js';

// The keyed audit chain (decision 015, migration 0012): events are sealed with an HMAC whose
// key is derived from APP_SECRET and never stored, so a trail rewritten in the database (or in
// a backup) with the plain hashes recomputed no longer verifies. A database of its own: these
// tests break the chain on purpose.

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ APP_SECRET: 'audit-chain-tests-secret-0123456789' });
});
afterAll(() => t.close());

const key = () => auditKeyOf(t.app.deps.secretKey);
const verify = () => runVerification(t.app.deps);

/** A connection of its own, as someone with database access (no audit key) has. */
const asOwner = <T>(fn: (c: pg.Client) => Promise<T>) => asDatabaseOwner(t.databaseUrl, fn);

const write = (message: string) =>
  audit(t.db, { userId: null }, { type: 'group', action: 'group.created', message });

const ROWS = `SELECT id::text, seq::text, prev_hash, hash, user_id::text, type, action, target_type, target_id,
                     message, details::text AS details, ip,
                     to_char(created_at, 'YYYY-MM-DD"T"HH24:MI:SS.MS') AS created
                FROM audit_events WHERE seq >= $1 ORDER BY audit_events.seq`;

/**
 * What an attacker with the database does: edits an event and re-seals it and every event
 * after it with the plain (pre-0012) hash, around the triggers.
 */
async function rewriteFrom(seq: number, edit: (row: ChainRow) => void = () => {}) {
  return asOwner(async (c) => {
    await c.query('SET session_replication_role = replica');
    const rows = (await c.query<ChainRow>(ROWS, [seq])).rows;
    let prev = rows[0]?.prev_hash ?? '';
    for (const [i, row] of rows.entries()) {
      if (i === 0) edit(row);
      row.prev_hash = prev;
      row.hash = auditHash(row);
      prev = row.hash;
      await c.query('UPDATE audit_events SET message = $2, prev_hash = $3, hash = $4 WHERE id = $1', [
        row.id,
        row.message,
        row.prev_hash,
        row.hash,
      ]);
    }
  });
}

describe('the keyed audit chain', () => {
  it('a chain of plain hashes (events from before the key) keeps verifying once a start keys it', async () => {
    // Events sealed by a connection without the key: what a database from before 0012 holds.
    await asOwner(async (c) => {
      for (const m of ['old one', 'old two', 'old three'])
        await c.query(
          `INSERT INTO audit_events (type, action, message) VALUES ('group', 'group.created', $1)`,
          [m],
        );
    });
    const plain = await t.db.auditEvent.findMany({ orderBy: { seq: 'asc' } });
    expect(plain.map((e) => e.hash?.startsWith(KEYED_PREFIX))).toEqual([false, false, false]);
    // Not keyed anywhere yet: indistinguishable from a trail rewritten to its end.
    expect((await verifyChain(t.db, { key: key() })).problem).toMatchObject({ kind: 'unkeyed', seq: 3 });

    // What the server does when it starts on such a chain: one keyed event, the switch-over.
    await keyChainOnStart(t.app.deps);
    await keyChainOnStart(t.app.deps); // once only
    await write('after the switch-over');
    const events = await t.db.auditEvent.findMany({ orderBy: { seq: 'asc' } });
    expect(events.map((e) => [e.action, e.hash?.startsWith(KEYED_PREFIX)])).toEqual([
      ['group.created', false],
      ['group.created', false],
      ['group.created', false],
      ['audit.chain_keyed', true],
      ['group.created', true],
    ]);
    const report = await verify();
    expect(report).toMatchObject({ ok: true, checked: 5, problem: null });
    // Keyed events do not verify without the key (another APP_SECRET).
    expect((await verifyChain(t.db, { key: Buffer.alloc(32, 7) })).problem).toMatchObject({
      kind: 'changed',
      seq: 4,
    });
  });

  it('events removed from the end are found against the head an earlier check recorded', async () => {
    await write('the last one');
    const good = await verify(); // records the head (its own event comes after it)
    expect(good.ok).toBe(true);
    const head = good.head!.seq;
    const removed = await asOwner(async (c) => {
      await c.query('SET session_replication_role = replica');
      const rows = (await c.query('SELECT * FROM audit_events WHERE seq >= $1 ORDER BY seq', [head])).rows;
      await c.query('DELETE FROM audit_events WHERE seq >= $1', [head]);
      return rows;
    });
    expect(removed.length).toBe(2); // the head and the verification's own event
    const cut = await verifyChain(t.db, { key: key(), anchor: good.head });
    expect(cut.problem).toMatchObject({ kind: 'truncated', seq: head });
    expect(cut.problem?.message).toBe(
      `Events #${head} to #${head} were removed from the end of the chain (an earlier check saw them)`,
    );
    // Put back, the chain verifies again.
    await asOwner(async (c) => {
      await c.query('SET session_replication_role = replica');
      for (const r of removed)
        await c.query('INSERT INTO audit_events SELECT * FROM json_populate_record(NULL::audit_events, $1)', [
          JSON.stringify(r),
        ]);
    });
    expect((await verifyChain(t.db, { key: key(), anchor: good.head })).ok).toBe(true);
  });

  it('an event rewritten in the database with the old unkeyed hash recomputed does not verify', async () => {
    const target = await write('the original message');
    await write('after it');
    expect((await verify()).ok).toBe(true);
    const seq = Number((await t.db.auditEvent.findUniqueOrThrow({ where: { id: target.id } })).seq);

    // The event edited and the chain re-sealed from there to its end, every link consistent.
    await rewriteFrom(seq, (row) => {
      row.message = 'a rewritten message';
    });
    const report = await verify();
    expect(report.ok).toBe(false);
    expect(report.problem).toMatchObject({ kind: 'unkeyed', seq, eventId: String(target.id) });
    expect(report.problem?.message).toMatch(
      /not sealed with the audit key.*rewritten or written around Quire/,
    );
    expect(await t.db.auditEvent.count({ where: { action: 'audit.verify_failed' } })).toBe(1);

    // The whole trail re-sealed with plain hashes, from the first event: no keyed event is left.
    await rewriteFrom(1);
    const cli = await runScript('audit-verify.ts', {
      DATABASE_URL: t.databaseUrl,
      DATA_DIR: t.dataDir,
      APP_SECRET: 'audit-chain-tests-secret-0123456789',
    });
    expect(cli.code).toBe(1);
    expect(cli.output).toMatch(/does NOT verify/);
    expect(cli.output).toMatch(/The newest event #\d+ .* is not sealed with the audit key/);
    // The script's own record of the check is sealed with the key (it has APP_SECRET).
    const last = await t.db.auditEvent.findFirstOrThrow({ orderBy: { seq: 'desc' } });
    expect(last.action).toBe('audit.verify_failed');
    expect(last.hash?.startsWith(KEYED_PREFIX)).toBe(true);
  }, 120_000);
});

describe('a pool keyed after some of its connections were opened', () => {
  it('seals with the key the events written on a connection it already held', async () => {
    // At start the server migrates and makes the first admin before the app keys its pool:
    // the connections opened then stay idle in the pool and are handed out later.
    const pool = new pg.Pool({ connectionString: t.databaseUrl, max: 1 });
    try {
      (await pool.connect()).release();
      keyAuditPool(pool, key());
      const client = await pool.connect();
      try {
        const row = await client.query<{ id: string }>(
          `INSERT INTO audit_events (type, action, message) VALUES ('group', 'group.created', 'held')
           RETURNING id::text`,
        );
        const id = row.rows[0]?.id;
        const sealed = await client.query<{ hash: string }>('SELECT hash FROM audit_events WHERE id = $1', [
          id,
        ]);
        expect(sealed.rows[0]?.hash.startsWith(KEYED_PREFIX)).toBe(true);
      } finally {
        client.release();
      }
    } finally {
      await pool.end();
    }
  });
});
