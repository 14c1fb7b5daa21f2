import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BACKOFF_BASE_MS, defineJob } from '../src/lib/jobs/definition.js';
import { enqueue } from '../src/lib/jobs/queue.js';
import { STALE_AFTER_MS, STALE_MESSAGE } from '../src/lib/jobs/runner.js';
import { mailSendJob } from '../src/modules/email/email.jobs.js';
import { enqueueMail, mailJobKey } from '../src/modules/email/email.queue.js';
import { createTestApp, type TestContext } from './app.js';
import { testRunner } from './jobs.js';
import { startSmtpServer, type TestSmtpServer } from './smtp.js';

// A worker process killed with SIGKILL in the middle of a job (no chance to clean up): the job
// is not lost. Once the dead worker's heartbeat is older than the stale limit, another worker
// takes the job back and runs it again; a mail goes out exactly once.

let t: TestContext;
let smtp: TestSmtpServer;
const children: ChildProcess[] = [];

beforeAll(async () => {
  t = await createTestApp();
  smtp = await startSmtpServer();
});
afterEach(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

interface Child {
  proc: ChildProcess;
  /** Resolves with the first stdout line matching `re` (already seen ones count). */
  line(re: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  kill(): Promise<void>;
}

function startChild(): Child {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'test/job-worker-child.ts'], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: { ...process.env, CHILD_DATABASE_URL: t.databaseUrl },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(proc);
  const lines: string[] = [];
  const waiters = new Set<() => void>();
  createInterface({ input: proc.stdout! }).on('line', (l) => {
    lines.push(l);
    for (const w of waiters) w();
  });
  return {
    proc,
    line: (re, timeoutMs = 30_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          for (const l of lines) {
            const m = l.match(re);
            if (m) {
              waiters.delete(check);
              clearTimeout(timer);
              resolve(m);
              return;
            }
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`child said no ${re} within ${timeoutMs} ms (said: ${lines.join(' | ')})`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    kill: () =>
      new Promise<void>((resolve) => {
        proc.once('exit', () => resolve());
        proc.kill('SIGKILL');
      }),
  };
}

describe('a worker killed mid-job', () => {
  it('the job is taken back after the stale limit and run again by another worker', async () => {
    const child = startChild();
    const [, workerId] = await child.line(/^ready (.+)$/);
    const id = await t.db.$transaction((tx) => enqueue(tx, 'test.hang', { n: 7 }));
    await child.line(new RegExp(`^started ${id} 1$`));
    await child.kill();

    const row = () => t.db.job.findUniqueOrThrow({ where: { id: id! } });
    expect(await row()).toMatchObject({ status: 'running', attempts: 1, lockedBy: workerId });

    const runs: Array<{ n: number; attempts: number }> = [];
    const definition = defineJob({
      kind: 'test.hang',
      payload: z.object({ n: z.number() }),
      async run(job) {
        runs.push({ n: job.payload.n, attempts: job.attempts });
      },
    });
    // Right away the dead worker's last heartbeat is fresh: it may only be slow.
    expect(await testRunner(t, [definition]).recoverStale()).toBe(0);

    let clock = Date.now() + STALE_AFTER_MS + 1000;
    const worker = () => testRunner(t, [definition], { now: () => new Date(clock) });
    expect((await worker().runDue()).recovered).toBe(1);
    expect(await row()).toMatchObject({
      status: 'queued',
      attempts: 1,
      lastError: STALE_MESSAGE,
      lockedBy: null,
    });
    clock += BACKOFF_BASE_MS;
    expect((await worker().runDue()).done).toBe(1);
    expect(runs).toEqual([{ n: 7, attempts: 2 }]);
    expect(await row()).toMatchObject({ status: 'done', attempts: 2 });
  });

  it('a mail whose sender was killed while connecting is sent exactly once after the restart', async () => {
    await t.db.emailSettings.create({
      data: { id: 1, host: smtp.host, port: smtp.port, security: 'none', fromAddress: 'noreply@quire.test' },
    });
    const child = startChild();
    await child.line(/^ready /);

    // The SMTP server holds the child's connection before greeting it: the mail job is in
    // its handler, mid-delivery, when the process dies.
    let connected: () => void = () => {};
    const reached = new Promise<void>((r) => {
      connected = r;
    });
    let release: () => void = () => {};
    smtp.beforeGreeting = () => {
      connected();
      return new Promise<void>((r) => {
        release = r;
      });
    };
    const mail = await t.db.$transaction((tx) =>
      enqueueMail(tx, {
        kind: 'password_reset',
        to: 'crash@example.test',
        subject: 'Sent once despite a crash',
        text: 'Open https://quire.test/reset?token=crash-token-1',
      }),
    );
    await reached;
    await child.kill();
    smtp.beforeGreeting = null;
    release();

    const mailRow = () => t.db.mailJob.findUniqueOrThrow({ where: { id: mail.id } });
    expect(await mailRow()).toMatchObject({ status: 'sending' });
    expect(await t.db.job.findFirstOrThrow({ where: { key: mailJobKey(mail.id) } })).toMatchObject({
      status: 'running',
      attempts: 1,
    });
    expect(smtp.messages).toHaveLength(0);

    let clock = Date.now() + STALE_AFTER_MS + 1000;
    const worker = () => testRunner(t, [mailSendJob], { now: () => new Date(clock) });
    expect((await worker().runDue()).recovered).toBe(1);
    expect(await mailRow()).toMatchObject({ status: 'queued', attempts: 1, lastError: STALE_MESSAGE });
    clock += BACKOFF_BASE_MS;
    expect((await worker().runDue()).done).toBe(1);

    const received = await smtp.waitForMessage((m) => m.subject === 'Sent once despite a crash');
    expect(received.text).toContain('crash-token-1');
    expect(await mailRow()).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
    expect((await mailRow()).text).not.toContain('crash-token-1');
    // Nothing else is due: it is not sent again.
    clock += 24 * 3_600_000;
    expect((await worker().runDue()).done).toBe(0);
    await new Promise((r) => setTimeout(r, 200));
    expect(smtp.messages.filter((m) => m.subject === 'Sent once despite a crash')).toHaveLength(1);
  });
});
