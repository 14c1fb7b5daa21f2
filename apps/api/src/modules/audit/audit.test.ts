import ExcelJS from 'exceljs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs, expectAccess, readCase, readCaseOf, SETTINGS_CALLERS } from '../../../test/access.js';
import type { TestContext } from '../../../test/app.js';
import { runScript } from '../../../test/cli.js';
import { asDatabaseOwner } from '../../../test/db-owner.js';
import { errorPaths } from '../../../test/errors.js';
import { person, type SeedUser, seededApp } from '../../../test/seed.js';
import { audit } from '../../lib/audit.js';
import { auditKeyOf, auditKeySetting, keyAuditPool, verifyChain } from '../../lib/audit-chain.js';
import { runVerification } from './audit.service.js';

let t: TestContext;
let token: string;
let auditorId: number;

beforeAll(async () => {
  const world = await seededApp({
    users: { auditor: { accessType: 'Auditor', firstName: 'Ada', lastName: 'Auditor' } },
  });
  t = world.t;
  ({ id: auditorId, token } = world.users.auditor);
});
afterAll(() => t.close());

const get = (url: string) => callAs(t, token, { method: 'GET', url });
/** A person who has not signed in: their events are only the ones a test writes. */
const quietPerson = (o: SeedUser = {}) => person(t, { ...o, signIn: false });

/** The audit key of the test app (its events are sealed with it). */
const key = () => auditKeyOf(t.app.deps.secretKey);

/** Runs SQL as the database owner on a connection of its own (what someone with database access could do). */
const asOwner = <T>(fn: (c: pg.Client) => Promise<T>) => asDatabaseOwner(t.databaseUrl, fn);

/** Writes one event through the app's audit() in a transaction of its own. */
const write = (
  action: 'group.created' | 'group.updated' | 'group.deleted',
  message: string,
  userId: number | null = null,
) =>
  t.db.$transaction((tx) =>
    audit(
      tx,
      { userId, ip: '192.0.2.7' },
      { type: 'group', action, message, targetType: 'group', targetId: 9 },
    ),
  );

describe('who may read the audit trail', () => {
  const cases = [
    readCase('/api/audits/activity'),
    readCase('/api/audits/chain'),
    readCaseOf('POST /api/audits/chain/verify', () => ({ method: 'POST', url: '/api/audits/chain/verify' })),
    readCaseOf('GET /api/audits/export', () => ({ method: 'GET', url: '/api/audits/export?type=group' })),
  ];
  it.each(SETTINGS_CALLERS)('as %s', (...caller) =>
    expectAccess(t, caller, cases, async () => t.db.auditVerification.count()),
  );

  it('audits a refusal, which then shows in the trail', async () => {
    const staff = await person(t);
    const refused = await callAs(t, staff.token, { method: 'GET', url: '/api/audits/activity' });
    expect(refused.statusCode).toBe(403);
    const res = await get(`/api/audits/activity?user_id=${staff.id}&type=security`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.items[0]).toMatchObject({
      action: 'access.denied',
      user: { id: staff.id, username: staff.username },
      ip: '127.0.0.1',
    });
  });
});

describe('GET /api/audits/activity', () => {
  it('lists every event newest first with who, what, when, from where and the object', async () => {
    const actor = await quietPerson({ firstName: 'Gus', lastName: 'Group' });
    await write('group.created', 'Created group "Finance"', actor.id);
    await write('group.updated', 'Edited group "Finance"', actor.id);
    const res = await get('/api/audits/activity');
    expect(res.statusCode).toBe(200);
    const page = res.json().data;
    expect(page.quantity).toBe(20);
    expect(page.total_exact).toBe(true);
    expect(page.total).toBe(await t.db.auditEvent.count());
    const [first, second] = page.items;
    expect(first).toMatchObject({
      type: 'group',
      action: 'group.updated',
      message: 'Edited group "Finance"',
      user: { id: actor.id, username: actor.username, name: 'Gus Group' },
      ip: '192.0.2.7',
      target_type: 'group',
      target_id: '9',
      hash: expect.stringMatching(/^k1:[0-9a-f]{64}$/), // sealed with the audit key
    });
    expect(second.action).toBe('group.created');
    expect(first.seq).toBe(second.seq + 1);
    expect(new Date(first.created_at).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('filters by user, type, date range and search text, and they combine', async () => {
    const who = await quietPerson();
    await write('group.created', 'Created group "Zebra-unique-x1"', who.id);
    await write('group.deleted', 'Deleted group "Yak-other"', who.id);
    const byUser = (await get(`/api/audits/activity?user_id=${who.id}`)).json().data;
    expect(byUser.items.map((e: { action: string }) => e.action)).toEqual(['group.deleted', 'group.created']);
    const searched = (await get(`/api/audits/activity?user_id=${who.id}&search=ZEBRA-unique`)).json().data;
    expect(searched.items.map((e: { message: string }) => e.message)).toEqual([
      'Created group "Zebra-unique-x1"',
    ]);
    expect(searched.total).toBe(1);
    const byAction = (await get('/api/audits/activity?search=group.deleted&type=group')).json().data;
    expect(byAction.items.every((e: { action: string }) => e.action === 'group.deleted')).toBe(true);
    const today = new Date().toISOString().slice(0, 10);
    const inRange = (await get(`/api/audits/activity?user_id=${who.id}&dateRange=${today},${today}`)).json()
      .data;
    expect(inRange.total).toBe(2);
    const before = (await get(`/api/audits/activity?user_id=${who.id}&dateRange=,2000-01-01`)).json().data;
    expect(before.total).toBe(0);
    const exact = encodeURIComponent(`${new Date(Date.now() + 3_600_000).toISOString()},`);
    expect((await get(`/api/audits/activity?user_id=${who.id}&dateRange=${exact}`)).json().data.total).toBe(
      0,
    );
    const wildcard = (
      await get(`/api/audits/activity?user_id=${who.id}&search=${encodeURIComponent('%')}`)
    ).json().data;
    expect(wildcard.total).toBe(0);
  });

  it('pages by page number and by cursor, with the same rows', async () => {
    const who = await quietPerson();
    for (let i = 0; i < 7; i++) await write('group.updated', `Edit ${i}`, who.id);
    const p2 = (await get(`/api/audits/activity?user_id=${who.id}&quantity=3&page=2`)).json().data;
    expect(p2.items.map((e: { message: string }) => e.message)).toEqual(['Edit 3', 'Edit 2', 'Edit 1']);
    expect(p2.last_page).toBe(3);
    const p1 = (await get(`/api/audits/activity?user_id=${who.id}&quantity=3`)).json().data;
    const viaCursor = (
      await get(`/api/audits/activity?user_id=${who.id}&quantity=3&cursor=${p1.next_cursor}`)
    ).json().data;
    expect(viaCursor.items).toEqual(p2.items);
  });

  it('refuses bad filters with a 400 naming the field', async () => {
    const cases: Array<[string, string]> = [
      ['dateRange=2026-01-01', 'query.dateRange'],
      ['dateRange=2026-02-01,2026-01-01', 'query.dateRange'],
      ['dateRange=yesterday,today', 'query.dateRange'],
      ['type=nonsense', 'query.type'],
      ['user_id=abc', 'query.user_id'],
      ['quantity=0', 'query.quantity'],
      ['user_id=99999', 'query.user_id'],
    ];
    for (const [qs, path] of cases) {
      const res = await get(`/api/audits/activity?${qs}`);
      expect(`${qs} ${res.statusCode}`).toBe(`${qs} 400`);
      expect(errorPaths(res)).toContain(path);
    }
  });
});

describe('the hash chain', () => {
  it('seals every event in commit order: seq without gaps, each linked to the one before', async () => {
    await write('group.created', 'chain one');
    const rows = await t.db.auditEvent.findMany({ orderBy: { seq: 'asc' } });
    expect(rows.every((r) => r.seq !== null && r.hash !== null)).toBe(true);
    rows.forEach((r, i) => {
      expect(Number(r.seq)).toBe(i + 1);
      expect(r.prevHash).toBe(i === 0 ? '' : rows[i - 1]?.hash);
    });
    expect((await verifyChain(t.db, { key: key() })).ok).toBe(true);
  });

  it('takes inserts only: UPDATE, DELETE and TRUNCATE are refused', async () => {
    const event = await write('group.created', 'cannot change me');
    for (const sql of [
      `UPDATE audit_events SET message = 'changed' WHERE id = ${event.id}`,
      `UPDATE audit_events SET hash = NULL WHERE id = ${event.id}`,
      `DELETE FROM audit_events WHERE id = ${event.id}`,
      'TRUNCATE audit_events',
    ]) {
      await expect(t.db.$executeRawUnsafe(sql), sql).rejects.toThrow(/cannot be changed or removed/);
    }
    expect((await t.db.auditEvent.findUnique({ where: { id: event.id } }))?.message).toBe('cannot change me');
  });

  it('stays one chain when many connections write at once', async () => {
    const pool = new pg.Pool({ connectionString: t.databaseUrl, max: 12 });
    keyAuditPool(pool, key()); // as Quire's own connections are
    try {
      const before = await t.db.auditEvent.count();
      const writers = Array.from({ length: 12 }, (_, w) =>
        (async () => {
          for (let i = 0; i < 10; i++) {
            const c = await pool.connect();
            try {
              await c.query('BEGIN');
              await c.query(
                `INSERT INTO audit_events (type, action, message) VALUES ('group', 'group.updated', $1)`,
                [`writer ${w} event ${i}a`],
              );
              // Transactions overlap: the later id may commit first.
              await new Promise((r) => setTimeout(r, (w * 7 + i * 3) % 11));
              await c.query(
                `INSERT INTO audit_events (type, action, message) VALUES ('group', 'group.updated', $1)`,
                [`writer ${w} event ${i}b`],
              );
              await c.query('COMMIT');
            } finally {
              c.release();
            }
          }
        })(),
      );
      await Promise.all(writers);
      expect(await t.db.auditEvent.count()).toBe(before + 240);
      const report = await verifyChain(t.db, { key: key(), batchSize: 50 });
      expect(report.problem).toBeNull();
      expect(report.checked).toBe(before + 240);
      // Some later ids were sealed before earlier ones: the order is the commit order.
      const rows = await t.db.auditEvent.findMany({
        where: { message: { startsWith: 'writer ' } },
        orderBy: { seq: 'asc' },
      });
      expect(rows.some((r, i) => i > 0 && r.id < (rows[i - 1]?.id ?? 0n))).toBe(true);
    } finally {
      await pool.end();
    }
  });

  it('lets a reload (backup restore) bring its own chain values when it says so', async () => {
    await asOwner(async (c) => {
      await c.query(`SELECT set_config('quire.audit_key', $1, false)`, [auditKeySetting(key())]);
      const [last] = (await c.query('SELECT id, seq, hash FROM audit_events ORDER BY seq DESC LIMIT 1')).rows;
      // Without the setting, chain values given on insert are ignored and sealed afresh.
      await c.query(`INSERT INTO audit_events (type, action, message, seq, prev_hash, hash)
                     VALUES ('group', 'group.updated', 'forged', 999999, 'x', 'y')`);
      const forged = (await c.query(`SELECT seq FROM audit_events WHERE message = 'forged'`)).rows[0];
      expect(Number(forged.seq)).toBe(Number(last.seq) + 1);
      // A reload removes and reloads rows with the chain values they had (rolled back here).
      await c.query('BEGIN');
      await c.query(`SET LOCAL quire.audit_reload = 'on'`);
      expect((await c.query(`DELETE FROM audit_events WHERE message = 'forged'`)).rowCount).toBe(1);
      await c.query(`INSERT INTO audit_events (type, action, message, seq, prev_hash, hash)
                     VALUES ('group', 'group.updated', 'reloaded', 424242, 'p', 'h')`);
      const [kept] = (await c.query(`SELECT seq, hash FROM audit_events WHERE message = 'reloaded'`)).rows;
      expect([Number(kept.seq), kept.hash]).toEqual([424242, 'h']);
      await c.query('ROLLBACK');
    });
    expect((await verifyChain(t.db, { key: key() })).ok).toBe(true);
  });
});

describe('verification (pnpm audit:verify, the audit.verify job, GET /api/audits/chain)', () => {
  it('verifies through the job and shows the verdict', async () => {
    const queued = await callAs(t, token, { method: 'POST', url: '/api/audits/chain/verify' });
    expect(queued.statusCode).toBe(200);
    expect(queued.json().data.verifying).toBe(true);
    await t.app.jobs.runDue();
    const status = (await get('/api/audits/chain')).json().data;
    expect(status.verifying).toBe(false);
    expect(status.verification).toMatchObject({ ok: true, problem: null });
    expect(status.verification.head_seq).toBeGreaterThan(0);
    expect(status.head.seq).toBeGreaterThanOrEqual(status.verification.head_seq);
    expect(await t.db.auditEvent.count({ where: { action: 'audit.verified' } })).toBeGreaterThan(0);
  });

  it('pnpm audit:verify names an event edited directly in the database, and one removed', async () => {
    const target = await write('group.created', 'the original message');
    await write('group.updated', 'after it');
    expect(await runCli()).toMatchObject({ code: 0 });
    // Someone with database access goes around the triggers.
    await asOwner(async (c) => {
      await c.query('SET session_replication_role = replica');
      await c.query(`UPDATE audit_events SET message = 'an edited message' WHERE id = ${target.id}`);
    });
    const seq = Number((await t.db.auditEvent.findUnique({ where: { id: target.id } }))?.seq);
    const edited = await runCli();
    expect(edited.code).toBe(1);
    expect(edited.output).toContain(`Event #${seq} (id ${target.id}, group.created`);
    expect(edited.output).toContain('was changed');
    const status = (await get('/api/audits/chain')).json().data;
    expect(status.verification).toMatchObject({ ok: false, problem_seq: seq });

    // Put it back, then remove the event after it instead.
    await asOwner(async (c) => {
      await c.query('SET session_replication_role = replica');
      await c.query(`UPDATE audit_events SET message = 'the original message' WHERE id = ${target.id}`);
      await c.query(`DELETE FROM audit_events WHERE seq = ${seq + 1}`);
    });
    const removed = await runVerification({
      db: t.db,
      now: () => new Date(),
      secretKey: t.app.deps.secretKey,
    });
    expect(removed.problem).toMatchObject({ kind: 'removed', seq: seq + 1 });
  }, 180_000);
});

describe('GET /api/audits/export', () => {
  it('exports the filtered trail as .xlsx with formula-like text made inert, and audits the export', async () => {
    const who = await quietPerson();
    await write('group.created', '=HYPERLINK("http://evil.test","click")', who.id);
    await write('group.updated', '+1+1', who.id);
    await write('group.deleted', 'plain text', who.id);
    const res = await get(`/api/audits/export?user_id=${who.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toMatch(
      /attachment; filename="audit-trail-\d{4}-\d{2}-\d{2}\.xlsx"/,
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet?.rowCount).toBe(4);
    const messages = [2, 3, 4].map((r) => sheet?.getRow(r).getCell(6).value);
    expect(messages).toEqual(['plain text', "'+1+1", `'=HYPERLINK("http://evil.test","click")`]);
    expect(sheet?.getRow(2).getCell(6).formula).toBeUndefined();
    const event = await t.db.auditEvent.findFirst({
      where: { action: 'audit.exported' },
      orderBy: { id: 'desc' },
    });
    expect(event).toMatchObject({ userId: auditorId, details: expect.objectContaining({ user_id: who.id }) });
  });

  it('refuses bad filters (400) without writing an export event', async () => {
    const before = await t.db.auditEvent.count({ where: { action: 'audit.exported' } });
    const res = await get('/api/audits/export?dateRange=bad');
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].path).toBe('query.dateRange');
    expect(await t.db.auditEvent.count({ where: { action: 'audit.exported' } })).toBe(before);
  });
});

/** Runs `pnpm audit:verify`'s script against this test's database. */
const runCli = () => runScript('audit-verify.ts', { DATABASE_URL: t.databaseUrl, DATA_DIR: t.dataDir });
