#!/usr/bin/env node
// pnpm bench:start (and the first part of pnpm bench): how Quire starts and idles, measured
// as a user runs it, with the command of each figure (issue 25's goals beside them):
//   `pnpm start` on an empty DATA_DIR (the first start), then again (the second start): the
//   seconds to the first answer of /api/health, and the server's own CPU seconds by then
//   (what a busy machine does not change);
//   the API process's RSS 20 s after the second start, its embedded PostgreSQL apart;
//   `pnpm build:deploy`: the production folder's size on disk.
// The machine's load average is printed first: on a shared 2-core machine the wall times
// grow with it, the CPU seconds much less.
import './require-node.mjs';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildWhatIsStale } from './build-steps.mjs';
import { collectOutput } from './child-output.mjs';
import { freePort, movedClusterOf } from './smoke-lib.mjs';

const root = path.resolve(import.meta.dirname, '..');
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 20);
const tmp = mkdtempSync(path.join(os.tmpdir(), 'quire-bench-start-'));
const dataDir = path.join(tmp, 'data');
const CLOCK_TICKS = 100; // USER_HZ on Linux
const mb = (kb) => `${(kb / 1024).toFixed(0)} MB`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function load() {
  return os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
}

/** RSS in kB of `pid` (VmRSS), or 0 when it is gone. */
function rssKb(pid) {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** User + system CPU seconds `pid` has used. */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /s, '')
    .split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** The embedded PostgreSQL: its postmaster and every process it started (pid -> RSS kB). */
function postgresProcesses() {
  const postmaster = Number(
    readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0],
  );
  const all = [postmaster];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(
        readFileSync(`/proc/${entry}/stat`, 'utf8')
          .replace(/^.*\) /s, '')
          .split(' ')[1],
      );
      if (ppid === postmaster) all.push(Number(entry));
    } catch {}
  }
  return all.map((pid) => ({ pid, rss: rssKb(pid) }));
}

async function startOnce(port) {
  const started = performance.now();
  const child = spawn('pnpm', ['start'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: 'Quiet-Lantern-River-8',
      VENDOR_PASSWORD: 'Amber-Falcon-Orbit-31',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      STORAGE_DIR: '',
    },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = collectOutput(child);
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`pnpm start exited:\n${output().slice(-2000)}`);
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (performance.now() - started > 300_000)
      throw new Error(`no answer after 300 s:\n${output().slice(-2000)}`);
    await sleep(25);
  }
  const seconds = (performance.now() - started) / 1000;
  const serverPid = Number(readFileSync(path.join(dataDir, 'postgres.owner'), 'utf8'));
  return {
    seconds,
    cpu: cpuSeconds(serverPid),
    serverPid,
    stop: async () => {
      process.kill(child.pid, 'SIGTERM');
      return exited;
    },
  };
}

let cluster = null;
let exitCode = 0;
try {
  console.info(`\n=== start and idle (${os.cpus().length} cores; load average ${load()}) ===`);
  if (!(await buildWhatIsStale(root))) process.exit(1);
  const port = await freePort();

  const first = await startOnce(port);
  cluster = movedClusterOf(dataDir);
  console.info(
    `pnpm start, first (empty DATA_DIR: initdb, migrations, accounts): first answer after ${first.seconds.toFixed(1)} s (server CPU ${first.cpu.toFixed(1)} s)`,
  );
  await first.stop();

  const second = await startOnce(port);
  console.info(
    `pnpm start, second: first answer after ${second.seconds.toFixed(2)} s (server CPU ${second.cpu.toFixed(2)} s; load average ${load()})   goal < 3 s`,
  );
  await sleep(IDLE_SECONDS * 1000);
  const api = rssKb(second.serverPid);
  const pg = postgresProcesses();
  console.info(
    `API process (pid ${second.serverPid}) RSS ${IDLE_SECONDS} s after the second start: ${mb(api)}   goal < 150 MB`,
  );
  console.info(
    `its embedded PostgreSQL: ${pg.length} processes, RSS summed ${mb(pg.reduce((s, p) => s + p.rss, 0))} (shared memory counted in each)`,
  );
  const code = await second.stop();
  if (code !== 0) throw new Error(`pnpm start exited with ${code} on SIGTERM`);

  const summary = path.join(tmp, 'deploy.json');
  execFileSync(
    process.execPath,
    [path.join(root, 'scripts/deploy.mjs'), '--out', path.join(tmp, 'deploy'), '--json', summary],
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const deploy = JSON.parse(readFileSync(summary, 'utf8'));
  console.info(
    `pnpm build:deploy: the production folder is ${mb(deploy.bytes / 1024)} on disk, the embedded PostgreSQL ${mb(deploy.postgresBytes / 1024)} of it   goal < 250 MB`,
  );
} catch (err) {
  console.error(String(err?.message ?? err));
  exitCode = 1;
} finally {
  rmSync(tmp, { recursive: true, force: true });
  if (cluster) rmSync(cluster, { recursive: true, force: true });
}
process.exit(exitCode);
