import { createServer } from 'node:net';
import { createDb, type Db } from '@quire/db';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectAccess, readCase, SETTINGS_CALLERS, writeCase } from '../../../test/access.js';
import type { TestContext } from '../../../test/app.js';
import { errorPaths } from '../../../test/errors.js';
import { bearer } from '../../../test/factories.js';
import { adminApp, seededApp } from '../../../test/seed.js';
import { startSmtpServer, type TestSmtpServer } from '../../../test/smtp.js';
import { loadConfig } from '../../config.js';
import type { Deps } from '../../lib/deps.js';
import { BACKOFF_BASE_MS } from '../../lib/jobs/definition.js';
import { createJobRunner, STALE_AFTER_MS, STALE_MESSAGE } from '../../lib/jobs/runner.js';
import { decryptSecret, loadSecretKey } from '../../lib/secrets.js';
import { mailSendJob, NOT_CONFIGURED_MESSAGE } from './email.jobs.js';
import { enqueueMail, mailJobKey } from './email.queue.js';
import { TEST_SUBJECT } from './email.service.js';

const APP_SECRET = 'email-tests-secret-0123456789';
const SMTP_USER = 'mailer';
const SMTP_PASSWORD = 'Sm7p-Pa55word!';

let t: TestContext;
let smtp: TestSmtpServer;
let admin: string;
let userAdmin: string;
let auditor: string;
const secretKey = loadSecretKey(APP_SECRET, '/nonexistent');

beforeAll(async () => {
  // The background worker is off here (QUIRE_ROLE=api): tests run passes themselves (pass()).
  const world = await seededApp(
    {
      users: {
        admin: { accessType: 'COMPANY ADMIN' },
        userAdmin: { accessType: 'User Administration Admin' },
        auditor: { accessType: 'Auditor' },
      },
    },
    { APP_SECRET, SMTP_ALLOW_PRIVATE_HOSTS: 'true' },
  );
  t = world.t;
  admin = world.users.admin.token;
  userAdmin = world.users.userAdmin.token;
  auditor = world.users.auditor.token;
  smtp = await startSmtpServer({ username: SMTP_USER, password: SMTP_PASSWORD });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

/** Deps for running the worker directly, with a clock of the test's choosing. */
function workerDeps(now: () => Date = () => new Date(), db: Db = t.db): Deps {
  return {
    db,
    config: loadConfig({ LOG_LEVEL: 'silent', APP_SECRET, SMTP_ALLOW_PRIVATE_HOSTS: 'true' }),
    log: t.app.log,
    now,
    blobs: undefined as never,
    secretKey,
    objectGuards: t.app.deps.objectGuards,
    background: t.app.background,
  };
}

/** One worker pass over the mail jobs: runs every due delivery to its end. */
function pass(now?: () => Date, db?: Db) {
  return createJobRunner(workerDeps(now, db), {
    definitions: [mailSendJob],
    pollMs: 60_000,
    listen: false,
  }).runDue();
}

const jobOf = (mailId: number) => t.db.job.findFirstOrThrow({ where: { key: mailJobKey(mailId) } });

const get = (url: string, token?: string) =>
  t.app.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });
const post = (url: string, payload: unknown, token?: string) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers: token ? bearer(token) : {} });

const goodSetup = () => ({
  host: smtp.host,
  port: smtp.port,
  security: 'none',
  username: SMTP_USER,
  password: SMTP_PASSWORD,
  from_address: 'noreply@quire.test',
  from_name: 'Quire Mail',
});

async function configure(overrides: Record<string, unknown> = {}) {
  const res = await post('/api/email/setup', { ...goodSetup(), ...overrides }, admin);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

/** A port nothing listens on. */
/**
 * Eight e-mail saves sent at once: the odd ones name `other-<i>` with a password of their own,
 * the even ones `keeper(i)`'s fields and no password (keep what is stored). All answer 200, and
 * a stored password is the one `given` (or sent) with the stored user; answers `given` and
 * the stored row.
 */
async function savesAtOnce(given: Map<string, string>, keeper: (i: number) => { username?: string }) {
  const answers = await Promise.all(
    [1, 2, 3, 4, 5, 6, 7, 8].map((i) => {
      if (i % 2 === 0)
        return post('/api/email/setup', { ...goodSetup(), ...keeper(i), password: undefined }, admin);
      given.set(`other-${i}`, `password-${i}`);
      return post(
        '/api/email/setup',
        { ...goodSetup(), username: `other-${i}`, password: `password-${i}` },
        admin,
      );
    }),
  );
  expect(answers.map((r) => r.statusCode)).toEqual(answers.map(() => 200));
  const row = await t.db.emailSettings.findUniqueOrThrow({ where: { id: 1 } });
  // None is right too: a save naming another server than the one before it drops the password.
  if (row.passwordEncrypted)
    expect(decryptSecret(secretKey, row.passwordEncrypted), `user ${row.username}`).toBe(
      given.get(row.username ?? ''),
    );
  return { given, row };
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

let seq = 0;
async function enqueue(subject = `Queued ${++seq}`, to = `someone${seq}@example.test`, maxAttempts?: number) {
  const job = await t.db.$transaction((tx) =>
    enqueueMail(tx, { kind: 'notification', to, subject, text: `Body of ${subject}`, maxAttempts }),
  );
  return { id: job.id, subject, to };
}

describe('before e-mail is configured', () => {
  it('GET /api/email_setup answers null', async () => {
    const res = await get('/api/email_setup', auditor);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toBeNull();
  });

  it('POST /api/email/test answers 409 and records nothing', async () => {
    const jobs = await t.db.mailJob.count();
    const res = await post('/api/email/test', { to: 'ann@example.test' }, admin);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('E-mail is not configured. Save the SMTP settings first.');
    expect(await t.db.mailJob.count()).toBe(jobs);
  });

  it('the worker leaves queued mail queued, says why, and spends no attempt', async () => {
    const job = await enqueue();
    let clock = Date.now() + 1000;
    for (let i = 0; i < 3; i++) {
      expect((await pass(() => new Date(clock))).deferred).toBe(1);
      clock += 61_000;
    }
    const row = await t.db.mailJob.findUniqueOrThrow({ where: { id: job.id } });
    expect(row).toMatchObject({ status: 'queued', attempts: 0, lastError: NOT_CONFIGURED_MESSAGE });
    expect(await jobOf(job.id)).toMatchObject({
      status: 'queued',
      attempts: 0,
      lastError: NOT_CONFIGURED_MESSAGE,
    });
    await t.db.mailJob.deleteMany();
    await t.db.job.deleteMany();
  });

  it('sends the waiting mail as soon as the settings are saved', async () => {
    const job = await enqueue('Waited for settings');
    expect((await pass()).deferred).toBe(1);
    // Not due again for a minute; saving the settings makes it due now.
    expect((await pass()).deferred).toBe(0);
    await configure();
    expect((await pass()).done).toBe(1);
    await smtp.waitForMessage((m) => m.subject === 'Waited for settings');
    expect(await t.db.mailJob.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({
      status: 'sent',
      attempts: 1,
      lastError: null,
    });
    await t.db.emailSettings.deleteMany();
    await t.db.mailJob.deleteMany();
    await t.db.job.deleteMany();
  });
});

describe('POST /api/email/setup', () => {
  it('saves the settings, stores the password encrypted and never returns it', async () => {
    const data = await configure();
    expect(data).toMatchObject({
      host: smtp.host,
      port: smtp.port,
      security: 'none',
      username: SMTP_USER,
      from_address: 'noreply@quire.test',
      from_name: 'Quire Mail',
      has_password: true,
    });
    expect(JSON.stringify(data)).not.toContain(SMTP_PASSWORD);
    expect(data).not.toHaveProperty('password');

    const row = await t.db.emailSettings.findUniqueOrThrow({ where: { id: 1 } });
    expect(row.passwordEncrypted).toBeTruthy();
    expect(row.passwordEncrypted).not.toContain(SMTP_PASSWORD);
    expect(decryptSecret(secretKey, row.passwordEncrypted as string)).toBe(SMTP_PASSWORD);

    const read = await get('/api/email_setup', auditor);
    expect(read.statusCode).toBe(200);
    expect(read.json().data).toEqual(data);
    expect(read.body).not.toContain(SMTP_PASSWORD);

    const event = await t.db.auditEvent.findFirst({
      where: { action: 'email.settings_saved' },
      orderBy: { id: 'desc' },
    });
    expect(event?.details).toMatchObject({ host: smtp.host, password: 'changed' });
    expect(JSON.stringify([event?.message, event?.details])).not.toContain(SMTP_PASSWORD);
  });

  it('keeps the stored password when none is sent, and clears it on an empty one', async () => {
    await configure();
    const before = await t.db.emailSettings.findUniqueOrThrow({ where: { id: 1 } });
    // JSON drops an undefined field: the password is not sent.
    const kept = await configure({ from_name: 'Renamed', password: undefined });
    expect(kept).toMatchObject({ has_password: true, from_name: 'Renamed' });
    const after = await t.db.emailSettings.findUniqueOrThrow({ where: { id: 1 } });
    expect(after.passwordEncrypted).toBe(before.passwordEncrypted);

    const cleared = await configure({ password: '' });
    expect(cleared.has_password).toBe(false);
    expect((await t.db.emailSettings.findUniqueOrThrow({ where: { id: 1 } })).passwordEncrypted).toBeNull();
    await configure();
  });

  it('drops the stored password when the server changes, unless it is given again: it never goes elsewhere', async () => {
    const other = await startSmtpServer();
    try {
      for (const change of [
        { host: 'localhost', port: other.port },
        { port: other.port },
        { security: 'starttls' },
        { username: 'someone-else' },
      ]) {
        await configure();
        const res = await post('/api/email/setup', { ...goodSetup(), password: undefined, ...change }, admin);
        expect(res.statusCode, JSON.stringify(change)).toBe(200);
        expect(res.json().data.has_password, JSON.stringify(change)).toBe(false);
        expect(
          (await t.db.emailSettings.findUniqueOrThrow({ where: { id: 1 } })).passwordEncrypted,
        ).toBeNull();
        const event = await t.db.auditEvent.findFirstOrThrow({
          where: { action: 'email.settings_saved' },
          orderBy: { id: 'desc' },
        });
        expect(event.details).toMatchObject({ password: 'dropped: the server changed' });
      }
      // The Settings writer's own server, named by its host: the test mail carries no password.
      await configure();
      await post(
        '/api/email/setup',
        { ...goodSetup(), password: undefined, host: 'localhost', port: other.port },
        admin,
      );
      await post('/api/email/test', { to: 'probe@example.test' }, admin);
      const seen = other.messages.find((m) => m.to.includes('probe@example.test'));
      expect(seen?.authPassword ?? null).not.toBe(SMTP_PASSWORD);
      // Given again with the change, it is kept.
      const given = await configure({ port: other.port, password: 'For-The-Other-Server-1' });
      expect(given.has_password).toBe(true);
    } finally {
      await other.close();
      await configure();
    }
  });

  it('refuses a host that is not a host name or address', async () => {
    for (const host of ['not a host!!', 'smtp..example.com', 'http://smtp.example.com']) {
      const res = await post('/api/email/setup', { ...goodSetup(), host }, admin);
      expect(res.statusCode, host).toBe(400);
      expect(res.json().errors).toEqual([
        { path: 'body.host', message: expect.stringContaining('host name') },
      ]);
    }
    for (const host of ['smtp.example.com', '127.0.0.1', 'mail-1.corp', '[::1]', '::1']) {
      expect((await post('/api/email/setup', { ...goodSetup(), host }, admin)).statusCode, host).toBe(200);
    }
    await configure();
  });

  it('answers bad input with 400 naming each field, and saves nothing', async () => {
    await configure();
    const before = await t.db.emailSettings.findUniqueOrThrow({ where: { id: 1 } });
    const audits = await t.db.auditEvent.count();
    const res = await post(
      '/api/email/setup',
      { host: '', port: 70000, security: 'ssl', from_address: 'not-an-address' },
      admin,
    );
    expect(res.statusCode).toBe(400);
    expect(errorPaths(res).sort()).toEqual(['body.from_address', 'body.host', 'body.port', 'body.security']);
    expect(await t.db.emailSettings.findUniqueOrThrow({ where: { id: 1 } })).toEqual(before);
    expect(await t.db.auditEvent.count()).toBe(audits);
  });

  it('takes saves sent at once one after the other: a kept password stays with the server it was given for', async () => {
    await configure();
    // Saves that keep the password (same server) race saves naming another user with its own.
    await savesAtOnce(new Map([[SMTP_USER, SMTP_PASSWORD]]), () => ({}));
    await configure();
  });

  it('takes first saves sent at once one after the other: one row, each password with its own user', async () => {
    // Saves at once first (of a row that is there): the database connections are open when
    // the first saves race, else they would wait for them to open, one after the other.
    await Promise.all([1, 2, 3, 4, 5, 6, 7, 8].map(() => configure()));
    await t.db.emailSettings.deleteMany();
    const since = (await t.db.auditEvent.aggregate({ _max: { id: true } }))._max.id ?? 0;
    // First saves naming a user with a password of their own race first saves naming another
    // user without one (keep what is stored: nothing, or what the server before it was given).
    const { given, row } = await savesAtOnce(new Map(), (i) => ({ username: `keeper-${i}` }));
    expect(await t.db.emailSettings.count()).toBe(1);
    // The trail in turn: each save decided on the password from what the one before it left.
    const events = await t.db.auditEvent.findMany({
      where: { action: 'email.settings_saved', id: { gt: since } },
      orderBy: { id: 'asc' },
    });
    expect(events).toHaveLength(8);
    const stored = { username: null as string | null, password: false };
    for (const e of events) {
      const { username, password } = e.details as { username: string; password: string };
      const expected: string = given.has(username)
        ? 'changed'
        : stored.password && stored.username !== username
          ? 'dropped: the server changed'
          : 'kept';
      expect(password, `audit event ${e.id} (${username})`).toBe(expected);
      stored.username = username;
      stored.password = expected === 'changed' || (expected === 'kept' && stored.password);
    }
    expect({ username: row.username, password: Boolean(row.passwordEncrypted) }).toEqual(stored);
    await configure();
  });
});

describe('POST /api/email/test', () => {
  beforeEach(() => configure());

  it('sends a real message now and records it as sent', async () => {
    const res = await post('/api/email/test', { to: 'Tester@Example.test' }, userAdmin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Test e-mail sent to Tester@Example.test');
    const mail = await smtp.waitForMessage((m) => m.to.includes('tester@example.test'));
    expect(mail.subject).toBe(TEST_SUBJECT);
    expect(mail.from).toBe('noreply@quire.test');
    expect(mail.fromHeader).toContain('Quire Mail');
    expect(mail.authUser).toBe(SMTP_USER);

    const job = await t.db.mailJob.findUniqueOrThrow({ where: { id: res.json().data.job_id } });
    expect(job).toMatchObject({ kind: 'test', status: 'sent', to: 'Tester@Example.test', attempts: 1 });
    expect(job.sentAt).toBeInstanceOf(Date);
    expect(
      await t.db.auditEvent.count({ where: { action: 'email.test_sent', targetId: String(job.id) } }),
    ).toBe(1);
  });

  it('answers 502 with the SMTP error when the server cannot be reached, and records a failed job', async () => {
    await configure({ port: await closedPort() });
    const res = await post('/api/email/test', { to: 'nobody@example.test' }, admin);
    expect(res.statusCode).toBe(502);
    expect(res.json().message).toMatch(/^The test e-mail could not be sent: .*ECONNREFUSED/);
    const job = await t.db.mailJob.findFirstOrThrow({ where: { kind: 'test', to: 'nobody@example.test' } });
    expect(job.status).toBe('failed');
    expect(job.lastError).toContain('ECONNREFUSED');
    expect(
      await t.db.auditEvent.count({ where: { action: 'email.test_failed', targetId: String(job.id) } }),
    ).toBe(1);
  });

  it("stores and shows what failed in Quire's words, never the remote server's text", async () => {
    // Not an SMTP server: a service that answers with a banner of its own.
    const banner = createServer((socket) => {
      socket.end('554 SECRET-BANNER internal-db-7 v9.1 ready\r\n');
    });
    await new Promise<void>((r) => banner.listen(0, '127.0.0.1', () => r()));
    const { port } = banner.address() as { port: number };
    try {
      await configure({ port });
      const res = await post('/api/email/test', { to: 'banner@example.test' }, admin);
      expect(res.statusCode).toBe(502);
      expect(res.json().message).toMatch(/^The test e-mail could not be sent: The /);
      const job = await t.db.mailJob.findFirstOrThrow({ where: { to: 'banner@example.test' } });
      const event = await t.db.auditEvent.findFirstOrThrow({
        where: { targetId: String(job.id), action: 'email.test_failed' },
      });
      for (const text of [res.body, job.lastError, event.message, JSON.stringify(event.details)]) {
        expect(text).not.toContain('SECRET-BANNER');
        expect(text).not.toContain('internal-db-7');
      }
      const list = await get('/api/email/notification', auditor);
      expect(list.body).not.toContain('SECRET-BANNER');
    } finally {
      await new Promise<void>((r) => banner.close(() => r()));
      await configure();
    }
  });

  it('answers 502 when the SMTP server refuses the login', async () => {
    await configure({ password: 'wrong-password' });
    const res = await post('/api/email/test', { to: 'auth@example.test' }, admin);
    expect(res.statusCode).toBe(502);
    expect(res.json().message).toBe(
      'The test e-mail could not be sent: The SMTP server refused the user name or password (EAUTH, SMTP 535)',
    );
    expect(smtp.messages.some((m) => m.to.includes('auth@example.test'))).toBe(false);
  });

  it('answers a bad address with 400 and records nothing', async () => {
    const jobs = await t.db.mailJob.count();
    const res = await post('/api/email/test', { to: 'not an address' }, admin);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].path).toBe('body.to');
    expect(await t.db.mailJob.count()).toBe(jobs);
  });
});

describe('the mail worker', () => {
  beforeEach(async () => {
    await t.db.mailJob.deleteMany();
    await t.db.job.deleteMany();
    await configure();
  });

  it('delivers a queued job and marks it sent', async () => {
    const job = await enqueue('Your password reset', 'reset@example.test');
    const summary = await pass();
    expect(summary.done).toBe(1);
    const mail = await smtp.waitForMessage((m) => m.subject === 'Your password reset');
    expect(mail.to).toEqual(['reset@example.test']);
    expect(mail.text.trim()).toBe('Body of Your password reset');
    const row = await t.db.mailJob.findUniqueOrThrow({ where: { id: job.id } });
    expect(row).toMatchObject({ status: 'sent', attempts: 1, lastError: null, lockedAt: null });
    expect(row.sentAt).toBeInstanceOf(Date);
    expect(await jobOf(job.id)).toMatchObject({ status: 'done', attempts: 1 });
  });

  it('retries a failing delivery with back-off, then fails it after max attempts', async () => {
    await configure({ port: await closedPort() });
    const job = await enqueue(undefined, undefined, 3);
    let clock = new Date(Date.now() + 1000);
    const run = () => pass(() => clock);
    const row = () => t.db.mailJob.findUniqueOrThrow({ where: { id: job.id } });

    expect((await run()).retried).toBe(1);
    let r = await row();
    expect(r).toMatchObject({ status: 'queued', attempts: 1 });
    expect(r.lastError).toContain('ECONNREFUSED');
    expect(r.runAt.getTime()).toBe(clock.getTime() + BACKOFF_BASE_MS);

    // Not due yet: nothing happens.
    clock = new Date(clock.getTime() + BACKOFF_BASE_MS - 1000);
    expect((await run()).retried).toBe(0);
    expect((await row()).attempts).toBe(1);

    clock = new Date(clock.getTime() + 1000);
    expect((await run()).retried).toBe(1);
    r = await row();
    expect(r).toMatchObject({ status: 'queued', attempts: 2 });
    expect(r.runAt.getTime()).toBe(clock.getTime() + 2 * BACKOFF_BASE_MS);

    clock = new Date(clock.getTime() + 2 * BACKOFF_BASE_MS);
    expect((await run()).failed).toBe(1);
    r = await row();
    expect(r).toMatchObject({ status: 'failed', attempts: 3 });
    expect(r.lastError).toContain('ECONNREFUSED');
    expect(await jobOf(job.id)).toMatchObject({ status: 'failed', attempts: 3 });

    clock = new Date(clock.getTime() + 24 * 3_600_000);
    await run();
    expect((await row()).attempts).toBe(3);
  });

  it('takes back a delivery whose worker died, and delivers it once; a live one is left alone', async () => {
    const stuck = await enqueue('Stuck since a crash');
    const busy = await enqueue('Being sent right now');
    const now = Date.now();
    // As a worker leaves them: the job running with the attempt counted, the message sending.
    const claimed = async (id: number, heartbeatAt: Date) => {
      await t.db.job.updateMany({
        where: { key: mailJobKey(id) },
        data: { status: 'running', attempts: 1, lockedBy: 'another-server:1', heartbeatAt },
      });
      await t.db.mailJob.update({ where: { id }, data: { status: 'sending', lockedAt: heartbeatAt } });
    };
    await claimed(stuck.id, new Date(now - STALE_AFTER_MS - 60_000));
    await claimed(busy.id, new Date(now - 60_000));

    const summary = await pass(() => new Date(now));
    expect(summary.recovered).toBe(1);
    expect(await t.db.mailJob.findUniqueOrThrow({ where: { id: stuck.id } })).toMatchObject({
      status: 'queued',
      attempts: 1,
      lastError: STALE_MESSAGE,
    });
    // Retried after the back-off, like any failed attempt.
    expect((await pass(() => new Date(now + BACKOFF_BASE_MS))).done).toBe(1);
    await smtp.waitForMessage((m) => m.subject === 'Stuck since a crash');
    expect(smtp.messages.filter((m) => m.subject === 'Stuck since a crash')).toHaveLength(1);
    expect(await t.db.mailJob.findUniqueOrThrow({ where: { id: stuck.id } })).toMatchObject({
      status: 'sent',
      attempts: 2,
    });
    expect(await t.db.mailJob.findUniqueOrThrow({ where: { id: busy.id } })).toMatchObject({
      status: 'sending',
    });
    expect(smtp.messages.some((m) => m.subject === 'Being sent right now')).toBe(false);
  });

  it('does not send a message again when its job runs again after the message was sent', async () => {
    const job = await enqueue('Only once, even if the job reruns');
    expect((await pass()).done).toBe(1);
    // As if the worker died after sending and marking the message, before recording its job.
    await t.db.job.updateMany({ where: { key: mailJobKey(job.id) }, data: { status: 'queued' } });
    expect((await pass()).done).toBe(1);
    await smtp.waitForMessage((m) => m.subject === 'Only once, even if the job reruns');
    await new Promise((r) => setTimeout(r, 200));
    expect(smtp.messages.filter((m) => m.subject === 'Only once, even if the job reruns')).toHaveLength(1);
  });

  it('keeps no single-use link in a reset or verification mail once it is sent or has failed for good', async () => {
    const token = 'tok-4f9c2e7a1b';
    const link = (kind: string, subject: string, maxAttempts?: number) =>
      t.db.$transaction((tx) =>
        enqueueMail(tx, {
          kind,
          to: 'linked@example.test',
          subject,
          text: `Open https://quire.test/x?token=${token}`,
          html: `<a href="https://quire.test/x?token=${token}">open</a>`,
          maxAttempts,
        }),
      );
    const reset = await link('password_reset', 'Reset with a link');
    const verify = await link('email_verification', 'Verify with a link');
    const plain = await enqueue('An ordinary notification');
    expect((await pass()).done).toBe(3);
    expect((await smtp.waitForMessage((m) => m.subject === 'Reset with a link')).text).toContain(token);

    const removed = '[Removed after delivery: this message carried a single-use link.]';
    for (const id of [reset.id, verify.id]) {
      const row = await t.db.mailJob.findUniqueOrThrow({ where: { id } });
      expect(row).toMatchObject({ status: 'sent', text: removed, html: removed });
    }
    expect((await t.db.mailJob.findUniqueOrThrow({ where: { id: plain.id } })).text).toBe(
      'Body of An ordinary notification',
    );

    // Failing for good removes it too (a retry keeps it: it is still needed).
    await configure({ port: await closedPort() });
    const failing = await link('password_reset', 'Never delivered', 2);
    let clock = new Date(Date.now() + 1000);
    await pass(() => clock);
    expect((await t.db.mailJob.findUniqueOrThrow({ where: { id: failing.id } })).text).toContain(token);
    clock = new Date(clock.getTime() + 24 * 3_600_000);
    expect((await pass(() => clock)).failed).toBe(1);
    const failed = await t.db.mailJob.findUniqueOrThrow({ where: { id: failing.id } });
    expect(failed).toMatchObject({ status: 'failed', text: removed, html: removed });
  });

  it('two workers on the same database send each job once', async () => {
    const jobs = [];
    for (let i = 0; i < 25; i++) jobs.push(await enqueue(`Once only ${i}`));
    const dbA = createDb(t.databaseUrl, { poolSize: 3 });
    const dbB = createDb(t.databaseUrl, { poolSize: 3 });
    try {
      const [a, b] = await Promise.all([pass(undefined, dbA), pass(undefined, dbB)]);
      expect(a.done + b.done).toBe(25);
    } finally {
      await dbA.$disconnect();
      await dbB.$disconnect();
    }
    for (const job of jobs) {
      expect(smtp.messages.filter((m) => m.subject === job.subject)).toHaveLength(1);
    }
    expect(await t.db.mailJob.count({ where: { status: 'sent', id: { in: jobs.map((j) => j.id) } } })).toBe(
      25,
    );
  });

  it('runs in the background of a started app, and stops when the app closes', async () => {
    const {
      t: other,
      admin: { token: owner },
    } = await adminApp('COMPANY ADMIN', {
      APP_SECRET,
      QUIRE_ROLE: 'all',
      JOBS_POLL_MS: '60000',
      SMTP_ALLOW_PRIVATE_HOSTS: 'true',
    });
    try {
      const res = await other.app.inject({
        method: 'POST',
        url: '/api/email/setup',
        payload: goodSetup(),
        headers: bearer(owner),
      });
      expect(res.statusCode).toBe(200);
      // Saving the settings woke the worker once; let that pass end before the mail is queued.
      await new Promise((r) => setTimeout(r, 300));
      await other.db.$transaction((tx) =>
        enqueueMail(tx, {
          kind: 'notification',
          to: 'bg@example.test',
          subject: 'From the background',
          text: 'hi',
        }),
      );
      // The poll interval is a minute: the notification sent on commit wakes the worker.
      await smtp.waitForMessage((m) => m.subject === 'From the background', 5000);
    } finally {
      await other.close();
    }
  });
});

describe('GET /api/email/notification', () => {
  beforeAll(async () => {
    await t.db.mailJob.deleteMany();
    const base = Date.now() - 100_000;
    await t.db.mailJob.createMany({
      data: Array.from({ length: 25 }, (_, i) => ({
        kind: 'notification',
        to: `list${i}@example.test`,
        subject: `List ${i}`,
        text: 'x',
        status: i % 5 === 0 ? ('failed' as const) : ('sent' as const),
        createdAt: new Date(base + i * 1000),
      })),
    });
  });

  it('lists the queue newest first, 20 a page by default', async () => {
    const res = await get('/api/email/notification', auditor);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ page: 1, quantity: 20, total: 25, last_page: 2 });
    expect(data.items).toHaveLength(20);
    expect(data.items[0]).toMatchObject({
      subject: 'List 24',
      to: 'list24@example.test',
      kind: 'notification',
    });
    expect(Object.keys(data.items[0]).sort()).toEqual(
      [
        'attempts',
        'created_at',
        'id',
        'kind',
        'last_error',
        'max_attempts',
        'run_at',
        'sent_at',
        'status',
        'subject',
        'to',
      ].sort(),
    );
    expect(data.items[0]).not.toHaveProperty('text');

    const page2 = (await get('/api/email/notification?page=2', auditor)).json().data;
    expect(page2.items.map((j: { subject: string }) => j.subject)).toEqual([
      'List 4',
      'List 3',
      'List 2',
      'List 1',
      'List 0',
    ]);
  });

  it('filters by status and honours quantity', async () => {
    const data = (await get('/api/email/notification?status=failed&quantity=2', admin)).json().data;
    expect(data).toMatchObject({ total: 5, quantity: 2, last_page: 3 });
    expect(data.items.every((j: { status: string }) => j.status === 'failed')).toBe(true);
  });

  it('answers a bad query with 400', async () => {
    for (const q of ['quantity=0', 'page=0', 'status=lost']) {
      const res = await get(`/api/email/notification?${q}`, admin);
      expect(res.statusCode, q).toBe(400);
    }
  });
});

describe('POST /api/email/job/delete/{id}', () => {
  it('deletes a queued or failed job, and audits it', async () => {
    const job = await enqueue('To be deleted');
    const res = await post(`/api/email/job/delete/${job.id}`, undefined, admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(await t.db.mailJob.findUnique({ where: { id: job.id } })).toBeNull();
    // Its delivery is off the job queue too.
    expect(await t.db.job.count({ where: { key: mailJobKey(job.id) } })).toBe(0);
    expect(
      await t.db.auditEvent.count({ where: { action: 'email.job_deleted', targetId: String(job.id) } }),
    ).toBe(1);

    const failed = await enqueue('Failed one');
    await t.db.mailJob.update({ where: { id: failed.id }, data: { status: 'failed' } });
    expect((await post(`/api/email/job/delete/${failed.id}`, undefined, userAdmin)).statusCode).toBe(200);
  });

  it('refuses a job being sent (409), an unknown one (404) and a bad id (400)', async () => {
    const job = await enqueue('Sending now');
    await t.db.mailJob.update({ where: { id: job.id }, data: { status: 'sending', lockedAt: new Date() } });
    const busy = await post(`/api/email/job/delete/${job.id}`, undefined, admin);
    expect(busy.statusCode).toBe(409);
    expect(await t.db.mailJob.findUnique({ where: { id: job.id } })).not.toBeNull();
    expect((await post('/api/email/job/delete/999999', undefined, admin)).statusCode).toBe(404);
    expect((await post('/api/email/job/delete/abc', undefined, admin)).statusCode).toBe(400);
    await t.db.mailJob.delete({ where: { id: job.id } });
  });
});

describe('access', () => {
  const newJob = () =>
    t.db.mailJob.create({ data: { kind: 'test', to: 'x@example.test', subject: 'Queued', text: 'Queued' } });
  const cases = [
    readCase('/api/email_setup'),
    readCase('/api/email/notification'),
    writeCase('POST /api/email/setup', () => ({
      method: 'POST',
      url: '/api/email/setup',
      payload: goodSetup(),
    })),
    writeCase('POST /api/email/test', () => ({
      method: 'POST',
      url: '/api/email/test',
      payload: { to: 'x@example.test' },
    })),
    writeCase('POST /api/email/job/delete/{id}', async () => ({
      method: 'POST',
      url: `/api/email/job/delete/${(await newJob()).id}`,
    })),
  ];

  const snapshot = async () => ({
    jobs: await t.db.mailJob.count(),
    settings: await t.db.emailSettings.findUnique({ where: { id: 1 } }),
    changes: await t.db.auditEvent.count({ where: { type: 'email' } }),
  });

  it.each(SETTINGS_CALLERS)('as %s', async (...caller) => {
    await configure();
    await expectAccess(t, caller, cases, snapshot);
  });
});
