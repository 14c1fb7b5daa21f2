// pnpm bench (files) — each figure a ratio to a baseline measured in this run, on this disk:
//
//   upload 1 GiB:   POST /api/new-upload over HTTP (streamed, hashed, fsynced) against
//                   `dd bs=1M conv=fsync` of the same file (throughput ratio, goal >= 0.70);
//                   server RSS growth during 100 MiB and 1 GiB uploads (goal < 64 MiB)
//   download 1 GiB: GET /api/download-files/{id}, whole and a 256 MiB Range in its middle,
//                   against a bare node:http server (a process of its own, as Quire's is)
//                   streaming the same file to the same client with Node's default read
//                   size (throughput ratio, goal >= 0.80)
//   500 small:      files of 10-200 KiB uploaded one after another: files/s and p95
//   category list:  GET /api/fileIncategory/{id} with 10,000 files in the category, p95
//                   against the same SQL through bare pg (goal <= 1.5x)
//
// The server is a process of its own (test/upload-server-child.ts) on a throw-away embedded
// PostgreSQL; its RSS is read from /proc. `--big-mib=N` changes the big file's size. The disk
// of a virtual machine is noisy, so the upload and download figures take turns with their
// baselines `--rounds=N` times (default 5: `dd` of 1 GiB on this VM's disk takes either about
// 0.5-1.5 s or about 2.8 s) and compare medians.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, readFileSync, statSync } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { createDatabase, createDb, migrate, Prisma, startEmbeddedPostgres, withDatabase } from '@quire/db';
import pg from 'pg';
import { seenOfRow, seenSetsSql } from '../src/lib/visible-sets.js';
import { categoryWhere, SUMMARY_COLUMNS, SUMMARY_FROM } from '../src/modules/file/file-lists.repository.js';
import { createCategory, createUser, TEST_PASSWORD } from '../test/factories.js';
import { postUpload, uploadFrame } from './new-upload.js';
import { median, percentile } from './stats.js';

const MiB = 1024 * 1024;
const bigArg = process.argv.find((a) => a.startsWith('--big-mib='));
const BIG = Number(bigArg?.slice('--big-mib='.length) ?? 1024) * MiB;
const roundsArg = process.argv.find((a) => a.startsWith('--rounds='));
const ROUNDS = Math.max(1, Number(roundsArg?.slice('--rounds='.length) ?? 5));
const apiDir = path.resolve(import.meta.dirname, '..');
const dir = await mkdtemp(path.join(os.tmpdir(), 'quire-bench-files-'));
const pgServer = await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg') });
const children: ChildProcess[] = [];
const rows: Array<[string, string, string, string]> = [];

/** Runs `script` (with `args`) in a process of its own; resolves once it says its port. */
function startChild(script: string, args: string[]): Promise<{ proc: ChildProcess; port: number }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: apiDir,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(proc);
  return new Promise((resolve, reject) => {
    createInterface({ input: proc.stdout! }).on('line', (line) => {
      const m = /^listening (\d+)$/.exec(line);
      if (m) resolve({ proc, port: Number(m[1]) });
    });
    proc.once('exit', (code) => reject(new Error(`${script} exited ${code}`)));
  });
}
const startServer = (dataDir: string, url: string) =>
  startChild('test/upload-server-child.ts', [url, dataDir]);

const rssOf = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m?.[1] ?? 0) * 1024;
};

async function writeRandomFile(file: string, size: number) {
  const out = createWriteStream(file);
  const block = 8 * MiB;
  for (let done = 0; done < size; done += block) {
    if (!out.write(randomBytes(Math.min(block, size - done))))
      await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((resolve, reject) =>
    out.end((err?: Error | null) => (err ? reject(err) : resolve())),
  );
}

function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = process.hrtime.bigint();
  return fn().then((value) => ({ ms: Number(process.hrtime.bigint() - start) / 1e6, value }));
}

/** Streams `file` as a new-upload; resolves with the answer. */
function upload(port: number, token: string, folderId: number, file: string, name: string) {
  const { head, tail, contentType } = uploadFrame(folderId, name, 'application/octet-stream');
  const length = head.length + statSync(file).size + tail.length;
  const { req, answer } = postUpload({ port, token, contentType, length });
  req.write(head);
  const src = createReadStream(file, { highWaterMark: MiB });
  src.on('error', (err) => req.destroy(err));
  src.pipe(req, { end: false });
  src.on('end', () => req.end(tail));
  return answer;
}

/** GETs a URL and reads the body to its end; resolves with the bytes read. */
function drain(port: number, url: string, headers: Record<string, string> = {}) {
  return new Promise<number>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: url, headers }, (res) => {
        let n = 0;
        res.on('data', (d: Buffer) => (n += d.length));
        res.on('end', () =>
          res.statusCode && res.statusCode < 300
            ? resolve(n)
            : reject(new Error(`${url}: ${res.statusCode}`)),
        );
      })
      .on('error', reject);
  });
}

const p95 = (xs: number[]) => percentile(xs, 0.95);
const mb = (bytes: number, ms: number) => `${(bytes / MiB / (ms / 1000)).toFixed(0)} MiB/s`;

try {
  await createDatabase(pgServer.adminUrl, 'bench');
  const url = withDatabase(pgServer.adminUrl, 'bench');
  await migrate(url);
  const db = createDb(url);
  const dataDir = path.join(dir, 'data');
  const server = await startServer(dataDir, url);
  const base = `http://127.0.0.1:${server.port}`;
  const user = await createUser(db, { accessType: 'General staff' });
  const category = await createCategory(db, { grants: [{ userId: user.id, rights: ['upload', 'edit'] }] });
  const login = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: user.username, password: TEST_PASSWORD, role: 'user' }),
  });
  const token = ((await login.json()) as { data: { access_token: string } }).data.access_token;
  const auth = { authorization: `Bearer ${token}` };

  // --- Big uploads --------------------------------------------------------------------------
  const big = path.join(dir, 'big.bin');
  const mid = path.join(dir, 'mid.bin');
  await writeRandomFile(big, BIG);
  await writeRandomFile(mid, 100 * MiB);
  execFileSync('sync');
  const uploadWithRss = async (file: string, name: string) => {
    const before = rssOf(server.proc.pid as number);
    let peak = before;
    const poll = setInterval(() => {
      peak = Math.max(peak, rssOf(server.proc.pid as number));
    }, 25);
    const res = await timed(() => upload(server.port, token, category.id, file, name));
    clearInterval(poll);
    if (res.value.status !== 200) throw new Error(`upload ${name}: ${res.value.status} ${res.value.body}`);
    return { ms: res.ms, growth: peak - before, id: JSON.parse(res.value.body).data.files[0].id as number };
  };
  // The disk of a virtual machine is noisy (the same write can take twice as long a minute
  // later): dd and the upload take turns, ROUNDS times, and the medians are compared. Each
  // round's file differs in its first bytes, so every upload stores a new blob.
  const ddTimes: number[] = [];
  const upTimes: number[] = [];
  const up100 = await uploadWithRss(mid, 'mid.bin');
  let up = { ms: 0, growth: 0, id: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    const fh = await open(big, 'r+');
    await fh.write(Buffer.from(`round ${round} `), 0, undefined, 0);
    await fh.close();
    execFileSync('sync');
    const dd = await timed(async () =>
      execFileSync('dd', [`if=${big}`, `of=${path.join(dir, 'dd.out')}`, 'bs=1M', 'conv=fsync'], {
        stdio: 'ignore',
      }),
    );
    ddTimes.push(dd.ms);
    await rm(path.join(dir, 'dd.out'));
    execFileSync('sync');
    const res = await uploadWithRss(big, `big-${round}.bin`);
    upTimes.push(res.ms);
    if (res.growth >= up.growth) up = res;
    execFileSync('sync');
  }
  const ddMs = median(ddTimes);
  const upMs = median(upTimes);
  rows.push([`upload 1 GiB: dd conv=fsync (baseline, median of ${ROUNDS})`, mb(BIG, ddMs), '1.00', '']);
  rows.push(['upload 1 GiB: POST /api/new-upload', mb(BIG, upMs), (ddMs / upMs).toFixed(2), '>= 0.70']);
  rows.push([
    '  server RSS growth, 100 MiB upload',
    `${(up100.growth / MiB).toFixed(1)} MiB`,
    '',
    '< 64 MiB',
  ]);
  rows.push([
    '  server RSS growth, 1 GiB upload (largest)',
    `${(up.growth / MiB).toFixed(1)} MiB`,
    '',
    '< 64 MiB',
  ]);
  console.info(
    `upload rounds (s): dd ${ddTimes.map((t) => (t / 1000).toFixed(2)).join(', ')}; Quire ${upTimes.map((t) => (t / 1000).toFixed(2)).join(', ')}`,
  );

  // --- Downloads ----------------------------------------------------------------------------
  const version = await db.file.findUniqueOrThrow({
    where: { id: up.id },
    include: { currentVersion: true },
  });
  const blobId = version.currentVersion?.blobId as string;
  const blobPath = path.join(dataDir, 'blobs', blobId.slice(0, 2), blobId.slice(2, 4), blobId);
  // The baseline runs in a process of its own, as Quire's server does: both then share the two
  // cores with the client the same way.
  const bare = await startChild('bench/bare-download-server.ts', [blobPath]);
  const barePort = bare.port;
  const midStart = Math.floor(BIG / 2 - 128 * MiB);
  const range = { range: `bytes=${midStart}-${midStart + 256 * MiB - 1}` };
  const dlUrl = `/api/download-files/${up.id}`;
  await drain(barePort, '/'); // warm the page cache for both
  const dl = {
    bareWhole: [] as number[],
    quireWhole: [] as number[],
    bareRange: [] as number[],
    quireRange: [] as number[],
  };
  for (let round = 0; round < ROUNDS; round++) {
    dl.bareWhole.push((await timed(() => drain(barePort, '/'))).ms);
    dl.quireWhole.push((await timed(() => drain(server.port, dlUrl, auth))).ms);
    dl.bareRange.push((await timed(() => drain(barePort, '/', range))).ms);
    dl.quireRange.push((await timed(() => drain(server.port, dlUrl, { ...auth, ...range }))).ms);
  }
  const secs = (xs: number[]) => xs.map((t) => (t / 1000).toFixed(2)).join(', ');
  console.info(
    `download rounds (s): bare ${secs(dl.bareWhole)}; Quire ${secs(dl.quireWhole)}; ` +
      `Range bare ${secs(dl.bareRange)}; Quire ${secs(dl.quireRange)}`,
  );
  const bareWhole = { ms: median(dl.bareWhole) };
  const quireWhole = { ms: median(dl.quireWhole) };
  const bareRange = { ms: median(dl.bareRange) };
  const quireRange = { ms: median(dl.quireRange) };
  bare.proc.kill();
  rows.push(['download 1 GiB: bare node:http (baseline)', mb(BIG, bareWhole.ms), '1.00', '']);
  rows.push([
    'download 1 GiB: GET /api/download-files/{id}',
    mb(BIG, quireWhole.ms),
    (bareWhole.ms / quireWhole.ms).toFixed(2),
    '>= 0.80',
  ]);
  rows.push(['Range 256 MiB mid-file: bare (baseline)', mb(256 * MiB, bareRange.ms), '1.00', '']);
  rows.push([
    'Range 256 MiB mid-file: Quire',
    mb(256 * MiB, quireRange.ms),
    (bareRange.ms / quireRange.ms).toFixed(2),
    '>= 0.80',
  ]);
  await rm(big);
  await rm(mid);

  // --- 500 small files ----------------------------------------------------------------------
  const small = path.join(dir, 'small');
  const times: number[] = [];
  const smallStart = process.hrtime.bigint();
  for (let i = 0; i < 500; i++) {
    const size = (10 + Math.floor(Math.random() * 191)) * 1024;
    await writeRandomFile(small, size);
    const r = await timed(() => upload(server.port, token, category.id, small, `small-${i}.bin`));
    if (r.value.status !== 200) throw new Error(`small upload: ${r.value.status} ${r.value.body}`);
    times.push(r.ms);
  }
  const smallMs = Number(process.hrtime.bigint() - smallStart) / 1e6;
  rows.push([
    '500 small files (10-200 KiB), one by one',
    `${(500 / (times.reduce((a, b) => a + b, 0) / 1000)).toFixed(1)} files/s`,
    '',
    `p95 ${p95(times).toFixed(1)} ms (wall ${(smallMs / 1000).toFixed(1)} s)`,
  ]);

  // --- Category list with 10,000 files -------------------------------------------------------
  const listCat = await createCategory(db, { grants: [{ userId: user.id }] });
  const anyVersion = await db.fileVersion.findFirstOrThrow();
  await db.$executeRaw`
    WITH made AS (
      INSERT INTO files (name, category_id, index_status, owner_id, incremental_value, created_at, updated_at)
      SELECT 'file ' || g || '.pdf', ${listCat.id}::int, 'indexed', ${user.id}::int, g,
             now() - (g || ' minutes')::interval, now()
        FROM generate_series(1, 10000) g
      RETURNING id
    ), versions AS (
      INSERT INTO file_versions (file_id, number, blob_id, original_name, mime_type, size, author_id)
      SELECT id, 1, ${anyVersion.blobId}, 'v.pdf', 'application/pdf', 1000, ${user.id}::int FROM made
      RETURNING id, file_id
    )
    UPDATE files f SET current_version_id = v.id FROM versions v WHERE v.file_id = f.id`;
  await db.$executeRawUnsafe('ANALYZE');
  const listTimes: number[] = [];
  const pages = [1, 2, 50, 250, 499];
  for (let i = 0; i < 300; i++) {
    const r = await timed(() =>
      fetch(`${base}/api/fileIncategory/${listCat.id}?page=${pages[i % pages.length]}`, {
        headers: auth,
      }).then((x) => x.json() as Promise<unknown>),
    );
    if (i >= 20) listTimes.push(r.ms);
  }
  // The same statements through bare pg: the page, the count, the shown values.
  // The caller's sets are read first (lib/visible-sets.ts), as the API does for each page.
  const scope = { kind: 'grants' as const, userId: user.id };
  const sets = seenSetsSql(scope);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const readSets = () => client.query(sets.text, sets.values as unknown[]);
  const where = categoryWhere(seenOfRow(scope, (await readSets()).rows[0]), listCat.id, { fields: [] });
  const pgTimes: number[] = [];
  for (let i = 0; i < 300; i++) {
    const page = pages[i % pages.length] as number;
    const list = Prisma.sql`SELECT ${SUMMARY_COLUMNS} FROM ${SUMMARY_FROM} WHERE ${where} ORDER BY f.created_at DESC, f.id DESC LIMIT ${20} OFFSET ${(page - 1) * 20}`;
    const count = Prisma.sql`SELECT count(*) AS n FROM ${SUMMARY_FROM} WHERE ${where}`;
    const r = await timed(async () => {
      await readSets();
      const [a] = await Promise.all([
        client.query(list.text, list.values),
        client.query(count.text, count.values),
      ]);
      const ids = a.rows.map((x: { id: number }) => x.id);
      await client.query('SELECT * FROM file_field_values WHERE file_id = ANY($1::int[])', [ids]);
    });
    if (i >= 20) pgTimes.push(r.ms);
  }
  await client.end();
  rows.push([
    'category list, 10,000 files: bare pg p95 (baseline)',
    `${p95(pgTimes).toFixed(2)} ms`,
    '1.00',
    '',
  ]);
  rows.push([
    'category list: GET /api/fileIncategory/{id} p95',
    `${p95(listTimes).toFixed(2)} ms`,
    (p95(listTimes) / p95(pgTimes)).toFixed(2),
    '<= 1.5',
  ]);

  console.info(`\nQuire files benchmark (${os.cpus().length} cores; big file ${BIG / MiB} MiB)\n`);
  console.info(`| ${'figure'.padEnd(48)} | ${'value'.padStart(12)} | ratio | goal |`);
  console.info(`| ${'-'.repeat(48)} | ${'-'.repeat(12)} | ----- | ---- |`);
  for (const [a, b, c, d] of rows)
    console.info(`| ${a.padEnd(48)} | ${b.padStart(12)} | ${c.padStart(5)} | ${d} |`);
  await db.$disconnect();
} finally {
  for (const c of children) c.kill('SIGTERM');
  await pgServer.stop();
  await rm(dir, { recursive: true, force: true });
}
