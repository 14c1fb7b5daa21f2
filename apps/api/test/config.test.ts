import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { passwordProblems } from '@quire/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../src/bootstrap.js';
import { ConfigError, loadConfig, SECRET_VARIABLES, withSecretFiles } from '../src/config.js';
import { startupFailureMessage } from '../src/startup-errors.js';
import { createTestApp, type TestContext } from './app.js';

// loadConfig is the only reader of the environment: a bad value stops the start with a
// ConfigError naming the variable, before anything else runs.

const load = (env: Record<string, string>) => loadConfig({ LOG_LEVEL: 'silent', ...env });

/** The ConfigError's message for `env`; fails the test when the configuration is accepted. */
function refusal(env: Record<string, string>): string {
  try {
    load(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error(`accepted: ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('accepts the defaults', () => {
    const config = load({});
    expect(config.SESSION_TTL_HOURS).toBe(12);
    expect(config.publicUrl).toBe('http://127.0.0.1:3000');
  });

  it('reads a secret X from the file X_FILE names when X is unset, for every secret', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'quire-secrets-'));
    try {
      const file = (name: string, text: string) => {
        writeFileSync(path.join(dir, name), text);
        return path.join(dir, name);
      };
      const config = load({
        APP_SECRET_FILE: file('app', 'a-secret-of-32-characters-long!!\n'),
        DATABASE_URL_FILE: file('db', 'postgresql://quire:p%40ss@db:5432/quire\r\n'),
        ADMIN_PASSWORD: '',
        ADMIN_PASSWORD_FILE: file('admin', 'Quiet-Lantern-River-8'),
      });
      expect(config.APP_SECRET).toBe('a-secret-of-32-characters-long!!');
      expect(config.DATABASE_URL).toBe('postgresql://quire:p%40ss@db:5432/quire');
      expect(config.ADMIN_PASSWORD).toBe('Quiet-Lantern-River-8');
      // Every secret has its _FILE: each one read from a file comes through.
      for (const name of SECRET_VARIABLES) {
        const env = withSecretFiles({ [`${name}_FILE`]: file(name, `value of ${name}\n`) });
        expect(env[name]).toBe(`value of ${name}`);
      }
      // The file's content is checked like the variable's.
      expect(refusal({ APP_SECRET_FILE: file('short', 'too short\n') })).toContain('APP_SECRET');
      expect(
        refusal({ APP_SECRET: 'a-secret-of-32-characters-long!!', APP_SECRET_FILE: file('x', 'y') }),
      ).toContain('APP_SECRET_FILE: APP_SECRET is set too');
      expect(refusal({ HEALTH_TOKEN_FILE: path.join(dir, 'missing') })).toContain(
        'HEALTH_TOKEN_FILE: cannot read',
      );
      // A setting that is not a secret has no _FILE.
      expect(load({ LOG_LEVEL_FILE: file('level', 'debug') }).LOG_LEVEL).toBe('silent');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('limits SESSION_TTL_HOURS to a year (8760)', () => {
    expect(load({ SESSION_TTL_HOURS: '8760' }).SESSION_TTL_HOURS).toBe(8760);
    expect(refusal({ SESSION_TTL_HOURS: '8761' })).toContain('SESSION_TTL_HOURS');
    expect(refusal({ SESSION_TTL_HOURS: '1e9' })).toContain('SESSION_TTL_HOURS');
  });

  it('takes only an http: or https: PUBLIC_URL', () => {
    expect(load({ PUBLIC_URL: 'https://quire.example.com/' }).publicUrl).toBe('https://quire.example.com');
    expect(load({ PUBLIC_URL: 'http://10.0.0.5:8080' }).publicUrl).toBe('http://10.0.0.5:8080');
    for (const url of ['javascript:alert(1)', 'ftp://files.example.com', 'file:///etc/passwd']) {
      expect(refusal({ PUBLIC_URL: url }), url).toContain('PUBLIC_URL');
    }
  });

  it('puts an IPv6 HOST in brackets in the default public address', () => {
    expect(load({ HOST: '::1', PORT: '8080' }).publicUrl).toBe('http://[::1]:8080');
    expect(load({ HOST: 'fd00::5' }).publicUrl).toBe('http://[fd00::5]:3000');
    expect(load({ HOST: '::' }).publicUrl).toBe('http://[::1]:3000');
    expect(load({ HOST: 'quire.internal' }).publicUrl).toBe('http://quire.internal:3000');
  });

  it('runs the API and the job worker by default; QUIRE_ROLE takes api or worker only', () => {
    expect(load({}).QUIRE_ROLE).toBe('all');
    expect(load({ QUIRE_ROLE: 'worker' }).QUIRE_ROLE).toBe('worker');
    expect(load({ QUIRE_ROLE: 'api' }).QUIRE_ROLE).toBe('api');
    for (const role of ['both', 'API', ''])
      expect(refusal({ QUIRE_ROLE: role }), role).toContain('QUIRE_ROLE');
    expect(refusal({ JOBS_POLL_MS: '10' })).toContain('JOBS_POLL_MS');
  });

  it('keeps blobs in a folder by default; STORAGE=s3 needs S3_BUCKET, and a key id with its secret', () => {
    expect(load({}).STORAGE).toBe('folder');
    expect(refusal({ STORAGE: 's3' })).toContain('S3_BUCKET');
    expect(refusal({ STORAGE: 'disk' })).toContain('STORAGE');
    expect(refusal({ STORAGE: 's3', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k' })).toContain(
      'S3_SECRET_ACCESS_KEY',
    );
    expect(refusal({ STORAGE: 's3', S3_BUCKET: 'b', S3_SECRET_ACCESS_KEY: 's' })).toContain(
      'S3_ACCESS_KEY_ID',
    );
    expect(refusal({ STORAGE: 's3', S3_BUCKET: 'b', S3_ENDPOINT: 'minio:9000' })).toContain('S3_ENDPOINT');
    const s3 = load({
      STORAGE: 's3',
      S3_BUCKET: 'quire',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_ACCESS_KEY_ID: 'key',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_FORCE_PATH_STYLE: 'true',
    }).s3;
    expect(s3).toEqual({
      bucket: 'quire',
      region: 'us-east-1',
      endpoint: 'http://127.0.0.1:9000',
      forcePathStyle: true,
      credentials: { accessKeyId: 'key', secretAccessKey: 'secret' },
    });
  });

  it('refuses a first-start username that is not a valid username, naming the variable', () => {
    expect(refusal({ ADMIN_USERNAME: 'admin@example.com' })).toContain('ADMIN_USERNAME');
    expect(refusal({ VENDOR_USERNAME: 'v' })).toContain('VENDOR_USERNAME');
    expect(refusal({ VENDOR_USERNAME: 'has space' })).toContain('VENDOR_USERNAME');
    expect(load({ ADMIN_USERNAME: 'site.admin_1' }).ADMIN_USERNAME).toBe('site.admin_1');
  });
});

describe('first-start passwords', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('refuses a given password against the policy on the first start, naming it, and creates nothing', async () => {
    for (const [env, name] of [
      [{ ADMIN_PASSWORD: 'short' }, 'ADMIN_PASSWORD'],
      [{ VENDOR_PASSWORD: 'password123' }, 'VENDOR_PASSWORD'],
      [{ ADMIN_USERNAME: 'chief', ADMIN_PASSWORD: 'chief-of-the-whole-place' }, 'ADMIN_PASSWORD'],
    ] as const) {
      await expect(bootstrap(t.db, load(env))).rejects.toThrow(name);
      expect(await t.db.user.count()).toBe(0);
    }
    // The refusal states the rule and gives a password that would pass for that account.
    const refused = await bootstrap(t.db, load({ ADMIN_PASSWORD: 'Acme-Admin-2026' })).catch(
      (e: Error) => e.message,
    );
    expect(refused).toContain('ADMIN_PASSWORD: Do not use your username or e-mail in the password');
    expect(refused).toContain('must not contain the username or the part of the e-mail address before the @');
    const example = /ADMIN_PASSWORD='([^']+)' would pass/.exec(String(refused))?.[1];
    expect(example).toBeDefined();
    expect(passwordProblems(example ?? '', { username: 'admin', email: 'admin@quire.local' })).toEqual([]);
    const created = await bootstrap(
      t.db,
      load({ ADMIN_PASSWORD: 'Quiet-Lantern-River-8', VENDOR_PASSWORD: 'Amber-Falcon-Orbit-31' }),
    );
    expect(created.map((a) => [a.username, a.generated])).toEqual([
      ['admin', false],
      ['vendor', false],
    ]);
  });

  it('ignores the variables once there are users (a later start never fails on them)', async () => {
    expect(await bootstrap(t.db, load({ ADMIN_PASSWORD: 'short' }))).toEqual([]);
  });
});

describe('start-up failures', () => {
  const sysError = (code: string, extra: Record<string, unknown> = {}) =>
    Object.assign(new Error(`${code} happened`), { code, ...extra });

  it('are one sentence that says what to do, never a stack trace', () => {
    const cases: Array<[unknown, RegExp]> = [
      [
        sysError('EADDRINUSE', { syscall: 'listen' }),
        /^Port 3000 on 127\.0\.0\.1 is already in use: .*set PORT/,
      ],
      [sysError('EACCES', { syscall: 'listen' }), /set PORT to 1024 or above\.$/],
      [
        sysError('EROFS', { path: '/srv/quire' }),
        /^\/srv\/quire is on a read-only file system: set DATA_DIR/,
      ],
      [sysError('ECONNREFUSED'), /check that PostgreSQL is running and that DATABASE_URL names it\.$/],
      [sysError('28P01'), /check the user name and password in DATABASE_URL\.$/],
      [
        new Error('something odd'),
        /^Quire could not start: something odd\. Start it again with LOG_LEVEL=debug/,
      ],
    ];
    for (const [err, expected] of cases) {
      const message = startupFailureMessage(err, { host: '127.0.0.1', port: 3000 });
      expect(message).toMatch(expected);
      expect(message).not.toMatch(/\n| {4}at /);
    }
  });
});
