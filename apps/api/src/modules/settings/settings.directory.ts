import type { ConnectionOptions } from 'node:tls';
import type { Client } from 'ldapts';
import { ldap } from '../../lib/load-later.js';
import { isPrivateHost } from '../../lib/private-hosts.js';
import { LDAP_PRIVATE_HOST_MESSAGE } from './settings.errors.js';

// Talking to an LDAP / Active Directory server with ldapts: connect (ldaps://, or ldap:// and
// StartTLS), bind with the service account (or anonymously), find one user, and check a
// password by binding as that user. The certificate is checked unless the admin turned it
// off; a CA certificate pasted in the settings is trusted in addition to the system's.

export interface DirectoryConfig {
  url: string;
  startTls: boolean;
  verifyCertificate: boolean;
  caCertificate: string | null;
  bindDn: string | null;
  bindPassword: string | null;
  baseDn: string;
  userFilter: string;
  usernameAttribute: string;
  emailAttribute: string;
  firstNameAttribute: string;
  lastNameAttribute: string;
  groupAttribute: string | null;
  timeoutMs: number;
  /** LDAP_ALLOW_PRIVATE_HOSTS: off, a host on this machine or a private network is refused. */
  allowPrivate: boolean;
}

export interface DirectoryUser {
  dn: string;
  username: string;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  /** The DNs of the user's directory groups. */
  groups: string[];
}

/** A failure with a sentence that says exactly what went wrong, for the admin. */
export class DirectoryError extends Error {
  override name = 'DirectoryError';
  constructor(
    message: string,
    /** The server could not be reached or spoke no LDAP (as opposed to a refusal). */
    readonly unreachable: boolean,
  ) {
    super(message);
  }
}

/** RFC 4515: a value inside a filter. */
function escapeFilterValue(value: string): string {
  return value.replace(/[\\*()\0]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

const TLS_CODES =
  /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|ERR_TLS|ERR_SSL|HOSTNAME|ALTNAME|EPROTO/i;

function describe(err: unknown, stage: string, config: DirectoryConfig): DirectoryError {
  const e = err as { code?: string | number; message?: string };
  const message = (e.message ?? String(err)).replace(/\s+/g, ' ').trim();
  const code = typeof e.code === 'string' ? e.code : '';
  if (err instanceof ldap().InvalidCredentialsError)
    return new DirectoryError(
      `${stage}: the directory refused the DN or password (invalid credentials)`,
      false,
    );
  if (err instanceof ldap().NoSuchObjectError)
    return new DirectoryError(
      `${stage}: the search base "${config.baseDn}" does not exist in the directory`,
      false,
    );
  if (err instanceof ldap().ResultCodeError)
    return new DirectoryError(
      `${stage}: the directory answered ${err.name} (code ${err.code}): ${message}`,
      false,
    );
  if (TLS_CODES.test(code) || /certificate|self.signed|tls|ssl/i.test(message))
    return new DirectoryError(
      `${stage}: the server's TLS certificate was not accepted (${code || 'TLS'}: ${message}). Paste the CA certificate that signed it, or check the host name in the URL.`,
      true,
    );
  if (code === 'ECONNREFUSED')
    return new DirectoryError(`Could not connect to ${config.url}: connection refused`, true);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return new DirectoryError(`Could not connect to ${config.url}: the host name is not known`, true);
  if (code === 'ETIMEDOUT' || /timeout|timed out/i.test(message))
    return new DirectoryError(
      `${stage}: ${config.url} did not answer within ${config.timeoutMs / 1000} s`,
      true,
    );
  if (code === 'ECONNRESET' || code === 'EPIPE')
    return new DirectoryError(
      `${stage}: ${config.url} closed the connection (${code}). Is it an LDAP server, and is ldap:// or ldaps:// right?`,
      true,
    );
  return new DirectoryError(`${stage}: ${message}${code ? ` (${code})` : ''}`, true);
}

function tlsOptions(config: DirectoryConfig): ConnectionOptions {
  const host = new URL(config.url).hostname.replace(/^\[|\]$/g, '');
  return {
    rejectUnauthorized: config.verifyCertificate,
    ...(config.caCertificate ? { ca: [config.caCertificate] } : {}),
    // SNI takes host names only.
    ...(/^[\d.]+$|:/.test(host) ? {} : { servername: host }),
  };
}

const first = (value: unknown): string | null => {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined || v === null) return null;
  const s = Buffer.isBuffer(v) ? v.toString('utf8') : String(v);
  return s.trim() === '' ? null : s.trim();
};
const all = (value: unknown): string[] =>
  (Array.isArray(value) ? value : value === undefined ? [] : [value]).map((v) =>
    Buffer.isBuffer(v) ? v.toString('utf8') : String(v),
  );

/** Refuses (DirectoryError) a host on this machine or a private network unless allowed. */
async function checkHost(config: DirectoryConfig): Promise<void> {
  if (config.allowPrivate) return;
  if (await isPrivateHost(new URL(config.url).hostname))
    throw new DirectoryError(LDAP_PRIVATE_HOST_MESSAGE, false);
}

/** An open, bound connection; always closed by `withDirectory`. */
async function open(config: DirectoryConfig): Promise<Client> {
  await checkHost(config);
  const secure = config.url.toLowerCase().startsWith('ldaps:');
  const client = new (ldap().Client)({
    url: config.url,
    timeout: config.timeoutMs,
    connectTimeout: config.timeoutMs,
    ...(secure ? { tlsOptions: tlsOptions(config) } : {}),
  });
  try {
    if (config.startTls) {
      try {
        await client.startTLS(tlsOptions(config));
      } catch (err) {
        throw describe(err, 'StartTLS', config);
      }
    }
    if (config.bindDn) {
      try {
        await client.bind(config.bindDn, config.bindPassword ?? '');
      } catch (err) {
        throw describe(err, `Bind as ${config.bindDn}`, config);
      }
    }
    return client;
  } catch (err) {
    await client.unbind().catch(() => {});
    throw err instanceof DirectoryError ? err : describe(err, 'Connect', config);
  }
}

async function withDirectory<T>(config: DirectoryConfig, work: (client: Client) => Promise<T>): Promise<T> {
  const client = await open(config);
  try {
    return await work(client);
  } finally {
    await client.unbind().catch(() => {});
  }
}

async function findIn(
  client: Client,
  config: DirectoryConfig,
  username: string,
): Promise<DirectoryUser | null> {
  const filter = config.userFilter.replaceAll('{username}', escapeFilterValue(username));
  const attributes = [
    config.usernameAttribute,
    config.emailAttribute,
    config.firstNameAttribute,
    config.lastNameAttribute,
    ...(config.groupAttribute ? [config.groupAttribute] : []),
  ];
  let entries: Array<Record<string, unknown> & { dn: string }>;
  try {
    ({ searchEntries: entries } = await client.search(config.baseDn, {
      scope: 'sub',
      filter,
      attributes,
      sizeLimit: 2,
    }));
  } catch (err) {
    throw describe(err, `Search ${filter} under ${config.baseDn}`, config);
  }
  if (entries.length === 0) return null;
  if (entries.length > 1)
    throw new DirectoryError(
      `Search ${filter} found more than one entry: make the filter match one user`,
      false,
    );
  const entry = entries[0]!;
  let groups = config.groupAttribute ? all(entry[config.groupAttribute]) : [];
  if (!config.groupAttribute) {
    const name = escapeFilterValue(first(entry[config.usernameAttribute]) ?? username);
    const dn = escapeFilterValue(entry.dn);
    try {
      const { searchEntries } = await client.search(config.baseDn, {
        scope: 'sub',
        filter: `(|(member=${dn})(uniqueMember=${dn})(memberUid=${name}))`,
        attributes: ['dn'],
      });
      groups = searchEntries.map((g) => g.dn);
    } catch (err) {
      throw describe(err, 'Search the user’s groups', config);
    }
  }
  return {
    dn: entry.dn,
    username: first(entry[config.usernameAttribute]) ?? username,
    email: first(entry[config.emailAttribute]),
    firstName: first(entry[config.firstNameAttribute]),
    lastName: first(entry[config.lastNameAttribute]),
    groups,
  };
}

/** Binds with the service account and finds one user (null: no such user). */
export function findUser(config: DirectoryConfig, username: string): Promise<DirectoryUser | null> {
  return withDirectory(config, (client) => findIn(client, config, username));
}

/**
 * Finds the user, then binds as them with `password`: their entry when the directory took the
 * password, null when it did not (or there is no such user). Unreachable: DirectoryError.
 */
export async function authenticate(
  config: DirectoryConfig,
  username: string,
  password: string,
): Promise<DirectoryUser | null> {
  // An empty password would be an "unauthenticated bind", which many servers accept.
  if (password === '') return null;
  const user = await findUser(config, username);
  if (!user) return null;
  await checkHost(config);
  const client = new (ldap().Client)({
    url: config.url,
    timeout: config.timeoutMs,
    connectTimeout: config.timeoutMs,
    ...(config.url.toLowerCase().startsWith('ldaps:') ? { tlsOptions: tlsOptions(config) } : {}),
  });
  try {
    if (config.startTls) await client.startTLS(tlsOptions(config));
    await client.bind(user.dn, password);
    return user;
  } catch (err) {
    if (err instanceof ldap().InvalidCredentialsError) return null;
    throw describe(err, `Bind as ${user.dn}`, config);
  } finally {
    await client.unbind().catch(() => {});
  }
}
