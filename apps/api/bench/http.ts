// pnpm bench:http — the request path under load, over real HTTP (autocannon, 10
// connections), as ratios against a baseline measured in the same run: a bare Fastify over
// plain `pg` running the same SQL for the same two calls (bench/http-server.ts). Each server
// runs in its own process; rounds alternate between them so that the machine's noise falls
// on both. Never a pass/fail timing.
//
//   GET /api/check-session         the session lookup, guard, serializer, hooks, logging
//   GET /api/users/all?page=3      the same plus the users page (5,000 users, with groups)
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createDatabase, createDb, migrate, startEmbeddedPostgres, withDatabase } from '@quire/db';
import autocannon from 'autocannon';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createUser, loginAs } from '../test/factories.js';
import { addBenchUsers } from './data.js';
import { median } from './stats.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

async function startServer(args: string[]) {
  // BENCH_PROFILE=<dir>: a CPU profile of the Quire server, written when it stops.
  const profile =
    process.env.BENCH_PROFILE && args[0] === 'quire'
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`]
      : [];
  const child = spawn(
    process.execPath,
    [...profile, '--import', 'tsx', path.join(import.meta.dirname, 'http-server.ts'), ...args],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('listening') && resolve());
    child.on('exit', (code) => reject(new Error(`server ${args[0]} exited (${code})`)));
  });
  // Whatever it logs from now on goes nowhere, as to a log file nobody reads.
  child.stdout.removeAllListeners('data');
  child.stdout.resume();
  return child;
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /s, '')
    .split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100/s)
}

async function load(port: number, url: string, token: string, pid?: number) {
  const cpuBefore = pid ? cpuSeconds(pid) : 0;
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${url}`,
    connections: 10,
    duration: SECONDS,
    headers: { authorization: `Bearer ${token}` },
  });
  if (result.non2xx || result.errors)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  const cpuMsPerRequest = pid ? ((cpuSeconds(pid) - cpuBefore) * 1000) / result.requests.total : 0;
  return { rps: result.requests.average, p99: result.latency.p99, cpuMsPerRequest };
}

const dir = await mkdtemp(path.join(os.tmpdir(), 'quire-bench-http-'));
const pg = await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg') });
const children: Array<ReturnType<typeof spawn>> = [];
try {
  await createDatabase(pg.adminUrl, 'bench');
  const url = withDatabase(pg.adminUrl, 'bench');
  await migrate(url);
  const db = createDb(url);
  // Data and a token, made through the app itself.
  const setup = await buildApp({
    config: loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: path.join(dir, 'data'), QUIRE_ROLE: 'api' }),
    db,
  });
  const admin = await createUser(db, { accessType: 'COMPANY ADMIN' });
  const token = await loginAs(setup, admin);
  await addBenchUsers(db);
  await setup.close();
  await db.$disconnect();

  const quirePort = await freePort();
  const barePort = await freePort();
  const quire = await startServer(['quire', String(quirePort), url, path.join(dir, 'data')]);
  const bare = await startServer(['bare', String(barePort), url]);
  children.push(quire, bare);

  const calls = ['/api/check-session', '/api/users/all?page=3&quantity=20'].filter(
    (c) => !process.env.BENCH_CALLS || c.startsWith(process.env.BENCH_CALLS),
  );
  const totals = new Map<
    string,
    {
      quire: number[];
      bare: number[];
      ratio: number[];
      cpuRatio: number[];
      quireP99: number[];
      bareP99: number[];
    }
  >();
  for (const call of calls)
    totals.set(call, { quire: [], bare: [], ratio: [], cpuRatio: [], quireP99: [], bareP99: [] });
  for (const call of calls) {
    await load(quirePort, call, token); // warm both up once
    await load(barePort, call, token);
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const call of calls) {
      const t = totals.get(call)!;
      // Back to back, in alternating order: the machine's load falls on both alike.
      let q: Awaited<ReturnType<typeof load>>;
      let b: Awaited<ReturnType<typeof load>>;
      if (round % 2 === 0) {
        q = await load(quirePort, call, token, quire.pid);
        b = await load(barePort, call, token, bare.pid);
      } else {
        b = await load(barePort, call, token, bare.pid);
        q = await load(quirePort, call, token, quire.pid);
      }
      t.cpuRatio.push(b.cpuMsPerRequest / q.cpuMsPerRequest);
      t.ratio.push(q.rps / b.rps);
      t.quire.push(q.rps);
      t.quireP99.push(q.p99);
      t.bare.push(b.rps);
      t.bareP99.push(b.p99);
    }
  }

  console.info(
    `\nQuire over HTTP (autocannon, 10 connections, ${ROUNDS} rounds of ${SECONDS} s each; medians, ratio = median over rounds of Quire / bare Fastify + pg req/s, higher is better, goal >= 0.67)\n`,
  );
  console.info(
    `${'call'.padEnd(36)} ${'Quire req/s'.padStart(12)} ${'bare req/s'.padStart(11)} ${'ratio'.padStart(6)} ${'p99 ms Q/b'.padStart(12)} ${'CPU ratio'.padStart(10)}`,
  );
  for (const call of calls) {
    const t = totals.get(call)!;
    const q = median(t.quire);
    const b = median(t.bare);
    console.info(
      `${call.padEnd(36)} ${q.toFixed(0).padStart(12)} ${b.toFixed(0).padStart(11)} ${median(t.ratio).toFixed(2).padStart(6)} ${`${median(t.quireP99)}/${median(t.bareP99)}`.padStart(12)} ${median(t.cpuRatio).toFixed(2).padStart(10)}`,
    );
  }
} finally {
  for (const c of children) c.kill('SIGTERM');
  await pg.stop();
  await rm(dir, { recursive: true, force: true });
}
