import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs } from '../../../../test/access.js';
import { createTestApp, type TestContext } from '../../../../test/app.js';
import { textPdf } from '../../../../test/documents.js';
import { composeMessage, startTestMailbox, type TestMailbox } from '../../../../test/dovecot.js';
import { person, seed, seededApp } from '../../../../test/seed.js';
import * as intakeRepo from '../intake.repository.js';
import { pollSource } from '../poll.service.js';
import { NO_ATTACHMENT } from './imap.service.js';

// The e-mail inbox end to end, through the API and the intake.poll path, against a real
// dovecot: an invoice mailed to the inbox is taken, filed by a rule into its category, found by
// the search, and audited with its source; a wrong password shows on the source; the inbox is
// tested from the form; hosts on this machine are refused unless the operator allows them.

let t: TestContext;
let mail: TestMailbox;
let admin: string;
let adminId: number;
let inbox: { id: number; name: string };
let invoices: { id: number; name: string };

const call = (opts: InjectOptions, token: string | null = admin) => callAs(t, token, opts);
const runJobs = async () => {
  for (let i = 0; i < 30; i++) {
    await t.app.jobs.runDue();
    await t.db.job.updateMany({
      where: { kind: 'intake.file', status: 'queued' },
      data: { runAt: new Date() },
    });
    if (
      !(await t.db.job.count({
        where: { status: { in: ['queued', 'running'] }, runAt: { lte: new Date() } },
      }))
    )
      return;
  }
};
const inboxSettings = (o: Record<string, unknown> = {}) => ({
  host: mail.host,
  port: mail.port,
  tls: false,
  user: 'accounts',
  password: 'accounts-Pass-1',
  ...o,
});

beforeAll(async () => {
  mail = await startTestMailbox({
    tls: false,
    accounts: [
      { user: 'accounts', password: 'accounts-Pass-1' },
      { user: 'other', password: 'other-Pass-1' },
    ],
  });
  const world = await seededApp(
    {
      users: { admin: { accessType: 'COMPANY ADMIN' } },
      categories: { inbox: { name: 'Mail inbox' }, invoices: { name: 'Supplier invoices' } },
    },
    { IMAP_ALLOW_PRIVATE_HOSTS: 'true' },
  );
  ({
    t,
    categories: { inbox, invoices },
  } = world);
  ({ id: adminId, token: admin } = world.users.admin);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await mail?.stop();
});

describe('an invoice mailed to the inbox', () => {
  it('is taken, filed by a rule into its category, found by the search, audited with its source', async () => {
    const created = await call({
      method: 'POST',
      url: '/api/intake/sources',
      payload: {
        kind: 'imap',
        name: 'Accounts inbox',
        category_id: inbox.id,
        owner_id: adminId,
        settings: inboxSettings({ after_take: 'move', move_to: 'Filed' }),
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const sourceId = created.json().data.id as number;
    const rule = await call({
      method: 'POST',
      url: '/api/intake/rules',
      payload: { name: 'Acme invoices', sender_contains: 'acme.test', category_id: invoices.id },
    });
    expect(rule.statusCode, rule.body).toBe(200);

    await mail.deliver(
      composeMessage({
        from: 'Acme Billing <billing@acme.test>',
        subject: 'Invoice 2026-0042',
        parts: [
          {
            filename: 'invoice-2026-0042.pdf',
            contentType: 'application/pdf',
            content: textPdf(['Acme Ltd', 'Invoice 2026-0042', 'Quokkafjord consulting, total 1,250.00']),
          },
        ],
      }),
      { user: 'accounts' },
    );
    // The intake.poll schedule's look at the source, then the jobs it queued (text, rules).
    await pollSource(t.app.deps, (await intakeRepo.findSource(t.db, sourceId))!);
    await runJobs();

    const arrivals = await call({ method: 'GET', url: `/api/intake/arrivals?source_id=${sourceId}` });
    expect(arrivals.statusCode).toBe(200);
    const [arrival] = arrivals.json().data.items;
    expect(arrival).toMatchObject({
      status: 'taken',
      file_name: 'invoice-2026-0042.pdf',
      sender: 'Acme Billing <billing@acme.test>',
      subject: 'Invoice 2026-0042',
      source: { id: sourceId, name: 'Accounts inbox', kind: 'imap' },
      rule: { name: 'Acme invoices' },
      ruled: true,
    });
    const file = await t.db.file.findUniqueOrThrow({ where: { id: arrival.file.id } });
    expect(file.categoryId).toBe(invoices.id);

    const found = await call({ method: 'GET', url: '/api/all-search-files?search=quokkafjord' });
    expect(found.statusCode).toBe(200);
    expect(found.json().data.items.map((f: { id: number }) => f.id)).toEqual([file.id]);

    const taken = await t.db.auditEvent.findFirstOrThrow({
      where: { action: 'intake.arrival_taken', targetId: String(file.id) },
    });
    expect(taken.details).toMatchObject({
      source_id: sourceId,
      source_name: 'Accounts inbox',
      source_kind: 'imap',
    });
    expect(await t.db.auditEvent.count({ where: { action: 'intake.arrival_filed' } })).toBeGreaterThan(0);

    // The message went to Filed; the source shows it was read without trouble.
    expect(mail.flags('INBOX', 'accounts')).toEqual([]);
    expect(mail.flags('Filed', 'accounts')).toHaveLength(1);
    const listed = await call({ method: 'GET', url: '/api/intake/sources' });
    const shown = listed.json().data.items.find((s: { id: number }) => s.id === sourceId);
    expect(shown).toMatchObject({ state: 'idle', last_error: null, taken_count: 1, failed_count: 0 });
    expect(JSON.stringify(shown)).not.toMatch(/accounts-Pass-1|imap_cursor|password_encrypted/);
  });

  it('takes a failed part again when asked (POST /api/intake/arrivals/{id}/retry)', async () => {
    const source = (await t.db.intakeSource.findFirstOrThrow({ where: { name: 'Accounts inbox' } })).id;
    await mail.deliver(
      composeMessage({
        from: 'Acme Billing <billing@acme.test>',
        subject: 'Credit note',
        parts: [{ filename: 'credit-note.pdf', contentType: 'application/pdf', content: '' }],
      }),
      { user: 'accounts' },
    );
    // The next beat would wait for the interval: the source is woken as a watcher would.
    await t.db
      .$executeRaw`UPDATE intake_sources SET settings = settings - 'imap_checked' WHERE id = ${source}`;
    await pollSource(t.app.deps, (await intakeRepo.findSource(t.db, source))!);
    const failed = await t.db.intakeArrival.findFirstOrThrow({
      where: { sourceId: source, status: 'failed' },
    });
    expect(failed).toMatchObject({ fileName: 'credit-note.pdf', reason: 'The file is empty' });
    const retried = await call({ method: 'POST', url: `/api/intake/arrivals/${failed.id}/retry` });
    expect(retried.statusCode, retried.body).toBe(200);
    expect(await t.db.intakeArrival.count({ where: { id: failed.id } })).toBe(0);
    // The queued retry makes the next beat look at once, in Filed where the message went.
    await pollSource(t.app.deps, (await intakeRepo.findSource(t.db, source))!);
    const again = await t.db.intakeArrival.findMany({
      where: { sourceId: source, externalKey: failed.externalKey },
    });
    expect(again).toHaveLength(1);
    expect(again[0]).toMatchObject({ status: 'failed', reason: 'The file is empty' });
    expect(
      (
        (await t.db.intakeSource.findUniqueOrThrow({ where: { id: source } })).settings as {
          imap_retries: unknown[];
        }
      ).imap_retries,
    ).toEqual([]);
  });

  it('records a message without attachment once, as failed, and takes it as .eml when retried', async () => {
    const source = (await t.db.intakeSource.findFirstOrThrow({ where: { name: 'Accounts inbox' } })).id;
    const look = async () => {
      // The next beat would wait for the interval: the source is woken as a watcher would.
      await t.db
        .$executeRaw`UPDATE intake_sources SET settings = settings - 'imap_checked' WHERE id = ${source}`;
      await pollSource(t.app.deps, (await intakeRepo.findSource(t.db, source))!);
    };
    const failedBefore = (await t.db.intakeSource.findUniqueOrThrow({ where: { id: source } })).failedCount;
    await mail.deliver(
      composeMessage({
        from: 'Acme Billing <billing@acme.test>',
        subject: 'Meeting notes',
        text: 'See you on Monday.',
      }),
      { user: 'accounts' },
    );
    await look();
    const rows = () =>
      t.db.intakeArrival.findMany({ where: { sourceId: source, fileName: 'Meeting notes.eml' } });
    const [row, ...more] = await rows();
    expect(more).toEqual([]);
    expect(row).toMatchObject({
      status: 'failed',
      reason: NO_ATTACHMENT,
      fileId: null,
      sender: 'Acme Billing <billing@acme.test>',
      subject: 'Meeting notes',
    });
    expect(row!.externalKey).toMatch(/^\d+:\d+:eml$/);
    const shown = (
      await call({ method: 'GET', url: `/api/intake/arrivals?source_id=${source}&status=failed` })
    )
      .json()
      .data.items.find((a: { id: number }) => a.id === row!.id);
    expect(shown).toMatchObject({ status: 'failed', file: null, reason: NO_ATTACHMENT });
    expect(
      await t.db.auditEvent.count({
        where: { action: 'intake.arrival_failed', targetId: String(row!.id) },
      }),
    ).toBe(1);
    expect((await t.db.intakeSource.findUniqueOrThrow({ where: { id: source } })).failedCount).toBe(
      failedBefore + 1,
    );
    // Finished like any message (moved to Filed, seen), and never recorded twice: the cursor
    // lost, the mailbox is read again from the start.
    expect(mail.flags('INBOX', 'accounts')).toEqual([]);
    await t.db
      .$executeRaw`UPDATE intake_sources SET settings = settings - 'imap_cursor' WHERE id = ${source}`;
    await look();
    expect(await rows()).toHaveLength(1);

    // Retry: the message itself is taken, as an .eml file, under the same key.
    const retried = await call({ method: 'POST', url: `/api/intake/arrivals/${row!.id}/retry` });
    expect(retried.statusCode, retried.body).toBe(200);
    await look();
    const [again, ...twice] = await rows();
    expect(twice).toEqual([]);
    expect(again).toMatchObject({ status: 'taken', externalKey: row!.externalKey });
    const file = await t.db.file.findUniqueOrThrow({
      where: { id: again!.fileId! },
      include: { currentVersion: true },
    });
    expect(file.name).toBe('Meeting notes.eml');
    expect(Number(file.currentVersion?.size)).toBeGreaterThan(0);
  });

  it('shows why an inbox cannot be read on the source', async () => {
    const created = await call({
      method: 'POST',
      url: '/api/intake/sources',
      payload: {
        kind: 'imap',
        name: 'Wrong password',
        category_id: inbox.id,
        owner_id: adminId,
        settings: inboxSettings({ user: 'other', password: 'not-it' }),
      },
    });
    const id = created.json().data.id as number;
    await pollSource(t.app.deps, (await intakeRepo.findSource(t.db, id))!);
    const listed = await call({ method: 'GET', url: '/api/intake/sources' });
    expect(listed.json().data.items.find((s: { id: number }) => s.id === id)).toMatchObject({
      state: 'error',
      last_error: 'The IMAP server refused the user name or password (AUTHENTICATIONFAILED)',
    });
    await call({ method: 'DELETE', url: `/api/intake/sources/${id}` });
  });
});

describe('POST /api/intake/sources/test-inbox', () => {
  it('signs in and opens the mailbox, with the typed password or the stored one for its own server only', async () => {
    const ok = await call({
      method: 'POST',
      url: '/api/intake/sources/test-inbox',
      payload: { settings: inboxSettings({ user: 'other', password: 'other-Pass-1' }) },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toEqual({ mailbox: 'INBOX', messages: 0, idle: true });
    expect(await t.db.auditEvent.count({ where: { action: 'intake.inbox_tested' } })).toBe(1);

    const bad = await call({
      method: 'POST',
      url: '/api/intake/sources/test-inbox',
      payload: { settings: inboxSettings({ password: 'wrong' }) },
    });
    expect(bad.statusCode).toBe(502);
    expect(bad.json()).toMatchObject({
      code: 'intake.inbox_test_failed',
      message:
        'The inbox could not be read: The IMAP server refused the user name or password (AUTHENTICATIONFAILED)',
    });
    expect(await t.db.auditEvent.count({ where: { action: 'intake.inbox_test_failed' } })).toBe(1);

    const source = await t.db.intakeSource.findFirstOrThrow({ where: { name: 'Accounts inbox' } });
    const { password: _typed, ...withoutPassword } = inboxSettings();
    const stored = await call({
      method: 'POST',
      url: '/api/intake/sources/test-inbox',
      payload: { source_id: source.id, settings: withoutPassword },
    });
    expect(stored.statusCode, stored.body).toBe(200);
    // Another user on the same server: the stored password is not sent there.
    const elsewhere = await call({
      method: 'POST',
      url: '/api/intake/sources/test-inbox',
      payload: { source_id: source.id, settings: { ...withoutPassword, user: 'other' } },
    });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json().errors[0].path).toBe('body.settings.password');
  });

  it('is for File Control writers', async () => {
    const { token } = await person(t, { accessType: 'General staff' });
    const res = await call(
      { method: 'POST', url: '/api/intake/sources/test-inbox', payload: { settings: inboxSettings() } },
      token,
    );
    expect(res.statusCode).toBe(403);
    expect(
      (await call({ method: 'POST', url: '/api/intake/sources/test-inbox', payload: {} }, null)).statusCode,
    ).toBe(401);
  });
});

describe('an inbox whose certificate the company signs itself', () => {
  let signed: TestMailbox;
  beforeAll(async () => {
    signed = await startTestMailbox({ accounts: [{ user: 'accounts', password: 'accounts-Pass-1' }] });
  });
  afterAll(() => signed?.stop());

  it('is refused until its CA certificate is given, which is kept with the source and shown back', async () => {
    const settings = {
      host: signed.host,
      port: signed.tlsPort,
      tls: true,
      user: 'accounts',
      password: 'accounts-Pass-1',
    };
    const test = (s: Record<string, unknown>) =>
      call({ method: 'POST', url: '/api/intake/sources/test-inbox', payload: { settings: s } });
    expect((await test(settings)).statusCode).toBe(502);
    const trusted = await test({ ...settings, ca_certificate: signed.caPem });
    expect(trusted.statusCode, trusted.body).toBe(200);

    const add = (ca: string) =>
      call({
        method: 'POST',
        url: '/api/intake/sources',
        payload: {
          kind: 'imap',
          name: 'Signed inbox',
          category_id: inbox.id,
          owner_id: adminId,
          settings: { ...settings, ca_certificate: ca },
        },
      });
    const bad = await add('not a certificate');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].path).toBe('body.settings.ca_certificate');
    expect(await t.db.intakeSource.count({ where: { name: 'Signed inbox' } })).toBe(0);
    const created = await add(signed.caPem);
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().data.settings.ca_certificate).toBe(signed.caPem.trim());
    // The poll signs in with it: the source's first look has no error.
    const row = await intakeRepo.findSource(t.db, created.json().data.id);
    if (!row) throw new Error('no source');
    await pollSource(t.app.deps, row);
    expect((await t.db.intakeSource.findUniqueOrThrow({ where: { id: row.id } })).lastError).toBeNull();
  });
});

describe('hosts on this machine or a private network', () => {
  let strict: TestContext;
  beforeAll(async () => {
    strict = await createTestApp();
  }, 60_000);
  afterAll(() => strict?.close());

  it('are refused for a source and a test unless IMAP_ALLOW_PRIVATE_HOSTS, nothing stored', async () => {
    const {
      users: { admin: user },
      categories: { category },
    } = await seed(strict, {
      users: { admin: { accessType: 'COMPANY ADMIN' } },
      categories: { category: { name: 'Inbox' } },
    });
    for (const host of ['127.0.0.1', 'localhost', '10.1.2.3']) {
      const res = await callAs(strict, user.token, {
        method: 'POST',
        url: '/api/intake/sources',
        payload: {
          kind: 'imap',
          name: `Private ${host}`,
          category_id: category.id,
          owner_id: user.id,
          settings: inboxSettings({ host }),
        },
      });
      expect(`${host} ${res.statusCode}`).toBe(`${host} 400`);
      expect(res.json().errors[0]).toMatchObject({
        path: 'body.settings.host',
        message: expect.stringMatching(/private network.*IMAP_ALLOW_PRIVATE_HOSTS=true/),
      });
      const test = await callAs(strict, user.token, {
        method: 'POST',
        url: '/api/intake/sources/test-inbox',
        payload: { settings: inboxSettings({ host }) },
      });
      expect(test.statusCode).toBe(400);
    }
    expect(await strict.db.intakeSource.count()).toBe(0);
  });
});
