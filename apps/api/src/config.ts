import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ZUsername } from '@quire/contract';
import { rootDir } from '@quire/db';
import { z } from 'zod';
import { missingOcrLanguages } from './lib/ocr-languages.js';
import type { S3BlobStoreOptions } from './lib/s3-client.js';

// The only reader of process.env. Every variable: a default where one is safe, and a line
// of doc; the README's table lists the same names (a test checks that).

const port = z.coerce.number().int().min(0).max(65535);
const optional = z
  .string()
  .optional()
  .transform((v) => (v === '' ? undefined : v));

export const configSchema = z
  .object({
    /** Port the API and the web client listen on. */
    PORT: port.default(3000),
    /** Address to bind; 0.0.0.0 to accept connections from other machines. */
    HOST: z.string().min(1).default('127.0.0.1'),
    /** PostgreSQL URL. Unset: an embedded PostgreSQL with its data under DATA_DIR/postgres. */
    DATABASE_URL: optional.pipe(z.url({ protocol: /^postgres(ql)?$/ }).optional()),
    /** Folder for the embedded database, the blob store and generated secrets. */
    DATA_DIR: z.string().min(1).default('.data'),
    /** Folder of the blob store. Default DATA_DIR/blobs. */
    STORAGE_DIR: optional,
    /**
     * Folders that intake may watch, comma-separated: a watched folder must be one of them or
     * inside one (it is created there when missing). Default DATA_DIR/intake.
     */
    INTAKE_FOLDERS: optional,
    /** Folder for backup archives, apart from the data they protect (its own disk or volume). Unset: in the blob store. */
    BACKUP_DIR: optional,
    /** Where file contents are kept: folder (STORAGE_DIR) or s3 (an S3-compatible bucket, S3_* below). */
    STORAGE: z.enum(['folder', 's3']).default('folder'),
    /** URL of the S3-compatible service (MinIO, Ceph, Garage, …); unset: AWS S3. */
    S3_ENDPOINT: optional.pipe(
      z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
    ),
    /** Bucket of the blob store when STORAGE=s3 (it must exist). */
    S3_BUCKET: optional,
    /** Region of the bucket. */
    S3_REGION: z.string().min(1).default('us-east-1'),
    /** Access key id; unset with S3_SECRET_ACCESS_KEY: the AWS SDK's own sources (AWS_* variables, an instance role). */
    S3_ACCESS_KEY_ID: optional,
    /** Its secret key. */
    S3_SECRET_ACCESS_KEY: optional,
    /** The bucket in the URL's path rather than its host name (true/false): most self-hosted services need true. */
    S3_FORCE_PATH_STYLE: z.stringbool().default(false),
    /** Port for the embedded PostgreSQL; 0 picks a free one. */
    EMBEDDED_PG_PORT: port.default(0),
    /** Name of the company created at first start. */
    COMPANY_NAME: z.string().min(1).default('Quire'),
    /** Company Admin created at first start (when there are no users). */
    ADMIN_USERNAME: z.string().min(1).default('admin'),
    /** Its password; unset: a strong one is generated and printed once. */
    ADMIN_PASSWORD: optional,
    /** Its e-mail address. */
    ADMIN_EMAIL: z.email().default('admin@quire.local'),
    /** Vendor admin (licence management) created at first start. */
    VENDOR_USERNAME: z.string().min(1).default('vendor'),
    /** Its password; unset: generated and printed once. */
    VENDOR_PASSWORD: optional,
    /** Its e-mail address. */
    VENDOR_EMAIL: z.email().default('vendor@quire.local'),
    /** Hours a session lives without use. */
    SESSION_TTL_HOURS: z.coerce.number().positive().max(8760, 'must be at most 8760 (a year)').default(12),
    /** Hours a session lives at most after sign-in, however much it is used. */
    SESSION_MAX_HOURS: z.coerce.number().positive().max(8760, 'must be at most 8760 (a year)').default(168),
    /** Sign-in attempts per minute for one address and username. */
    LOGIN_RATE_LIMIT: z.coerce.number().int().positive().default(10),
    /** Public address of the site, used in links sent by e-mail. Default http://HOST:PORT. */
    PUBLIC_URL: optional.pipe(
      z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
    ),
    /** Folder of the built web client. */
    WEB_DIST: optional,
    /** Key for secrets stored encrypted (SMTP password). Unset: generated into DATA_DIR/secret.key. */
    APP_SECRET: optional.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
    /** pino log level: fatal, error, warn, info, debug, trace or silent. */
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** Trust X-Forwarded-* headers from a reverse proxy (true/false). */
    TRUST_PROXY: z.stringbool().default(false),
    /** Largest file one upload takes, in bytes (default 2 GiB); larger is refused with 413. */
    MAX_UPLOAD_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .default(2 * 1024 ** 3),
    /** Milliseconds a connection may send nothing before it is closed (stalled uploads end). */
    REQUEST_IDLE_TIMEOUT_MS: z.coerce.number().int().min(1000).default(60_000),
    /**
     * Bytes a second a request body must average once REQUEST_MIN_RATE_GRACE_MS is over (each
     * second the body takes beyond the grace needs this many bytes); slower is answered 408 and
     * closed. 0 turns the check off.
     */
    REQUEST_MIN_BYTES_PER_SEC: z.coerce.number().int().min(0).default(1024),
    /** Milliseconds a request body may take before REQUEST_MIN_BYTES_PER_SEC counts. */
    REQUEST_MIN_RATE_GRACE_MS: z.coerce.number().int().min(1000).default(20_000),
    /** What this process runs: all (the API and the job worker), api (calls only) or worker (jobs only). */
    QUIRE_ROLE: z.enum(['all', 'api', 'worker']).default('all'),
    /** Longest time in milliseconds between two looks at the job queue (jobs wake workers at once). */
    JOBS_POLL_MS: z.coerce.number().int().min(100).default(30_000),
    /**
     * Milliseconds the blob collector leaves new content alone (default 24 h): content whose row
     * is not yet written or pointed at (an upload in flight) is younger than this. 0 is for tests
     * that run the collector on an idle server (the fault loop).
     */
    BLOB_GRACE_MS: z.coerce
      .number()
      .int()
      .min(0)
      .default(24 * 60 * 60_000),
    /**
     * Bearer token a monitor sends to GET /api/health to see the disks' sizes (16+ characters).
     * Unset: only signed-in admins see them; anyone sees the status and the failing parts.
     */
    HEALTH_TOKEN: optional.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
    /** Largest backup archive upload_backup takes, in bytes (default 64 GiB); larger is refused with 413. */
    BACKUP_UPLOAD_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .default(64 * 1024 ** 3),
    /** The vendor's ed25519 public key (PEM) that licences are checked against. Default: the key shipped with Quire. */
    LICENCE_PUBLIC_KEY: optional.pipe(
      z
        .string()
        .refine(
          (v) => v.includes('BEGIN PUBLIC KEY'),
          'must be a PEM public key (-----BEGIN PUBLIC KEY-----)',
        )
        .optional(),
    ),
    /** Milliseconds to wait for the LDAP / Active Directory server (connect and each operation). */
    LDAP_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
    /**
     * Allow LDAP / Active Directory hosts on this machine or a private network (true/false);
     * off: refused. Its own switch: a directory on the company network is common, mail there less so.
     */
    LDAP_ALLOW_PRIVATE_HOSTS: z.stringbool().default(false),
    /** Allow SMTP hosts on this machine or a private network (true/false); off: refused. */
    SMTP_ALLOW_PRIVATE_HOSTS: z.stringbool().default(false),
    /** Allow IMAP hosts of e-mail inboxes (intake) on this machine or a private network; off: refused. */
    IMAP_ALLOW_PRIVATE_HOSTS: z.stringbool().default(false),
    /**
     * Languages of text recognition (OCR) for images and scanned PDF pages, joined by `+`
     * (`eng+deu`), each installed as the npm package @tesseract.js-data/<code>; `off`: none.
     */
    OCR_LANGUAGES: z
      .string()
      .regex(/^(off|[a-z_]{3,16}(\+[a-z_]{3,16})*)$/, 'must be language codes joined by + (eng+deu), or off')
      .default('eng'),
    /** Pages of one PDF that text recognition reads at most (the rest stay unread). */
    OCR_MAX_PAGES: z.coerce.number().int().min(1).max(10_000).default(100),
  })
  .superRefine((c, ctx) => {
    if (c.STORAGE === 's3' && !c.S3_BUCKET)
      ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: 'is needed when STORAGE=s3' });
    if (!c.S3_ACCESS_KEY_ID !== !c.S3_SECRET_ACCESS_KEY) {
      const missing = c.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID';
      ctx.addIssue({
        code: 'custom',
        path: [missing],
        message: 'must be set with S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY both, or neither',
      });
    }
    const missing = missingOcrLanguages(c.OCR_LANGUAGES);
    if (missing.length)
      ctx.addIssue({
        code: 'custom',
        path: ['OCR_LANGUAGES'],
        message: `needs the trained data of ${missing.join(', ')}: pnpm add --filter @quire/api ${missing.map((m) => `@tesseract.js-data/${m}`).join(' ')}`,
      });
    // The first-start usernames follow the rules every other username does. (Their
    // passwords are checked by bootstrap, on the first start only, when they are used.)
    for (const [who, username] of [
      ['ADMIN', c.ADMIN_USERNAME],
      ['VENDOR', c.VENDOR_USERNAME],
    ] as const) {
      const name = ZUsername.safeParse(username);
      if (!name.success) {
        for (const issue of name.error.issues)
          ctx.addIssue({ code: 'custom', path: [`${who}_USERNAME`], message: issue.message });
      }
    }
  });

export type Config = z.infer<typeof configSchema> & {
  storageDir: string;
  /** BACKUP_DIR resolved; undefined: archives are kept in the blob store. */
  backupDir: string | undefined;
  /** INTAKE_FOLDERS resolved (default DATA_DIR/intake). */
  intakeFolders: string[];
  /** The bucket of STORAGE=s3. */
  s3: S3BlobStoreOptions;
  webDist: string;
  publicUrl: string;
  dataDir: string;
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * The settings that hold a secret. Each can come from a file instead (Docker secrets,
 * systemd credentials): `X_FILE=/run/secrets/x` is read when `X` is unset or empty.
 */
export const SECRET_VARIABLES = [
  'DATABASE_URL',
  'ADMIN_PASSWORD',
  'VENDOR_PASSWORD',
  'APP_SECRET',
  'HEALTH_TOKEN',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'LICENCE_PUBLIC_KEY',
] as const;

/** `env` with each unset secret `X` read from the file `X_FILE` names (its trailing newlines dropped). */
export function withSecretFiles(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const out = { ...env };
  const problems: string[] = [];
  for (const name of SECRET_VARIABLES) {
    const file = env[`${name}_FILE`];
    if (!file) continue;
    if (env[name]) {
      problems.push(`  ${name}_FILE: ${name} is set too; keep one of them`);
      continue;
    }
    try {
      out[name] = readFileSync(path.resolve(rootDir, file), 'utf8').replace(/[\r\n]+$/, '');
    } catch (err) {
      problems.push(
        `  ${name}_FILE: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
  }
  if (problems.length) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  return out;
}

/** Reads and checks the environment once; a bad value names the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = configSchema.safeParse(withSecretFiles(env));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  const dataDir = path.resolve(rootDir, c.DATA_DIR);
  return {
    ...c,
    dataDir,
    storageDir: path.resolve(rootDir, c.STORAGE_DIR ?? path.join(dataDir, 'blobs')),
    backupDir: c.BACKUP_DIR === undefined ? undefined : path.resolve(rootDir, c.BACKUP_DIR),
    intakeFolders: (c.INTAKE_FOLDERS ?? path.join(dataDir, 'intake'))
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)
      .map((p) => path.resolve(rootDir, p)),
    s3: {
      bucket: c.S3_BUCKET ?? '',
      region: c.S3_REGION,
      endpoint: c.S3_ENDPOINT,
      forcePathStyle: c.S3_FORCE_PATH_STYLE,
      credentials:
        c.S3_ACCESS_KEY_ID && c.S3_SECRET_ACCESS_KEY
          ? { accessKeyId: c.S3_ACCESS_KEY_ID, secretAccessKey: c.S3_SECRET_ACCESS_KEY }
          : undefined,
    },
    webDist: path.resolve(rootDir, c.WEB_DIST ?? 'apps/web/dist'),
    publicUrl: (c.PUBLIC_URL ?? `http://${urlHost(c.HOST)}:${c.PORT}`).replace(/\/$/, ''),
  };
}

/** HOST as the host part of a URL: a wildcard bind becomes loopback, an IPv6 address goes in brackets. */
function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
