import { execFileSync, spawn } from 'node:child_process';
import { existsSync, lstatSync, statSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveProcess } from '../src/embedded.js';
import { StartupError, startEmbeddedPostgres } from '../src/index.js';
import { query } from './helpers.js';

let tmp: string;
let runtimeDir: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'quire-embedded-test-'));
  await chmod(tmp, 0o755); // mkdtemp makes it private; the postgres OS user passes through it
  // Root's programs copy and moved clusters go to a folder of this test, not /var/lib/quire.
  runtimeDir = path.join(tmp, 'runtime');
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

const asRoot = process.getuid?.() === 0;
const postmasterPid = async (cluster: string) =>
  Number((await readFile(path.join(cluster, 'postmaster.pid'), 'utf8')).split('\n')[0]);
const alive = (pid: number) => liveProcess(pid);

describe('the embedded PostgreSQL', () => {
  it('keeps a random superuser password in a 0600 file and listens on loopback only, no socket', async () => {
    const cluster = path.join(tmp, 'a', 'postgres');
    const db = await startEmbeddedPostgres({ dataDir: cluster, runtimeDir });
    try {
      const password = (await readFile(`${cluster}.password`, 'utf8')).trim();
      expect(password).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(statSync(`${cluster}.password`).mode & 0o777).toBe(0o600);
      expect(db.adminUrl).toContain(encodeURIComponent(password));
      const [listen] = await query(db.adminUrl, 'SHOW listen_addresses');
      const [socket] = await query(db.adminUrl, 'SHOW unix_socket_directories');
      expect(listen.listen_addresses).toBe('127.0.0.1');
      expect(socket.unix_socket_directories).toBe('');
      // The fixed password of old clusters opens nothing.
      await expect(query(db.adminUrl.replace(/:[^:@/]+@/, ':postgres@'), 'SELECT 1')).rejects.toMatchObject({
        code: '28P01',
      });
    } finally {
      await db.stop();
    }
  });

  it('says once, while its programs run, that they run: on the first start (initdb) and on a later one', async () => {
    const cluster = path.join(tmp, 'spawned', 'postgres');
    for (const start of ['first', 'second']) {
      const told: string[] = [];
      let settled = false;
      const starting = startEmbeddedPostgres({
        dataDir: cluster,
        runtimeDir,
        onSpawned: () => told.push(settled ? `${start}: after` : `${start}: while`),
      });
      const db = await starting.finally(() => {
        settled = true;
      });
      await db.stop();
      expect(told).toEqual([`${start}: while`]);
    }
  });

  it('gives a cluster made with the old fixed password a new one at its next start', async () => {
    const cluster = path.join(tmp, 'legacy', 'postgres');
    let db = await startEmbeddedPostgres({ dataDir: cluster, runtimeDir });
    await query(db.adminUrl, "ALTER ROLE postgres PASSWORD 'postgres'");
    await db.stop();
    await unlink(`${cluster}.password`);

    db = await startEmbeddedPostgres({ dataDir: cluster, runtimeDir });
    try {
      expect(await query(db.adminUrl, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
      await expect(query(db.adminUrl.replace(/:[^:@/]+@/, ':postgres@'), 'SELECT 1')).rejects.toMatchObject({
        code: '28P01',
      });
    } finally {
      await db.stop();
    }
  });

  it('comes up on its own after the server that started it was killed (kill -9), keeping the data', async () => {
    const cluster = path.join(tmp, 'crash', 'postgres');
    // A server in a child process starts PostgreSQL, writes a row, and is killed with SIGKILL.
    const script = `
      import { startEmbeddedPostgres } from ${JSON.stringify(path.resolve(import.meta.dirname, '../src/index.ts'))};
      import pg from 'pg';
      const db = await startEmbeddedPostgres({ dataDir: ${JSON.stringify(cluster)}, runtimeDir: ${JSON.stringify(runtimeDir)} });
      const c = new pg.Client({ connectionString: db.adminUrl });
      await c.connect();
      await c.query('CREATE TABLE kept (v text)');
      await c.query("INSERT INTO kept VALUES ('before the crash')");
      await c.end();
      process.stdout.write('ready\\n');
      setInterval(() => {}, 1000);
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: path.resolve(import.meta.dirname, '..'),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
      child.on('exit', (code) => reject(new Error(`the child exited early (${code})`)));
    });
    const orphan = await postmasterPid(cluster);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.on('exit', resolve));
    expect(alive(orphan)).toBe(true); // the orphan still holds the data folder

    const db = await startEmbeddedPostgres({ dataDir: cluster, runtimeDir });
    try {
      expect(alive(orphan)).toBe(false);
      expect(await query(db.adminUrl, 'SELECT v FROM kept')).toEqual([{ v: 'before the crash' }]);
    } finally {
      await db.stop();
    }
  });

  it('refuses, with a sentence, a data folder still used by a live server', async () => {
    const cluster = path.join(tmp, 'busy', 'postgres');
    const db = await startEmbeddedPostgres({ dataDir: cluster, runtimeDir });
    try {
      // The owner file names a live node process that is not this one.
      const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
      await writeFile(`${cluster}.owner`, `${other.pid}\n`);
      try {
        const err = await startEmbeddedPostgres({ dataDir: cluster, runtimeDir }).catch((e) => e);
        expect(err).toBeInstanceOf(StartupError);
        expect(err.message).toMatch(
          /^Another Quire server \(process \d+\) is using the data folder .*: stop it first/,
        );
      } finally {
        other.kill('SIGKILL');
      }
      expect(await query(db.adminUrl, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await db.stop();
    }
  });

  it('says what to do, in one sentence, when the data folder cannot be written', async () => {
    const blocker = path.join(tmp, 'not-a-folder');
    await writeFile(blocker, 'a file where a folder should be');
    const err = await startEmbeddedPostgres({
      dataDir: path.join(blocker, 'data', 'postgres'),
      runtimeDir,
    }).catch((e) => e);
    expect(err).toBeInstanceOf(StartupError);
    expect(err.message).toMatch(/: set DATA_DIR to a folder|: check that folder, or set DATABASE_URL/);
    expect(err.message.split('\n')).toHaveLength(1);
  });

  it.runIf(asRoot)('says so when the data folder is on a read-only file system', async () => {
    const mount = path.join(tmp, 'readonly');
    await mkdir(mount);
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=1m', 'tmpfs', mount]);
    } catch {
      return expect.fail('this test needs root to mount a read-only tmpfs');
    }
    try {
      const err = await startEmbeddedPostgres({
        dataDir: path.join(mount, 'data', 'postgres'),
        runtimeDir,
      }).catch((e) => e);
      expect(err).toBeInstanceOf(StartupError);
      expect(err.message).toMatch(
        /^Quire cannot write its data folder .*EROFS.*: set DATA_DIR to a folder this user may write to\.$/,
      );
    } finally {
      execFileSync('umount', [mount]);
    }
  });

  it.runIf(asRoot)(
    'as root, runs from a private folder (0700 above the data): the cluster moves where postgres can reach it',
    async () => {
      const home = path.join(tmp, 'home');
      await mkdir(home, { mode: 0o700 });
      const cluster = path.join(home, 'quire', '.data', 'postgres');
      let db = await startEmbeddedPostgres({ dataDir: cluster, runtimeDir });
      try {
        await query(db.adminUrl, 'CREATE TABLE t (v int)');
      } finally {
        await db.stop();
      }
      expect(statSync(home).mode & 0o777).toBe(0o700); // the user's folder keeps its rights
      expect(lstatSync(cluster).isSymbolicLink()).toBe(true);
      expect(existsSync(path.join(runtimeDir, 'postgresql'))).toBe(true);

      // A second start reuses the same cluster.
      db = await startEmbeddedPostgres({ dataDir: cluster, runtimeDir });
      try {
        expect(await query(db.adminUrl, "SELECT to_regclass('t') IS NOT NULL AS kept")).toEqual([
          { kept: true },
        ]);
      } finally {
        await db.stop();
      }
    },
  );
});
