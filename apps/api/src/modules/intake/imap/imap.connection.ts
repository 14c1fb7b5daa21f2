import { isIP } from 'node:net';
import type { ImapFlow } from 'imapflow';
import { imap } from '../../../lib/load-later.js';
import { bare, connectAddress } from '../../../lib/private-hosts.js';

// One connection to an e-mail inbox, with imapflow. The host passes the private-network
// policy of lib/private-hosts.ts (IMAP_ALLOW_PRIVATE_HOSTS) and the connection goes to the
// address that was checked; TLS still verifies the certificate against the host's name.
// Failures are told in our own words (ImapFailure), never with the server's text.

/** What Quire needs to sign in to an inbox (the password decrypted). */
export interface ImapAccount {
  host: string;
  port: number;
  /** Implicit TLS (imaps, 993); false: STARTTLS when the server offers it. */
  tls: boolean;
  user: string;
  password: string;
  /** A certificate (PEM) to trust besides the system's, for a server with its own CA. */
  caCertificate?: string | null;
}

interface ImapPolicy {
  /** IMAP_ALLOW_PRIVATE_HOSTS: off, a host on this machine or a private network is refused. */
  allowPrivateHosts: boolean;
  /** Connect, greeting and each answer (default 15 s; an IDLE is broken up well within it). */
  timeoutMs?: number;
}

export const IMAP_PRIVATE_HOST_MESSAGE =
  'This host is on this machine or a private network, where Quire does not connect to an inbox unless the server is started with IMAP_ALLOW_PRIVATE_HOSTS=true';

/** An inbox that could not be read, in words safe to store and show (never the server's). */
export class ImapFailure extends Error {
  override name = 'ImapFailure';
}

const FAILURES: Record<string, string> = {
  AUTHENTICATIONFAILED: 'The IMAP server refused the user name or password',
  ECONNREFUSED: 'The IMAP server refused the connection',
  ECONNRESET: 'The IMAP server closed the connection',
  EPIPE: 'The IMAP server closed the connection',
  NoConnection: 'The IMAP server closed the connection',
  ETIMEDOUT: 'The IMAP server did not answer in time',
  CONNECT_TIMEOUT: 'The IMAP server did not answer in time',
  GREETING_TIMEOUT: 'The IMAP server did not answer in time',
  ETIMEOUT: 'The IMAP server did not answer in time',
  ENOTFOUND: 'The IMAP host name could not be found',
  EAI_AGAIN: 'The IMAP host name could not be found',
  EHOSTUNREACH: 'The IMAP host cannot be reached',
  ENETUNREACH: 'The IMAP host cannot be reached',
  NONEXISTENT: 'The mailbox does not exist on the IMAP server',
  TRYCREATE: 'The folder does not exist on the IMAP server',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'The IMAP server’s certificate is not trusted (self-signed)',
  SELF_SIGNED_CERT_IN_CHAIN: 'The IMAP server’s certificate is not trusted (self-signed)',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'The IMAP server’s certificate is not trusted',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'The IMAP server’s certificate is not trusted',
  CERT_HAS_EXPIRED: 'The IMAP server’s certificate has expired',
  ERR_TLS_CERT_ALTNAME_INVALID: 'The IMAP server’s certificate is for another host name',
  ERR_SSL_WRONG_VERSION_NUMBER: 'The IMAP server does not speak TLS on this port',
  EPROTO: 'The secure (TLS) connection to the IMAP server failed',
};

/**
 * An IMAP failure as one line for the source's last error, the audit trail and the admin:
 * what happened in our own words with its code, never the remote server's text (a banner or
 * a reply would make the intake screen a read-out of whatever the host runs), never a password.
 */
export function describeImapError(err: unknown): string {
  if (err instanceof ImapFailure) return err.message;
  const e = err as {
    code?: unknown;
    serverResponseCode?: unknown;
    authenticationFailed?: unknown;
    cause?: { code?: unknown };
  };
  if (e?.authenticationFailed === true) return `${FAILURES.AUTHENTICATIONFAILED} (AUTHENTICATIONFAILED)`;
  const codes = [e?.serverResponseCode, e?.code, e?.cause?.code].filter(
    (c): c is string => typeof c === 'string' && /^[A-Za-z_]{2,40}$/.test(c),
  );
  const known = codes.find((c) => c in FAILURES);
  const code = known ?? codes[0] ?? null;
  const what = (known && FAILURES[known]) ?? 'The IMAP server could not be read';
  return code ? `${what} (${code})` : what;
}

/**
 * Signs in to the account's server; the caller logs out (`closeImap`). Refused before any
 * connection when the host is private and the policy says no, or when it does not resolve.
 */
export async function openImap(account: ImapAccount, policy: ImapPolicy): Promise<ImapFlow> {
  const checked = await connectAddress(account.host, policy.allowPrivateHosts);
  if ('refused' in checked)
    throw new ImapFailure(
      checked.refused === 'private' ? IMAP_PRIVATE_HOST_MESSAGE : 'The IMAP host name could not be found',
    );
  const name = bare(account.host);
  const timeout = policy.timeoutMs ?? 15_000;
  const client = new (imap().ImapFlow)({
    host: checked.address,
    port: account.port,
    secure: account.tls,
    ...(isIP(name) ? {} : { servername: name }),
    tls: {
      ...(isIP(name) ? {} : { servername: name }),
      minVersion: 'TLSv1.2',
      ...(account.caCertificate ? { ca: [account.caCertificate] } : {}),
    },
    auth: { user: account.user, pass: account.password },
    logger: false,
    disableAutoIdle: true,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: Math.max(timeout * 4, 60_000),
    clientInfo: { name: 'Quire' },
  });
  // A connection that fails later (the server goes away) is reported by the command that was
  // waiting on it; without a listener the 'error' event would end the process.
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (err) {
    client.close();
    throw new ImapFailure(describeImapError(err));
  }
  return client;
}

/** Logs out, or drops the connection when the server does not answer that. */
export async function closeImap(client: ImapFlow): Promise<void> {
  if (!client.usable) {
    client.close();
    return;
  }
  await Promise.race([client.logout(), new Promise((r) => setTimeout(r, 2000))]).catch(() => {});
  client.close();
}
