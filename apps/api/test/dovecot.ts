import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@quire/db';
import { encryptSecret } from '../src/lib/secrets.js';
import { selfSignedCertificate, waitForPort } from './local-servers.js';

// A private IMAP server for tests: Debian's dovecot (apt-get install dovecot-imapd), started
// as `dovecot -F -c <conf>` from a temp folder on free loopback ports, with its accounts in a
// passwd-file, mail in Maildir folders of that temp folder, its log in a file there (no
// syslog), and a self-signed certificate for imaps:// and STARTTLS. Never the system service.
//
//   const imap = await startTestMailbox();
//   await imap.deliver(rawMessage);            // written into the Maildir, as an MDA delivers
//   imap.flags('INBOX');                       // each message's Maildir flags, e.g. ['S']
//   await imap.stop();
//
// Run as a normal user, every dovecot process runs as that user. Run as root (CI), dovecot
// drops its login and auth processes to Debian's `dovenull` and `dovecot` users and refuses to
// read mail as root, so the mail belongs to `dovecot` then; the tests do not care which.

export interface MailAccount {
  user: string;
  password: string;
}

export interface TestMailbox {
  host: string;
  /** Plain IMAP (STARTTLS offered when `tls`). */
  port: number;
  /** Implicit TLS (imaps); 0 without `tls`. */
  tlsPort: number;
  /** The self-signed certificate the server presents (its own CA); '' without `tls`. */
  caPem: string;
  /** The first account (`intake` unless told otherwise). */
  account: MailAccount;
  accounts: MailAccount[];
  /**
   * Delivers one message into a mailbox of an account (INBOX, or a folder such as 'Archive',
   * made when missing), as a local delivery agent does: written into tmp/, then renamed into
   * new/. Dovecot sees it at its next look and tells an IDLE client.
   */
  deliver(raw: string | Buffer, options?: { user?: string; mailbox?: string }): Promise<void>;
  /** Each message's Maildir flags in a mailbox (S seen, F flagged, T deleted), oldest first. */
  flags(mailbox?: string, user?: string): string[][];
  /** What dovecot logged (log_path in the temp folder). */
  log(): string;
  /** Kills dovecot and every process of it at once (SIGKILL): connections drop mid-command. */
  crash(): Promise<void>;
  /** Starts dovecot again on the same ports and mail (after a crash). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The `data` of an `imap` intake source that reads `user`'s INBOX on `mail` over plain IMAP and
 * marks what it takes, its password (`<user>-Pass-1` unless given) stored encrypted with
 * `secretKey` as the API stores it: for tests that write the source's row themselves.
 */
export function imapSourceRow(
  mail: TestMailbox,
  o: {
    user: string;
    password?: string;
    name: string;
    categoryId: number;
    ownerId: number;
    secretKey: Buffer;
    settings?: Record<string, unknown>;
  },
) {
  return {
    kind: 'imap' as const,
    name: o.name,
    categoryId: o.categoryId,
    ownerId: o.ownerId,
    settings: {
      host: mail.host,
      port: mail.port,
      tls: false,
      user: o.user,
      mailbox: 'INBOX',
      sender_filter: '',
      subject_filter: '',
      after_take: 'mark',
      move_to: '',
      take_message: false,
      password_encrypted: encryptSecret(o.secretKey, o.password ?? `${o.user}-Pass-1`),
      ...o.settings,
    },
  };
}

const isRoot = () => process.getuid?.() === 0;

function idOf(flag: '-u' | '-g', user: string): number {
  return Number(execFileSync('id', [flag, user], { encoding: 'utf8' }).trim());
}

/** The folder of a mailbox in Maildir++ layout: INBOX is the account's folder, others `.Name`. */
function maildirOf(mailRoot: string, user: string, mailbox: string): string {
  return mailbox.toUpperCase() === 'INBOX'
    ? path.join(mailRoot, user)
    : path.join(mailRoot, user, `.${mailbox.replace(/\//g, '.')}`);
}

export async function startTestMailbox(
  options: { accounts?: MailAccount[]; tls?: boolean } = {},
): Promise<TestMailbox> {
  const accounts = options.accounts ?? [{ user: 'intake', password: 'Intake-Mail-Pass-1' }];
  const tls = options.tls ?? true;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'quire-dovecot-'));
  const root = isRoot();
  // As root, dovecot's own processes (not root) read the passwd-file and the mail.
  if (root) chmodSync(dir, 0o755);
  const me = os.userInfo();
  const mailUid = root ? idOf('-u', 'dovecot') : me.uid;
  const mailGid = root ? idOf('-g', 'dovecot') : me.gid;
  const group = execFileSync('id', ['-gn'], { encoding: 'utf8' }).trim();
  const mailRoot = path.join(dir, 'mail');
  for (const sub of ['run', 'state', 'mail']) mkdirSync(path.join(dir, sub));
  if (root) chownSync(mailRoot, mailUid, mailGid);

  const passwd = path.join(dir, 'passwd');
  writeFileSync(
    passwd,
    accounts
      .map(
        (a) => `${a.user}:{PLAIN}${a.password}:${mailUid}:${mailGid}::${path.join(dir, 'home', a.user)}::\n`,
      )
      .join(''),
    { mode: 0o644 },
  );
  const [port, tlsPort] = [await freePort(), tls ? await freePort() : 0];
  const certificate = tls ? selfSignedCertificate(dir) : null;
  if (certificate && root) chmodSync(certificate.key, 0o644);
  const users = root
    ? 'default_internal_user = dovecot\ndefault_internal_group = dovecot\ndefault_login_user = dovenull\n'
    : `default_internal_user = ${me.username}\ndefault_internal_group = ${group}\ndefault_login_user = ${me.username}\n`;
  const conf = path.join(dir, 'dovecot.conf');
  writeFileSync(
    conf,
    `base_dir = ${dir}/run
state_dir = ${dir}/state
instance_name = quire-test-${path.basename(dir)}
log_path = ${dir}/dovecot.log
info_log_path = ${dir}/dovecot.log
listen = 127.0.0.1
protocols = imap
${users}first_valid_uid = ${Math.min(mailUid, 1)}
first_valid_gid = ${Math.min(mailGid, 1)}
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:${mailRoot}/%u
${certificate ? `ssl = yes\nssl_cert = <${certificate.cert}\nssl_key = <${certificate.key}\n` : 'ssl = no\n'}passdb {
  driver = passwd-file
  args = scheme=PLAIN ${passwd}
}
userdb {
  driver = passwd-file
  args = ${passwd}
}
service imap-login {
  chroot =
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = ${tlsPort}
    ssl = yes
  }
}
service anvil {
  chroot =
}
service stats {
  unix_listener stats-reader {
    mode = 0600
  }
  unix_listener stats-writer {
    mode = 0600
  }
}
`,
  );

  let output = '';
  const log = () => {
    try {
      return output + readFileSync(path.join(dir, 'dovecot.log'), 'utf8');
    } catch {
      return output;
    }
  };
  // Its own process group: a crash kills the master and every imap process it started.
  const launch = async () => {
    const started = spawn('dovecot', ['-F', '-c', conf], {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    started.stdout?.on('data', (d) => {
      output += d;
    });
    started.stderr?.on('data', (d) => {
      output += d;
    });
    await waitForPort(port, started, 'dovecot', log);
    if (tlsPort) await waitForPort(tlsPort, started, 'dovecot', log);
    return started;
  };
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      if (child.pid) process.kill(-child.pid, signal);
    } catch {
      // gone already
    }
  };
  let child = await launch();
  const crash = async () => {
    const exited = new Promise((r) => child.once('exit', r));
    killGroup('SIGKILL');
    await exited;
  };

  let sequence = 0;
  const own = (target: string) => {
    if (root) chownSync(target, mailUid, mailGid);
  };
  const ensureMaildir = (folder: string) => {
    for (const sub of ['', 'cur', 'new', 'tmp']) {
      const target = path.join(folder, sub);
      mkdirSync(target, { recursive: true });
      own(target);
    }
    own(path.dirname(folder));
  };

  return {
    host: '127.0.0.1',
    port,
    tlsPort,
    caPem: certificate ? readFileSync(certificate.cert, 'utf8') : '',
    account: accounts[0]!,
    accounts,
    async deliver(raw, { user = accounts[0]!.user, mailbox = 'INBOX' } = {}) {
      const folder = maildirOf(mailRoot, user, mailbox);
      ensureMaildir(path.join(mailRoot, user));
      ensureMaildir(folder);
      if (mailbox.toUpperCase() !== 'INBOX') {
        writeFileSync(path.join(folder, 'maildirfolder'), '');
        own(path.join(folder, 'maildirfolder'));
      }
      const content = Buffer.isBuffer(raw) ? raw : Buffer.from(raw.replace(/\r?\n/g, '\r\n'));
      // Dovecot numbers new mail in the order of these names: the sequence keeps delivery order.
      const name = `${Math.floor(Date.now() / 1000)}.M${String(++sequence).padStart(8, '0')}P${process.pid}R${randomBytes(4).toString('hex')}.quire-test,S=${content.length}`;
      const temp = path.join(folder, 'tmp', name);
      writeFileSync(temp, content, { mode: 0o644 });
      own(temp);
      renameSync(temp, path.join(folder, 'new', name));
    },
    flags(mailbox = 'INBOX', user = accounts[0]!.user) {
      const folder = maildirOf(mailRoot, user, mailbox);
      const names = ['new', 'cur'].flatMap((sub) => {
        try {
          return readdirSync(path.join(folder, sub));
        } catch {
          return [];
        }
      });
      const delivered = (name: string) => Number(/\.M(\d+)P/.exec(name)?.[1] ?? Number.MAX_SAFE_INTEGER);
      return names
        .sort((a, b) => delivered(a) - delivered(b) || a.localeCompare(b))
        .map((name) => [...(/:2,([A-Za-z]*)$/.exec(name)?.[1] ?? '')]);
    },
    log,
    crash,
    async restart() {
      if (child.exitCode === null && child.signalCode === null) await crash();
      child = await launch();
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        killGroup('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null && child.signalCode === null) killGroup('SIGKILL');
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface MessagePart {
  /** A plain file name, written as `filename="…"` (quotes and backslashes escaped). */
  filename?: string;
  /** A file name written as RFC 2231 `filename*=utf-8''…`, percent-encoded byte by byte (NUL too). */
  encodedFilename?: string;
  contentType: string;
  content: Buffer | string;
  /** `inline` with a Content-ID inside multipart/related: an image of the HTML, not an attachment. */
  embedded?: boolean;
}

/**
 * A MIME message written by hand (so a test controls every header of a hostile part): a text
 * body and base64 attachments in multipart/mixed; embedded parts go into multipart/related
 * with an HTML body that shows them.
 */
export function composeMessage(message: {
  from: string;
  to?: string;
  subject: string;
  text?: string;
  parts?: MessagePart[];
  messageId?: string;
}): string {
  const boundary = `mixed-${randomBytes(6).toString('hex')}`;
  const related = `related-${randomBytes(6).toString('hex')}`;
  const encodeWord = (s: string) =>
    /^[\x20-\x7e]*$/.test(s) ? s : `=?UTF-8?B?${Buffer.from(s, 'utf8').toString('base64')}?=`;
  const base64 = (content: Buffer | string) =>
    (Buffer.isBuffer(content) ? content : Buffer.from(content))
      .toString('base64')
      .replace(/.{76}/g, '$&\r\n');
  const nameParam = (p: MessagePart) =>
    p.encodedFilename !== undefined
      ? `; filename*=utf-8''${[...Buffer.from(p.encodedFilename, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`).join('')}`
      : p.filename !== undefined
        ? `; filename="${p.filename.replace(/["\\]/g, '\\$&')}"`
        : '';
  const parts = message.parts ?? [];
  const attached = parts.filter((p) => !p.embedded);
  const embedded = parts.filter((p) => p.embedded);
  const lines = [
    `From: ${message.from}`,
    `To: ${message.to ?? 'intake@quire.test'}`,
    `Subject: ${encodeWord(message.subject)}`,
    `Date: ${new Date().toUTCString()}`,
    `Message-ID: ${message.messageId ?? `<${randomBytes(8).toString('hex')}@quire.test>`}`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    '',
    `--${boundary}`,
  ];
  if (embedded.length) {
    lines.push(`Content-Type: multipart/related; boundary="${related}"`, '', `--${related}`);
    lines.push('Content-Type: text/html; charset=utf-8', '', `<p>${message.text ?? ''}</p>`);
    embedded.forEach((p, i) => {
      lines.push(
        `--${related}`,
        `Content-Type: ${p.contentType}`,
        'Content-Transfer-Encoding: base64',
        `Content-ID: <embedded-${i}@quire.test>`,
        `Content-Disposition: inline${nameParam(p)}`,
        '',
        base64(p.content),
      );
    });
    lines.push(`--${related}--`);
  } else {
    lines.push('Content-Type: text/plain; charset=utf-8', '', message.text ?? 'Please find attached.');
  }
  for (const p of attached) {
    lines.push(
      `--${boundary}`,
      `Content-Type: ${p.contentType}`,
      'Content-Transfer-Encoding: base64',
      `Content-Disposition: attachment${nameParam(p)}`,
      '',
      base64(p.content),
    );
  }
  lines.push(`--${boundary}--`, '');
  return lines.join('\r\n');
}
