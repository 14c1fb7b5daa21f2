import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { build } from 'esbuild';
import { afterEach } from 'vitest';
import { BUNDLE_OPTIONS, childEntryPoints } from '../bundle-options.mjs';

// Starts the real app in a process of its own (test/upload-server-child.ts) on a free
// loopback port: a server that a test can kill, or one of several on one database. From the
// sources through tsx, or from a bundle (compileChildServer) when a test starts it many times.

export interface ChildServer {
  proc: ChildProcess;
  port: number;
  /** http://127.0.0.1:<port> */
  url: string;
  /** SIGTERM, then the process's end (SIGKILL after 10 s). */
  stop(): Promise<void>;
}

const apiDir = path.resolve(import.meta.dirname, '..');

export interface CompiledChildServer {
  /** The bundle's entry point, for startChildServer's `compiled`. */
  entry: string;
  /** Deletes the bundle. */
  remove(): Promise<void>;
}

/**
 * Bundles test/upload-server-child.ts with esbuild, as `pnpm build` bundles the server (npm
 * packages stay in node_modules; the job children beside it), into a folder of its own under
 * node_modules/.cache: a test that starts the server many times (the fault loop) starts it
 * from the bundle in a fraction of the time tsx takes to compile the sources at each start.
 */
export async function compileChildServer(): Promise<CompiledChildServer> {
  const cache = path.join(apiDir, 'node_modules', '.cache');
  await mkdir(cache, { recursive: true });
  const outdir = await mkdtemp(path.join(cache, 'quire-child-server-'));
  await build({
    absWorkingDir: apiDir,
    entryPoints: { 'upload-server-child': 'test/upload-server-child.ts', ...childEntryPoints(apiDir) },
    outdir,
    ...BUNDLE_OPTIONS,
    logLevel: 'warning',
    plugins: [
      {
        name: 'npm-packages-external',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@quire/') ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
  });
  return {
    entry: path.join(outdir, 'upload-server-child.mjs'),
    remove: () => rm(outdir, { recursive: true, force: true }),
  };
}

export function startChildServer(
  databaseUrl: string,
  dataDir: string,
  /** Configuration variables for the child (QUIRE_ROLE, STORAGE, S3_*, …). */
  config: Record<string, string> = {},
  /** Start the bundle compileChildServer made (with Node's compile cache) rather than the sources through tsx. */
  compiled?: CompiledChildServer,
): Promise<ChildServer> {
  const args = compiled ? [compiled.entry] : ['--import', 'tsx', 'test/upload-server-child.ts'];
  const proc = spawn(process.execPath, args, {
    cwd: apiDir,
    env: {
      ...process.env,
      CHILD_DATABASE_URL: databaseUrl,
      CHILD_DATA_DIR: dataDir,
      CHILD_CONFIG: JSON.stringify(config),
      ...(compiled ? { NODE_COMPILE_CACHE: path.join(path.dirname(compiled.entry), '.compile-cache') } : {}),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error('the child server did not start in 120 s'));
    }, 120_000);
    createInterface({ input: proc.stdout! }).on('line', (line) => {
      if (process.env.CHILD_LOG_LEVEL) process.stderr.write(`child ${proc.pid}: ${line}\n`);
      const m = /^listening (\d+)$/.exec(line);
      if (m) {
        clearTimeout(timer);
        const port = Number(m[1]);
        resolve({ proc, port, url: `http://127.0.0.1:${port}`, stop });
      }
    });
    proc.once('exit', (code) => reject(new Error(`the child server exited (${code})`)));
  });
}

/**
 * startChildServer for a test file whose tests kill servers: each server started through the
 * returned function that still runs after a test is killed (SIGKILL). Call at the file's top.
 */
export function childServersKilledAfterEach(databaseUrl: () => string) {
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  });
  return async (...args: Parameters<typeof startChildServer> extends [string, ...infer R] ? R : never) => {
    const server = await startChildServer(databaseUrl(), ...args);
    children.push(server.proc);
    return server;
  };
}
