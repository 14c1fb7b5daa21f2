import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../../test/app.js';
import { type ChildServer, startChildServer } from '../../../../test/child-server.js';
import { textPdf } from '../../../../test/documents.js';
import {
  composeMessage,
  imapSourceRow,
  startTestMailbox,
  type TestMailbox,
} from '../../../../test/dovecot.js';
import { seed } from '../../../../test/seed.js';
import { until } from '../../../../test/until.js';
import * as intakeRepo from '../intake.repository.js';
import { pollImapSource } from './imap.service.js';

// kill -9 in the middle of a message: a server (its own process, QUIRE_ROLE=all, the
// intake.poll schedule) reading an inbox from a real dovecot is killed with SIGKILL while it
// takes the attachments of one message; another server then reads the inbox. Every part was
// taken exactly once (one arrival, one file, one audit event), and the message is marked.

const PARTS = 24;
const SECRET = 'imap-child-server-secret-0123456789';
let t: TestContext;
let mail: TestMailbox;
let child: ChildServer | null = null;

beforeAll(async () => {
  mail = await startTestMailbox({ tls: false, accounts: [{ user: 'scans', password: 'scans-Pass-1' }] });
  t = await createTestApp({ APP_SECRET: SECRET, IMAP_ALLOW_PRIVATE_HOSTS: 'true' });
}, 60_000);
afterAll(async () => {
  child?.proc.kill('SIGKILL');
  await t?.close();
  await mail?.stop();
});

describe('an inbox read by a server killed with SIGKILL mid-message', () => {
  it('takes every part exactly once across servers', { timeout: 300_000 }, async () => {
    const world = await seed(t, {
      users: { owner: { accessType: 'COMPANY ADMIN', signIn: false } },
      categories: { scans: { name: 'Mailed scans' } },
    });
    const ownerId = world.users.owner.id;
    const categoryId = world.categories.scans.id;
    const names = Array.from({ length: PARTS }, (_, i) => `scan-${String(i).padStart(3, '0')}.pdf`);
    await mail.deliver(
      composeMessage({
        from: 'copier@acme.test',
        subject: 'Scanned pages',
        parts: names.map((filename, i) => ({
          filename,
          contentType: 'application/pdf',
          content: Buffer.concat([textPdf([`Page ${i}`]), Buffer.alloc(200_000, 0x20)]),
        })),
      }),
    );
    const row = await t.db.intakeSource.create({
      data: imapSourceRow(mail, {
        user: 'scans',
        name: 'Copier inbox',
        categoryId,
        ownerId,
        secretKey: t.app.deps.secretKey,
      }),
    });
    const taken = () => t.db.intakeArrival.count({ where: { sourceId: row.id } });

    child = await startChildServer(t.databaseUrl, t.dataDir, {
      QUIRE_ROLE: 'all',
      APP_SECRET: SECRET,
      IMAP_ALLOW_PRIVATE_HOSTS: 'true',
      JOBS_POLL_MS: '200',
    });
    await until(async () => (await taken()) >= 3, 120_000, 'the child server to take three');
    child.proc.kill('SIGKILL');
    await new Promise((r) => child?.proc.once('exit', r));
    child = null;
    const atKill = await taken();
    expect(atKill).toBeLessThan(PARTS);
    // Killed before the message was finished: it is not marked.
    expect(mail.flags()).toEqual([[]]);

    // Another server reads the inbox.
    const source = await intakeRepo.findSource(t.db, row.id);
    if (!source) throw new Error('source gone');
    const result = await pollImapSource(t.app.deps, source);
    expect(result).toEqual({ taken: PARTS - atKill, failed: 0 });

    const arrivals = await t.db.intakeArrival.findMany({ where: { sourceId: row.id } });
    expect(arrivals.map((a) => a.fileName).sort()).toEqual(names);
    expect(new Set(arrivals.map((a) => a.externalKey)).size).toBe(PARTS);
    expect(arrivals.every((a) => a.status === 'taken' && a.fileId !== null)).toBe(true);
    const files = await t.db.file.findMany({ where: { categoryId }, select: { name: true } });
    expect(files.map((f) => f.name).sort()).toEqual(names);
    expect(await t.db.auditEvent.count({ where: { action: 'intake.arrival_taken' } })).toBe(PARTS);
    expect(mail.flags()[0]).toContain('S');
  });
});
