import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestContext } from '../../../../test/app.js';
import { textPdf } from '../../../../test/documents.js';
import {
  composeMessage,
  imapSourceRow,
  startTestMailbox,
  type TestMailbox,
} from '../../../../test/dovecot.js';
import { seededApp } from '../../../../test/seed.js';
import * as intakeRepo from '../intake.repository.js';
import { closeImap, openImap } from './imap.connection.js';
import { IMAP_POLL_MS, pollImapSource, retryImapPart, testImapConnection } from './imap.service.js';
import { createImapWatchers } from './imap.watch.js';

// An e-mail inbox source polled through takeArrival against a real dovecot (test/dovecot.ts):
// what arrives is uploaded, checked and audited like any upload, hostile parts fail with their
// reason, and a poll cut off by the mail server dying takes nothing twice.

let t: TestContext;
let mail: TestMailbox;
let clock = new Date('2026-11-26T10:00:00Z');
const tick = (ms = IMAP_POLL_MS) => {
  clock = new Date(clock.getTime() + ms);
};
let categoryId: number;
let ownerId: number;

beforeAll(async () => {
  mail = await startTestMailbox({
    tls: false,
    accounts: ['invoices', 'crash', 'moved', 'closed', 'watched'].map((user) => ({
      user,
      password: `${user}-Pass-1`,
    })),
  });
  const world = await seededApp(
    {
      users: { owner: { accessType: 'File Control Admin', signIn: false } },
      categories: { mailedIn: { name: 'Mailed in' } },
    },
    { IMAP_ALLOW_PRIVATE_HOSTS: 'true' },
    { now: () => clock },
  );
  t = world.t;
  ownerId = world.users.owner.id;
  categoryId = world.categories.mailedIn.id;
}, 60_000);
afterAll(async () => {
  await t?.close();
  await mail?.stop();
});

async function imapSource(user: string, settings: Record<string, unknown> = {}) {
  const row = await t.db.intakeSource.create({
    data: imapSourceRow(mail, {
      user,
      name: `Inbox ${user}`,
      categoryId,
      ownerId,
      secretKey: t.app.deps.secretKey,
      settings,
    }),
  });
  return row.id;
}

const source = async (id: number) => (await intakeRepo.findSource(t.db, id))!;
const poll = async (id: number) => pollImapSource(t.app.deps, await source(id));

describe('polling an inbox source', () => {
  it('files a mailed invoice as an upload of the owner, audited with its source; hostile parts fail', async () => {
    const id = await imapSource('invoices', { sender_filter: 'acme.test' });
    const invoice = textPdf(['Invoice 4711', 'Acme Ltd', 'Total 99.00']);
    await mail.deliver(
      composeMessage({
        from: 'Acme Billing <billing@acme.test>',
        subject: 'Your invoice 4711',
        parts: [
          { filename: '../../invoice-4711.pdf', contentType: 'application/pdf', content: invoice },
          {
            encodedFilename: 'readme\u202etxt.html',
            contentType: 'application/pdf',
            content: '<!doctype html><script>1</script>',
          },
          {
            filename: 'setup.pdf',
            contentType: 'application/pdf',
            content: Buffer.concat([Buffer.from('MZ'), Buffer.alloc(300, 1)]),
          },
        ],
      }),
      { user: 'invoices' },
    );
    await mail.deliver(
      composeMessage({
        from: 'spam@else.test',
        subject: 'Win',
        parts: [{ filename: 'x.pdf', contentType: 'application/pdf', content: invoice }],
      }),
      { user: 'invoices' },
    );

    expect(await poll(id)).toEqual({ taken: 1, failed: 2 });
    const arrivals = await t.db.intakeArrival.findMany({ where: { sourceId: id }, orderBy: { id: 'asc' } });
    const v = arrivals[0]!.externalKey.split(':')[0];
    expect(arrivals.map((a) => [a.externalKey, a.status, a.fileName])).toEqual([
      [`${v}:1:2`, 'taken', 'invoice-4711.pdf'],
      [`${v}:1:3`, 'failed', 'readmetxt.html'],
      [`${v}:1:4`, 'failed', 'setup.pdf'],
    ]);
    expect(arrivals[1]!.reason).toBe('Its content is text/html, a type intake does not take');
    expect(arrivals[2]!.reason).toMatch(/^Its content is application\/.*, a type intake does not take$/);
    expect(arrivals[0]).toMatchObject({
      sender: 'Acme Billing <billing@acme.test>',
      subject: 'Your invoice 4711',
    });
    const file = await t.db.file.findUniqueOrThrow({
      where: { id: arrivals[0]!.fileId! },
      include: { currentVersion: true },
    });
    expect(file).toMatchObject({ name: 'invoice-4711.pdf', categoryId, ownerId });
    expect(file.currentVersion?.mimeType).toBe('application/pdf');
    const event = await t.db.auditEvent.findFirstOrThrow({
      where: { action: 'intake.arrival_taken', targetId: String(file.id) },
    });
    expect(event.message).toBe('Took "invoice-4711.pdf" from imap "Inbox invoices"');
    expect(event.details).toMatchObject({
      source_id: id,
      source_name: 'Inbox invoices',
      source_kind: 'imap',
      external_key: `${v}:1:2`,
      sender: 'Acme Billing <billing@acme.test>',
    });
    // The message is seen; the unmatched one is left alone.
    expect(mail.flags('INBOX', 'invoices')[0]).toContain('S');
    expect(mail.flags('INBOX', 'invoices')[1]).toEqual([]);

    // Within the interval nothing is read; after it, nothing is taken twice.
    const logins = () =>
      mail
        .log()
        .split('\n')
        .filter((l) => l.includes('Login: user=<invoices>')).length;
    const before = logins();
    expect(await poll(id)).toEqual({ taken: 0, failed: 0 });
    expect(logins()).toBe(before);
    tick();
    expect(await poll(id)).toEqual({ taken: 0, failed: 0 });
    expect(logins()).toBe(before + 1);
    expect(await t.db.intakeArrival.count({ where: { sourceId: id } })).toBe(3);
  });

  it('a mail server that dies in the middle of a message: the next look takes the rest, nothing twice', async () => {
    const id = await imapSource('crash');
    const big = (n: number) => Buffer.concat([textPdf([`Scan ${n}`]), Buffer.alloc(6 * 1024 * 1024, 0x20)]);
    await mail.deliver(
      composeMessage({
        from: 'scanner@acme.test',
        subject: 'Scans',
        parts: [1, 2, 3].map((n) => ({
          filename: `scan-${n}.pdf`,
          contentType: 'application/pdf',
          content: big(n),
        })),
      }),
      { user: 'crash' },
    );
    // The server is killed (SIGKILL, every dovecot process) as soon as the first part is filed.
    let crashedAfter = -1;
    const watcher = (async () => {
      for (;;) {
        const n = await t.db.intakeArrival.count({ where: { sourceId: id } });
        if (n > 0) {
          await mail.crash();
          crashedAfter = await t.db.intakeArrival.count({ where: { sourceId: id } });
          return;
        }
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    await expect(poll(id)).rejects.toThrow(/IMAP server|inbox could not be read/);
    await watcher;
    expect(crashedAfter).toBeGreaterThan(0);
    expect(crashedAfter).toBeLessThan(3);
    // Its reason is kept until the next look.
    await expect(poll(id)).rejects.toThrow(/IMAP server|inbox could not be read/);
    expect(mail.flags('INBOX', 'crash')).toEqual([[]]);

    await mail.restart();
    tick();
    const second = await poll(id);
    expect(second.taken).toBe(3 - crashedAfter);
    const arrivals = await t.db.intakeArrival.findMany({ where: { sourceId: id }, orderBy: { id: 'asc' } });
    expect(arrivals.map((a) => a.fileName).sort()).toEqual(['scan-1.pdf', 'scan-2.pdf', 'scan-3.pdf']);
    expect(new Set(arrivals.map((a) => a.externalKey)).size).toBe(3);
    expect(await t.db.file.count({ where: { id: { in: arrivals.map((a) => a.fileId!) } } })).toBe(3);
    expect(mail.flags('INBOX', 'crash')[0]).toContain('S');
  }, 60_000);

  it('takes a failed part again from the folder its message was moved to', async () => {
    const id = await imapSource('moved', { after_take: 'move', move_to: 'Filed', take_message: true });
    await mail.deliver(
      composeMessage({
        from: 'a@acme.test',
        subject: 'Two parts',
        parts: [
          { filename: 'good.pdf', contentType: 'application/pdf', content: textPdf(['good']) },
          { filename: 'empty.pdf', contentType: 'application/pdf', content: '' },
        ],
      }),
      { user: 'moved' },
    );
    expect(await poll(id)).toEqual({ taken: 2, failed: 1 });
    expect(mail.flags('INBOX', 'moved')).toEqual([]);
    expect(mail.flags('Filed', 'moved')).toHaveLength(1);
    const failed = await t.db.intakeArrival.findFirstOrThrow({ where: { sourceId: id, status: 'failed' } });
    expect(failed.reason).toBe('The file is empty');
    // The retry call checks the message is still there, then releases the key.
    await retryImapPart(t.app.deps, await source(id), failed.externalKey);
    await t.db.intakeArrival.delete({ where: { id: failed.id } });
    expect(await poll(id)).toEqual({ taken: 0, failed: 1 });
    expect(await t.db.intakeArrival.count({ where: { sourceId: id } })).toBe(3);
    expect(await t.db.intakeArrival.count({ where: { sourceId: id, externalKey: failed.externalKey } })).toBe(
      1,
    );
    await expect(
      retryImapPart(t.app.deps, await source(id), `${failed.externalKey.split(':')[0]}:99:2`),
    ).rejects.toThrow('The message is not in the mailbox any more');

    // A retry whose folder is gone by the next look is dropped; the look goes on.
    const again = await t.db.intakeArrival.findFirstOrThrow({ where: { sourceId: id, status: 'failed' } });
    await retryImapPart(t.app.deps, await source(id), again.externalKey);
    await t.db.intakeArrival.delete({ where: { id: again.id } });
    const client = await openImap(
      { host: mail.host, port: mail.port, tls: false, user: 'moved', password: 'moved-Pass-1' },
      { allowPrivateHosts: true },
    );
    await client.mailboxDelete('Filed');
    await closeImap(client);
    expect(await poll(id)).toEqual({ taken: 0, failed: 0 });
    const settings = (await t.db.intakeSource.findUniqueOrThrow({ where: { id } })).settings as {
      imap_retries: unknown[];
    };
    expect(settings.imap_retries).toEqual([]);
  });

  it('tests a connection and tells why it failed', async () => {
    const settings = {
      host: mail.host,
      port: mail.port,
      tls: false,
      user: 'closed',
      mailbox: 'INBOX',
      sender_filter: '',
      subject_filter: '',
      after_take: 'mark' as const,
      move_to: '',
      take_message: false,
      password_encrypted: null,
      ca_certificate: null,
    };
    await expect(testImapConnection(t.app.deps, settings, 'closed-Pass-1')).resolves.toEqual({
      mailbox: 'INBOX',
      messages: 0,
      idle: true,
    });
    await expect(testImapConnection(t.app.deps, settings, 'wrong')).rejects.toThrow(
      'The IMAP server refused the user name or password (AUTHENTICATIONFAILED)',
    );
    await expect(
      testImapConnection(t.app.deps, { ...settings, mailbox: 'Nowhere' }, 'closed-Pass-1'),
    ).rejects.toThrow(/mailbox does not exist|could not be read/);
  });
});

describe('IDLE', () => {
  it('a watcher in IDLE hears of new mail, and the next beat looks at once', async () => {
    const id = await imapSource('watched');
    expect(await poll(id)).toEqual({ taken: 0, failed: 0 });
    const watchers = createImapWatchers(t.app.deps, { syncMs: 200 });
    try {
      await watchers.start();
      const until = async (what: () => Promise<boolean> | boolean) => {
        for (let i = 0; i < 100 && !(await what()); i++) await new Promise((r) => setTimeout(r, 100));
        expect(await what()).toBe(true);
      };
      await until(() => watchers.idling().includes(id));
      tick(1000);
      // Within the interval: nothing is read until the watcher says so.
      await mail.deliver(
        composeMessage({
          from: 'a@acme.test',
          subject: 'Prompt',
          parts: [{ filename: 'prompt.pdf', contentType: 'application/pdf', content: textPdf(['prompt']) }],
        }),
        { user: 'watched' },
      );
      await until(async () => {
        const settings = (await t.db.intakeSource.findUniqueOrThrow({ where: { id } })).settings as {
          imap_wake_at?: string;
        };
        return typeof settings.imap_wake_at === 'string';
      });
      expect(await poll(id)).toEqual({ taken: 1, failed: 0 });
      // A source turned off is let go.
      await t.db.intakeSource.update({ where: { id }, data: { enabled: false } });
      await until(() => !watchers.idling().includes(id));
    } finally {
      await watchers.stop();
    }
    expect(watchers.idling()).toEqual([]);
  });
});
