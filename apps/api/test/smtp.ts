import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP listener for tests: plain SMTP on 127.0.0.1, a random port, no TLS.
 *
 *   const smtp = await startSmtpServer();                      // accepts any login, or none
 *   const smtp = await startSmtpServer({ username: 'u', password: 'p' }); // checks them (535 otherwise)
 *   // point the app at it: POST /api/email/setup { host: smtp.host, port: smtp.port, security: 'none', from_address: … }
 *   const mail = await smtp.waitForMessage((m) => m.to.includes('ann@example.test'), 5000);
 *   mail.subject; mail.text; mail.html; mail.from; mail.raw
 *   smtp.messages;  // everything received so far, oldest first
 *   await smtp.close();
 *
 * waitForMessage looks at the messages already received too, so call it after the action.
 * It rejects after `timeoutMs` (default 5000) naming what did arrive.
 */

export interface ReceivedMail {
  /** Envelope sender (MAIL FROM). */
  from: string;
  /** Envelope recipients (RCPT TO), lower-cased. */
  to: string[];
  subject: string;
  text: string;
  html: string | null;
  /** The From header as written, e.g. `"Quire" <noreply@example.test>`. */
  fromHeader: string;
  /** The user name the client signed in with, or null. */
  authUser: string | null;
  /** The password the client signed in with, or null (to check where a password went). */
  authPassword: string | null;
  /** The whole message as received. */
  raw: string;
}

export interface TestSmtpServer {
  host: string;
  port: number;
  messages: ReceivedMail[];
  waitForMessage(predicate?: (m: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  /**
   * When set, awaited after a message is received and before the server answers it: the
   * sender waits meanwhile (to make something happen in the middle of a delivery).
   */
  beforeReply: ((m: ReceivedMail) => Promise<void>) | null;
  /**
   * When set, awaited when a client connects, before the server greets it: the client waits
   * meanwhile, before it has sent anything (to stop a sender in the middle of a delivery).
   */
  beforeGreeting: (() => Promise<void>) | null;
  close(): Promise<void>;
}

/** The user and password kept by onAuth. */
function signedInAs(user: unknown): { authUser: string | null; authPassword: string | null } {
  if (typeof user !== 'string') return { authUser: null, authPassword: null };
  const [authUser, authPassword] = JSON.parse(user) as [string, string | null];
  return { authUser, authPassword };
}

export async function startSmtpServer(credentials?: {
  username: string;
  password: string;
}): Promise<TestSmtpServer> {
  const messages: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  const self = {
    beforeReply: null as TestSmtpServer['beforeReply'],
    beforeGreeting: null as TestSmtpServer['beforeGreeting'],
  };

  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: !credentials,
    allowInsecureAuth: true,
    logger: false,
    onConnect(_session, callback) {
      if (!self.beforeGreeting) return callback();
      self.beforeGreeting().then(
        () => callback(),
        (err: Error) => callback(err),
      );
    },
    onAuth(auth, _session, callback) {
      if (credentials && (auth.username !== credentials.username || auth.password !== credentials.password)) {
        return callback(new Error('Invalid username or password'));
      }
      callback(null, { user: JSON.stringify([auth.username, auth.password ?? null]) });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('error', callback);
      stream.on('end', async () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        try {
          const parsed = await simpleParser(raw);
          const mail: ReceivedMail = {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : null,
            fromHeader: parsed.from?.text ?? '',
            ...signedInAs(session.user),
            raw,
          };
          messages.push(mail);
          for (const wake of waiters) wake();
          if (self.beforeReply) await self.beforeReply(mail);
          callback();
        } catch (err) {
          callback(err as Error);
        }
      });
    },
  });
  server.on('error', () => {});

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = ((server as unknown as { server: { address(): AddressInfo } }).server.address() as AddressInfo)
    .port;

  return Object.assign(self, {
    host: '127.0.0.1',
    port,
    messages,
    waitForMessage(predicate: (m: ReceivedMail) => boolean = () => true, timeoutMs = 5000) {
      return new Promise<ReceivedMail>((resolve, reject) => {
        const check = () => {
          const found = messages.find(predicate);
          if (!found) return false;
          cleanup();
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          cleanup();
          const seen = messages.map((m) => `${m.to.join(',')}: ${m.subject}`).join('; ') || 'none';
          reject(new Error(`No matching e-mail within ${timeoutMs} ms (received: ${seen})`));
        }, timeoutMs);
        const wake = () => void check();
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(wake);
        };
        waiters.add(wake);
        check();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
