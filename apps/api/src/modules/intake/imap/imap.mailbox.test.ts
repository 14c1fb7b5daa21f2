import { createHash } from 'node:crypto';
import type { ImapFlow } from 'imapflow';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { textPdf } from '../../../../test/documents.js';
import { composeMessage, startTestMailbox, type TestMailbox } from '../../../../test/dovecot.js';
import { closeImap, type ImapAccount, openImap } from './imap.connection.js';
import {
  type MailboxCursor,
  type MailPart,
  type PollMailboxOptions,
  pollMailbox,
  TAKEN_KEYWORD,
} from './imap.mailbox.js';

// The IMAP client against a real dovecot started from a temp folder (test/dovecot.ts), with
// messages delivered into its Maildir: what is taken, under which key and name, and that
// nothing is taken twice, whatever stops a poll.

const ALLOW = { allowPrivateHosts: true };
let server: TestMailbox;
let account: ImapAccount;

// One account per case: each starts from an empty mailbox whose UIDs start at 1.
const USERS = ['connect', 'take', 'stop', 'hostile', 'move', 'renumber'] as const;
type User = (typeof USERS)[number];

beforeAll(async () => {
  server = await startTestMailbox({
    tls: false,
    accounts: USERS.map((user) => ({ user, password: `${user}-Mail-Pass-1` })),
  });
  account = {
    host: server.host,
    port: server.port,
    tls: false,
    user: 'connect',
    password: 'connect-Mail-Pass-1',
  };
});
afterAll(() => server?.stop());

interface Taken {
  key: string;
  name: string;
  sha: string;
  sender: string | null;
  subject: string | null;
}

/** A source's memory between polls: the keys taken and the cursor. */
function memory() {
  const taken: Taken[] = [];
  let cursor: MailboxCursor | null = null;
  return {
    taken,
    get cursor() {
      return cursor;
    },
    set cursor(c: MailboxCursor | null) {
      cursor = c;
    },
    options(over: Partial<PollMailboxOptions> = {}): PollMailboxOptions {
      return {
        mailbox: 'INBOX',
        cursor,
        filters: { sender: '', subject: '' },
        takeMessage: false,
        afterTake: { action: 'mark' },
        takenKeys: async (keys) => new Set(keys.filter((k) => taken.some((t) => t.key === k))),
        take: async (part: MailPart) => {
          const chunks: Buffer[] = [];
          for await (const chunk of part.content) chunks.push(chunk as Buffer);
          taken.push({
            key: part.externalKey,
            name: part.fileName,
            sha: createHash('sha256').update(Buffer.concat(chunks)).digest('hex'),
            sender: part.sender,
            subject: part.subject,
          });
        },
        saveCursor: async (c) => {
          cursor = c;
        },
        ...over,
      };
    },
  };
}

let clients: ImapFlow[] = [];
async function connect(user: User) {
  const client = await openImap({ ...account, user, password: `${user}-Mail-Pass-1` }, ALLOW);
  clients.push(client);
  return client;
}
afterEach(async () => {
  await Promise.all(clients.map(closeImap));
  clients = [];
});

const deliverTo = (user: User, raw: string) => server.deliver(raw, { user });
const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

describe('connecting', () => {
  it('refuses a host on this machine unless IMAP_ALLOW_PRIVATE_HOSTS, before connecting', async () => {
    const before = server
      .log()
      .split('\n')
      .filter((l) => l.includes('Login:')).length;
    await expect(openImap(account, { allowPrivateHosts: false })).rejects.toThrow(
      /private network.*IMAP_ALLOW_PRIVATE_HOSTS=true/,
    );
    await expect(openImap({ ...account, host: 'localhost' }, { allowPrivateHosts: false })).rejects.toThrow(
      /private network/,
    );
    expect(
      server
        .log()
        .split('\n')
        .filter((l) => l.includes('Login:')).length,
    ).toBe(before);
  });

  it('tells a wrong password and a closed port in its own words', async () => {
    await expect(openImap({ ...account, password: 'wrong' }, ALLOW)).rejects.toThrow(
      'The IMAP server refused the user name or password (AUTHENTICATIONFAILED)',
    );
    const { freePort } = await import('@quire/db');
    await expect(openImap({ ...account, port: await freePort() }, ALLOW)).rejects.toThrow(
      /^The IMAP server refused the connection \(ECONNREFUSED\)$/,
    );
  });
});

describe('polling a mailbox', () => {
  it('takes the attachments of matching messages, once, and marks them', async () => {
    const invoice = textPdf(['Invoice 2026-117', 'Total due 1,250.00 EUR']);
    const photo = Buffer.from('not really a jpeg, the upload reads the bytes');
    await deliverTo(
      'take',
      composeMessage({
        from: 'Acme Billing <billing@acme.test>',
        subject: 'Invoice 2026-117',
        parts: [
          { filename: 'invoice-2026-117.pdf', contentType: 'application/pdf', content: invoice },
          { filename: 'logo.png', contentType: 'image/png', content: 'logo', embedded: true },
        ],
      }),
    );
    await deliverTo(
      'take',
      composeMessage({
        from: 'Someone <someone@elsewhere.test>',
        subject: 'Invoice from a stranger',
        parts: [{ filename: 'other.pdf', contentType: 'application/pdf', content: invoice }],
      }),
    );
    await deliverTo(
      'take',
      composeMessage({
        from: 'billing@acme.test',
        subject: 'Photos of the delivery',
        parts: [
          { filename: 'a.jpg', contentType: 'image/jpeg', content: photo },
          { contentType: 'application/pdf', content: invoice },
        ],
      }),
    );
    const source = memory();
    const client = await connect('take');
    const result = await pollMailbox(
      client,
      source.options({ filters: { sender: 'ACME.test', subject: '' } }),
    );
    expect(result).toEqual({ messages: 3, matched: 2, parts: 3, more: false });
    const uidValidity = source.cursor!.uidValidity;
    expect(source.cursor).toEqual({ uidValidity, lastUid: 3 });
    expect(source.taken).toEqual([
      {
        key: `${uidValidity}:1:2`,
        name: 'invoice-2026-117.pdf',
        sha: sha(invoice),
        sender: 'Acme Billing <billing@acme.test>',
        subject: 'Invoice 2026-117',
      },
      {
        key: `${uidValidity}:3:2`,
        name: 'a.jpg',
        sha: sha(photo),
        sender: 'billing@acme.test',
        subject: 'Photos of the delivery',
      },
      // No name of its own: one made from the message, with the declared type's extension.
      {
        key: `${uidValidity}:3:3`,
        name: 'message-3-part-3.pdf',
        sha: sha(invoice),
        sender: 'billing@acme.test',
        subject: 'Photos of the delivery',
      },
    ]);
    // Taken: seen and our keyword (a Maildir keyword letter); the stranger's is left unread.
    const flags = server.flags('INBOX', 'take');
    expect(flags[0]).toContain('S');
    expect(flags[1]).toEqual([]);
    expect(flags[2]).toContain('S');
    const check = await connect('take');
    const lock = await check.getMailboxLock('INBOX');
    try {
      const listed = await check.fetchAll('1:*', { uid: true, flags: true });
      expect(listed.map((m) => [m.uid, m.flags?.has(TAKEN_KEYWORD)])).toEqual([
        [1, true],
        [2, false],
        [3, true],
      ]);
    } finally {
      lock.release();
    }

    // The next poll finds nothing new; one that lost its cursor takes nothing again either.
    expect(await pollMailbox(client, source.options())).toEqual({
      messages: 0,
      matched: 0,
      parts: 0,
      more: false,
    });
    source.cursor = null;
    const again = await pollMailbox(client, source.options({ filters: { sender: 'acme', subject: '' } }));
    expect(again.parts).toBe(0);
    expect(source.taken).toHaveLength(3);
  });

  it('a poll stopped in the middle of a message takes only what is missing when run again', async () => {
    const files = ['one', 'two', 'three'].map((n) => ({
      filename: `${n}.pdf`,
      contentType: 'application/pdf',
      content: textPdf([`Part ${n}`]),
    }));
    await deliverTo('stop', composeMessage({ from: 'scanner@acme.test', subject: 'Scans', parts: files }));
    await deliverTo(
      'stop',
      composeMessage({ from: 'scanner@acme.test', subject: 'More scans', parts: [files[0]!] }),
    );
    const source = memory();
    const options = source.options();
    let calls = 0;
    const failing: PollMailboxOptions = {
      ...options,
      take: async (part) => {
        if (++calls === 2) {
          // Half of the part is read, then the worker "dies".
          part.content.read(10);
          throw new Error('worker killed');
        }
        await options.take(part);
      },
    };
    const client = await connect('stop');
    await expect(pollMailbox(client, failing)).rejects.toThrow('worker killed');
    expect(source.taken.map((t) => t.name)).toEqual(['one.pdf']);
    expect(source.cursor?.lastUid ?? 0).toBe(0);
    expect(server.flags('INBOX', 'stop')).toEqual([[], []]);

    // The connection may be gone with the worker: a new one, and the poll runs again.
    const retry = await connect('stop');
    const result = await pollMailbox(retry, source.options());
    expect(result).toMatchObject({ messages: 2, matched: 2, parts: 3 });
    expect(source.taken.map((t) => t.name)).toEqual(['one.pdf', 'two.pdf', 'three.pdf', 'one.pdf']);
    expect(new Set(source.taken.map((t) => t.key)).size).toBe(4);
    expect(source.taken.map((t) => t.sha).slice(0, 3)).toEqual(files.map((f) => sha(f.content)));
  });

  it('names hostile attachments safely and hands their bytes on as they are', async () => {
    const html = '<!doctype html><script>alert(1)</script>';
    const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200, 0x90)]);
    const long = `${'x'.repeat(300)}.pdf`;
    await deliverTo(
      'hostile',
      composeMessage({
        from: 'mallory@evil.test',
        subject: 'Hostile\u202e names',
        parts: [
          { filename: '../../../etc/cron.d/evil.pdf', contentType: 'application/pdf', content: html },
          { encodedFilename: 'nul\u0000byte.pdf', contentType: 'application/pdf', content: html },
          { filename: long, contentType: 'application/pdf', content: html },
          { encodedFilename: 'invoice\u202efdp.exe', contentType: 'image/png', content: exe },
          { filename: '..', contentType: 'application/pdf', content: html },
        ],
      }),
    );
    const source = memory();
    await pollMailbox(await connect('hostile'), source.options());
    const names = source.taken.map((t) => t.name);
    expect(names).toEqual([
      'evil.pdf',
      'nulbyte.pdf',
      `${'x'.repeat(251)}.pdf`,
      'invoicefdp.exe',
      'message-1-part-6.pdf',
    ]);
    for (const name of names) {
      for (const bad of ['/', '\\', '\u0000', '\u202e']) expect(name).not.toContain(bad);
      expect([...name].length).toBeLessThanOrEqual(255);
    }
    // The bytes are what was sent: the upload reads the type from them, not from the header.
    expect(source.taken[3]!.sha).toBe(sha(exe));
    expect(source.taken[0]!.sha).toBe(sha(html));
    expect(source.taken[0]!.subject).toBe('Hostile names');
  });

  it('moves a taken message to a folder it makes, and takes the message itself when asked', async () => {
    const pdf = textPdf(['Delivery note 55']);
    const raw = composeMessage({
      from: 'depot@acme.test',
      subject: 'Delivery note 55',
      parts: [{ filename: 'note-55.pdf', contentType: 'application/pdf', content: pdf }],
    });
    await deliverTo('move', raw);
    await deliverTo('move', composeMessage({ from: 'depot@acme.test', subject: 'Lunch?' }));
    const source = memory();
    const result = await pollMailbox(
      await connect('move'),
      source.options({
        filters: { sender: '', subject: 'delivery NOTE' },
        takeMessage: true,
        afterTake: { action: 'move', folder: 'Filed' },
      }),
    );
    expect(result).toMatchObject({ messages: 2, matched: 1, parts: 2 });
    const v = source.cursor!.uidValidity;
    expect(source.taken.map((t) => [t.key, t.name])).toEqual([
      [`${v}:1:2`, 'note-55.pdf'],
      [`${v}:1:eml`, 'Delivery note 55.eml'],
    ]);
    expect(source.taken[1]!.sha).toBe(sha(raw.replace(/\r?\n/g, '\r\n')));
    // The lunch question stays, unread; the delivery note is in Filed, seen.
    expect(server.flags('INBOX', 'move')).toEqual([[]]);
    expect(server.flags('Filed', 'move')).toHaveLength(1);
    expect(server.flags('Filed', 'move')[0]).toContain('S');
  });

  it('reads a renumbered mailbox (another UIDVALIDITY) from the start, skipping what it took', async () => {
    await deliverTo(
      'renumber',
      composeMessage({
        from: 'a@acme.test',
        subject: 'Kept',
        parts: [{ filename: 'kept.pdf', contentType: 'application/pdf', content: textPdf(['kept']) }],
      }),
    );
    await deliverTo('renumber', composeMessage({ from: 'a@acme.test', subject: 'Later' }));
    const source = memory();
    const client = await connect('renumber');
    await pollMailbox(client, source.options({ filters: { sender: '', subject: 'kept' } }));
    expect(source.taken).toHaveLength(1);
    const before = source.cursor!;
    // The mail is copied to a new folder (its own UIDVALIDITY), flags and all, and the source
    // pointed there: every message is looked at again under new keys, and the one carrying our
    // keyword is not taken a second time.
    await client.mailboxCreate('Renumbered');
    const lock = await client.getMailboxLock('INBOX');
    try {
      await client.messageCopy('1:*', 'Renumbered');
    } finally {
      lock.release();
    }
    const result = await pollMailbox(client, source.options({ mailbox: 'Renumbered' }));
    expect(source.cursor!.uidValidity).not.toBe(before.uidValidity);
    expect(result).toMatchObject({ messages: 2, matched: 1, parts: 0 });
    expect(source.taken).toHaveLength(1);
  });
});

describe('TLS', () => {
  let tlsServer: TestMailbox;
  beforeAll(async () => {
    tlsServer = await startTestMailbox();
  });
  afterAll(() => tlsServer?.stop());

  it('connects with implicit TLS and with STARTTLS to a server whose CA it is given', async () => {
    const base = {
      host: tlsServer.host,
      user: tlsServer.account.user,
      password: tlsServer.account.password,
      caCertificate: tlsServer.caPem,
    };
    const implicit = await openImap({ ...base, port: tlsServer.tlsPort, tls: true }, ALLOW);
    clients.push(implicit);
    expect(implicit.secureConnection).toBe(true);
    const upgraded = await openImap({ ...base, port: tlsServer.port, tls: false }, ALLOW);
    clients.push(upgraded);
    expect(upgraded.tls).toBeTruthy();
  });

  it('refuses a certificate it cannot trust, and TLS on a plain port', async () => {
    await expect(
      openImap(
        {
          host: tlsServer.host,
          port: tlsServer.tlsPort,
          tls: true,
          user: tlsServer.account.user,
          password: tlsServer.account.password,
        },
        ALLOW,
      ),
    ).rejects.toThrow(/certificate is not trusted/);
    await expect(
      openImap(
        {
          host: tlsServer.host,
          port: server.port,
          tls: true,
          user: tlsServer.account.user,
          password: tlsServer.account.password,
        },
        { ...ALLOW, timeoutMs: 3000 },
      ),
    ).rejects.toThrow(/TLS|did not answer/);
  });
});
