#!/usr/bin/env node
// The first commands of a new user, checked end to end on a clone of this repository inside
// a private folder (mode 0700, as root's home is on Debian):
//   pnpm install && pnpm start   -> signs in as the Company Admin
//   kill -9 of the server        -> the next pnpm start comes up on its own, same data
//   SIGTERM to pnpm start        -> stops cleanly, no PostgreSQL left running
//   Ctrl-C (SIGINT to the server's process group) -> the same
//   SIGINT to pnpm start's process group, no terminal -> the same
// Prints a line per check and exits non-zero when one fails. With --json FILE it also
// writes { passed, failed } for scripts/test.mjs.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { collectOutput } from './child-output.mjs';
import { check, freePort, running } from './smoke-lib.mjs';

const root = path.resolve(import.meta.dirname, '..');
const jsonOut = process.argv.includes('--json') ? process.argv[process.argv.indexOf('--json') + 1] : null;
const ADMIN_PASSWORD = 'Quiet-Lantern-River-8';
const results = [];
const home = mkdtempSync(path.join(os.tmpdir(), 'quire-private-')); // 0700
const clone = path.join(home, 'quire');
const env = {
  ...process.env,
  CI: 'true',
  TURBO_TELEMETRY_DISABLED: '1',
  DO_NOT_TRACK: '1',
  ADMIN_PASSWORD,
  VENDOR_PASSWORD: 'Amber-Falcon-Orbit-31',
  LOG_LEVEL: 'warn',
};
// The defaults a new user gets: the embedded PostgreSQL under the clone's .data/.
for (const name of ['DATA_DIR', 'STORAGE_DIR', 'DATABASE_URL', 'PORT', 'EMBEDDED_PG_PORT']) delete env[name];

function startServer(port) {
  const child = spawn('pnpm', ['start'], {
    cwd: clone,
    env: { ...env, PORT: String(port) },
    detached: true, // its own process group, so Ctrl-C can be sent the way a terminal does
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = collectOutput(child);
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return { child, output, exited };
}

async function waitHealthy(port, server, timeoutMs = 240_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (server.child.exitCode !== null)
      throw new Error(`pnpm start exited:\n${server.output().slice(-2000)}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`no answer on /api/health after ${timeoutMs / 1000} s:\n${server.output().slice(-2000)}`);
}

async function signIn(port) {
  const res = await fetch(`http://127.0.0.1:${port}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD, role: 'admin' }),
  });
  const body = await res.json();
  if (res.status !== 200 || !body?.data?.access_token)
    throw new Error(`sign-in answered ${res.status}: ${JSON.stringify(body)}`);
}

const clusterLink = () => path.join(clone, '.data', 'postgres');
const postmasterPid = () => {
  const file = path.join(clusterLink(), 'postmaster.pid');
  return existsSync(file) ? Number(readFileSync(file, 'utf8').split('\n')[0]) : null;
};

let movedCluster = null;
let exitCode = 0;
try {
  console.info(`Start from a private clone: ${clone}`);
  await check(results, 'clone into a 0700 folder and install', () => {
    execFileSync('git', ['clone', '--quiet', root, clone], { stdio: 'inherit' });
    execFileSync('pnpm', ['install', '--frozen-lockfile', '--offline', '--reporter=silent'], {
      cwd: clone,
      env,
      stdio: 'inherit',
    });
  });

  const port = await freePort();
  let server = startServer(port);
  await check(results, 'pnpm start serves and the Company Admin signs in', async () => {
    await waitHealthy(port, server);
    await signIn(port);
    if (process.getuid?.() === 0) movedCluster = realpathSync(clusterLink());
  });

  await check(
    results,
    'after kill -9 of the server, pnpm start comes up on its own with the same data',
    async () => {
      const serverPid = Number(readFileSync(path.join(clone, '.data', 'postgres.owner'), 'utf8'));
      process.kill(serverPid, 'SIGKILL');
      await server.exited;
      const orphan = postmasterPid();
      if (!orphan || !running(orphan))
        throw new Error('expected the killed server to leave its PostgreSQL running');
      server = startServer(port);
      await waitHealthy(port, server);
      await signIn(port); // the same password: the first start's data was reused
      if (running(orphan)) throw new Error(`the orphaned PostgreSQL (pid ${orphan}) is still running`);
    },
  );

  // A supervisor (systemd, a container runtime) sends SIGTERM to the process it started:
  // pnpm passes it on to the server.
  await check(results, 'SIGTERM to pnpm start stops the server and its PostgreSQL cleanly', async () => {
    const pg = postmasterPid();
    process.kill(server.child.pid, 'SIGTERM');
    const { code } = await server.exited;
    if (code !== 0) throw new Error(`pnpm start exited with ${code}:\n${server.output().slice(-2000)}`);
    if (pg && running(pg)) throw new Error(`PostgreSQL (pid ${pg}) is still running`);
  });

  /** Starts the server, sends `signal` to the process group `group(server)`, waits for a clean stop. */
  const stopsCleanlyOn = async (signal, group) => {
    server = startServer(port);
    await waitHealthy(port, server);
    const pg = postmasterPid();
    process.kill(-group(server), signal);
    const { code } = await server.exited;
    if (code !== 0) throw new Error(`pnpm start exited with ${code}:\n${server.output().slice(-2000)}`);
    if (pg && running(pg)) throw new Error(`PostgreSQL (pid ${pg}) is still running`);
  };
  // Ctrl-C in a terminal signals the foreground process group, which pnpm makes the
  // server's own (it runs a script in a group of its own): SIGINT to that group.
  await check(results, 'Ctrl-C stops the server and its PostgreSQL cleanly', () =>
    stopsCleanlyOn('SIGINT', () => Number(readFileSync(path.join(clone, '.data', 'postgres.owner'), 'utf8'))),
  );
  // A supervisor without a terminal that stops the group it started (pnpm's own) with SIGINT:
  // pnpm passes it on. (spawn starts pnpm with SIGINT handled as by default; a POSIX shell's
  // `pnpm start &` instead starts it with SIGINT ignored, and then pnpm ignores it.)
  await check(results, "SIGINT to pnpm start's process group stops it cleanly, without a terminal", () =>
    stopsCleanlyOn('SIGINT', (s) => s.child.pid),
  );
} catch {
  exitCode = 1;
} finally {
  rmSync(home, { recursive: true, force: true });
  if (movedCluster?.startsWith('/var/lib/quire/clusters/'))
    rmSync(movedCluster, { recursive: true, force: true });
}

const passed = results.filter((r) => r.ok).length;
const failed = results.length - passed + (exitCode && results.every((r) => r.ok) ? 1 : 0);
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ passed, failed }));
console.info(`start from a private clone: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
