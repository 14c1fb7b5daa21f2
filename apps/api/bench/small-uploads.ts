// pnpm bench (small uploads) — 500 small text files (3-8 KB, generated once, the same bytes for
// both servers) through POST /api/new-upload, one at a time and with 8 clients at once,
// against a bare baseline in the same run that does the same durable work: receive the
// multipart form, hash, write + fsync the file and its folder, insert a row in one committed
// transaction on the same PostgreSQL (bench/small-upload-server.ts). Goal: Quire >= 0.80 of
// the baseline's files/s, both ways. Each server is a process of its own; they take turns in
// rounds of 100 files (alternating who goes first), so the machine's noise falls on both.
// The files of the 8-client pass differ from the one-at-a-time pass in their first line, so
// no upload finds its content already stored.
//
//   pnpm --filter @quire/api exec tsx bench/small-uploads.ts [--files=500] [--clients=8]
//   BENCH_PROFILE=<dir>: a CPU profile of each server (<dir>/quire, <dir>/bare), written when it stops.
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { createDatabase, createDb, migrate, startEmbeddedPostgres, withDatabase } from '@quire/db';
import { createCategory, createUser, TEST_PASSWORD } from '../test/factories.js';
import { postUpload, uploadPayload } from './new-upload.js';
import { percentile } from './stats.js';

const arg = (name: string, fallback: number) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const FILES = arg('files', 500);
const CLIENTS = arg('clients', 8);
const ROUND = 100;
const apiDir = path.resolve(import.meta.dirname, '..');

/** The same text files every run: words from a small seeded generator, 3-8 KB each. */
function generateFiles(n: number): Buffer[] {
  let seed = 0x5eed;
  const next = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed;
  };
  const words = ['invoice', 'contract', 'delivery', 'quarterly', 'report', 'supplier', 'total', 'net'];
  const files: Buffer[] = [];
  for (let i = 0; i < n; i++) {
    const size = 3000 + (next() % 5001);
    let text = `document ${i}\n`;
    while (text.length < size)
      text += `${words[next() % words.length]} ${next() % 100000}${next() % 9 === 0 ? '\n' : ' '}`;
    files.push(Buffer.from(text.slice(0, size)));
  }
  return files;
}

function startServer(mode: 'quire' | 'bare', url: string, dataDir: string) {
  const profile = process.env.BENCH_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${path.join(process.env.BENCH_PROFILE, mode)}`]
    : [];
  const proc = spawn(
    process.execPath,
    [...profile, '--import', 'tsx', 'bench/small-upload-server.ts', mode, url, dataDir],
    { cwd: apiDir, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise<{ proc: ChildProcess; port: number }>((resolve, reject) => {
    const lines = createInterface({ input: proc.stdout! });
    lines.on('line', (line) => {
      const m = /^listening (\d+)$/.exec(line);
      if (m) resolve({ proc, port: Number(m[1]) });
    });
    proc.once('exit', (code) => reject(new Error(`${mode} server exited ${code}`)));
  });
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });

/** One new-upload of `content`; resolves with its time in ms. */
async function upload(port: number, token: string, folderId: number, name: string, content: Buffer) {
  const body = uploadPayload(
    folderId,
    { name, type: 'text/plain', content },
    `smallbench${name.length}${content.length}`,
  );
  const start = process.hrtime.bigint();
  const { req, answer } = postUpload({
    port,
    token,
    contentType: body.contentType,
    length: body.payload.length,
    agent,
  });
  req.end(body.payload);
  const { status, body: text } = await answer;
  if (status !== 200) throw new Error(`upload ${name}: ${status} ${text}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Uploads `files` with `clients` at once; answers each upload's ms and the wall time. */
async function pass(
  port: number,
  token: string,
  folderId: number,
  files: Array<{ name: string; content: Buffer }>,
  clients: number,
) {
  const times: number[] = [];
  let nextIndex = 0;
  const start = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let i = nextIndex++; i < files.length; i = nextIndex++) {
        const f = files[i]!;
        times.push(await upload(port, token, folderId, f.name, f.content));
      }
    }),
  );
  return { times, wallMs: Number(process.hrtime.bigint() - start) / 1e6 };
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /s, '')
    .split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100/s)
}

/**
 * CPU seconds used so far by the PostgreSQL cluster in `dataDir`: its postmaster and every
 * process it started (the backends serving both servers' connections). Both servers share
 * the cluster, so its CPU during a server's own pass is that server's database work.
 */
function databaseCpuSeconds(dataDir: string): number {
  const postmaster = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  let total = cpuSeconds(postmaster);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
        .replace(/^.*\) /s, '')
        .split(' ');
      if (Number(stat[1]) === postmaster) total += (Number(stat[11]) + Number(stat[12])) / 100;
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}

const dir = await mkdtemp(path.join(os.tmpdir(), 'quire-bench-small-'));
const pgDir = path.join(dir, 'pg');
const pgServer = await startEmbeddedPostgres({ dataDir: pgDir });
const children: ChildProcess[] = [];
try {
  await createDatabase(pgServer.adminUrl, 'bench');
  const url = withDatabase(pgServer.adminUrl, 'bench');
  await migrate(url);
  const db = createDb(url);
  const user = await createUser(db, { accessType: 'General staff' });
  const category = await createCategory(db, { grants: [{ userId: user.id, rights: ['upload'] }] });
  await db.$disconnect();

  const quire = await startServer('quire', url, path.join(dir, 'quire-data'));
  const bare = await startServer('bare', url, path.join(dir, 'bare-data'));
  children.push(quire.proc, bare.proc);
  const login = await fetch(`http://127.0.0.1:${quire.port}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: user.username, password: TEST_PASSWORD, role: 'user' }),
  });
  const token = ((await login.json()) as { data: { access_token: string } }).data.access_token;

  const generated = generateFiles(FILES);
  const variant = (tag: string) =>
    generated.map((content, i) => ({
      name: `small-${i}.txt`,
      content: Buffer.concat([Buffer.from(`${tag}\n`), content]),
    }));
  // Warm both up (connections, code paths) with files of their own.
  for (const f of variant('warm-up').slice(0, 20)) {
    await upload(quire.port, token, category.id, f.name, f.content);
    await upload(bare.port, token, category.id, f.name, f.content);
  }

  const rows: string[][] = [];
  for (const clients of [1, CLIENTS]) {
    const files = variant(`pass with ${clients} clients`);
    const q = { times: [] as number[], wallMs: 0, cpu: 0, dbCpu: 0 };
    const b = { times: [] as number[], wallMs: 0, cpu: 0, dbCpu: 0 };
    for (let from = 0, round = 0; from < files.length; from += ROUND, round++) {
      const slice = files.slice(from, from + ROUND);
      const order = round % 2 === 0 ? ([quire, bare] as const) : ([bare, quire] as const);
      for (const server of order) {
        const cpuBefore = cpuSeconds(server.proc.pid!);
        const dbCpuBefore = databaseCpuSeconds(pgDir);
        const r = await pass(server.port, token, category.id, slice, clients);
        const into = server === quire ? q : b;
        into.cpu += cpuSeconds(server.proc.pid!) - cpuBefore;
        into.dbCpu += databaseCpuSeconds(pgDir) - dbCpuBefore;
        into.times.push(...r.times);
        into.wallMs += r.wallMs;
      }
    }
    const rate = (x: typeof q) => (files.length / x.wallMs) * 1000;
    const label = clients === 1 ? 'one at a time' : `${clients} clients at once`;
    rows.push([
      `${label}: bare (baseline)`,
      rate(b).toFixed(1),
      percentile(b.times, 0.5).toFixed(1),
      percentile(b.times, 0.95).toFixed(1),
      ((b.cpu * 1000) / files.length).toFixed(1),
      ((b.dbCpu * 1000) / files.length).toFixed(1),
      '1.00',
    ]);
    rows.push([
      `${label}: POST /api/new-upload`,
      rate(q).toFixed(1),
      percentile(q.times, 0.5).toFixed(1),
      percentile(q.times, 0.95).toFixed(1),
      ((q.cpu * 1000) / files.length).toFixed(1),
      ((q.dbCpu * 1000) / files.length).toFixed(1),
      (rate(q) / rate(b)).toFixed(2),
    ]);
  }

  console.info(
    `\nQuire small uploads (${FILES} text files of 3-8 KB, ${os.cpus().length} cores; ratio = Quire / bare files/s, goal >= 0.80)\n`,
  );
  console.info(
    `| ${'pass'.padEnd(40)} | files/s | p50 ms | p95 ms | server CPU ms/file | database CPU ms/file | ratio |`,
  );
  console.info(
    `| ${'-'.repeat(40)} | ------- | ------ | ------ | ------------------ | -------------------- | ----- |`,
  );
  for (const [a, b, c, d, e, f, g] of rows)
    console.info(
      `| ${a!.padEnd(40)} | ${b!.padStart(7)} | ${c!.padStart(6)} | ${d!.padStart(6)} | ${e!.padStart(18)} | ${f!.padStart(20)} | ${g!.padStart(5)} |`,
    );
} finally {
  agent.destroy();
  for (const c of children) c.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  await pgServer.stop();
  await rm(dir, { recursive: true, force: true });
}
