#!/usr/bin/env node
// The production folder, checked end to end: `pnpm build:deploy` into a temp folder, which is
// then moved elsewhere (nothing may point back into the repository), and started from there
// alone with plain node:
//   every production dependency loads from the folder's node_modules
//   the server answers, the Company Admin signs in
//   a file uploaded into a new category downloads with the same bytes
//   SIGTERM stops the server and its embedded PostgreSQL, exit code 0
// Prints a line per check and exits non-zero when one fails. With --json FILE it also
// writes { passed, failed } for scripts/test.mjs.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { collectOutput } from './child-output.mjs';
import { check, freePort, movedClusterOf, running } from './smoke-lib.mjs';

const root = path.resolve(import.meta.dirname, '..');
const jsonOut = process.argv.includes('--json') ? process.argv[process.argv.indexOf('--json') + 1] : null;
const ADMIN_PASSWORD = 'Quiet-Lantern-River-8';
const results = [];
const tmp = mkdtempSync(path.join(os.tmpdir(), 'quire-deploy-'));
const built = path.join(tmp, 'built');
const folder = path.join(tmp, 'elsewhere', 'quire');
const dataDir = path.join(tmp, 'data');

let server;
let cluster = null;
let exitCode = 0;
try {
  console.info(`The production folder: ${folder}`);
  await check(results, 'pnpm build:deploy writes the folder, which works after a move', () => {
    execFileSync(process.execPath, [path.join(root, 'scripts/deploy.mjs'), '--out', built], {
      cwd: root,
      stdio: 'inherit',
    });
    execFileSync('mkdir', ['-p', path.dirname(folder)]);
    renameSync(built, folder);
    for (const part of [
      'dist/server.mjs',
      'prisma/schema.prisma',
      'apps/web/dist/index.html',
      'node_modules',
    ])
      if (!existsSync(path.join(folder, part))) throw new Error(`${part} is missing`);
    if (
      existsSync(path.join(folder, 'node_modules/tsx')) ||
      existsSync(path.join(folder, 'node_modules/vitest'))
    )
      throw new Error('a development dependency is in node_modules');
    // An optional peer only the web client's pdfjs-dist brings (scripts/deploy.mjs leaves it out).
    if (readdirSync(path.join(folder, 'node_modules/.pnpm')).some((d) => d.startsWith('@napi-rs+canvas')))
      throw new Error('@napi-rs/canvas is in node_modules');
  });

  await check(results, 'every package the server imports loads from the folder', () => {
    // The bundle's own imports (apps/api/dist/externals.json), then each dependency's entry.
    const { dependencies } = JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8'));
    const externals = JSON.parse(readFileSync(path.join(folder, 'dist/externals.json'), 'utf8'));
    const covered = (name) => externals.some((spec) => spec === name || spec.startsWith(`${name}/`));
    const names = [...externals, ...Object.keys(dependencies).filter((n) => !covered(n))];
    const probe = `import { readFileSync } from 'node:fs';
      import { fileURLToPath } from 'node:url';
      const failed = [];
      for (const n of ${JSON.stringify(names)}) {
        try { await import(n); } catch (e) {
          // Only a data package (no main, no exports: tesseract's language data) may fail to import.
          let pkg = null;
          try { pkg = JSON.parse(readFileSync(fileURLToPath(import.meta.resolve(n + '/package.json')), 'utf8')); } catch {}
          if (!pkg || pkg.main || pkg.exports) failed.push(n + ': ' + e.message.split('\\n')[0]);
        }
      }
      if (failed.length) { console.error(failed.join('\\n')); process.exit(1); }
      process.exit(0);`;
    execFileSync(process.execPath, ['--input-type=module', '--no-warnings', '-e', probe], {
      cwd: path.join(folder, 'dist'),
      stdio: 'inherit',
    });
  });

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let output = () => '';
  await check(results, 'node dist/server.mjs serves, and the Company Admin signs in', async () => {
    const env = { ...process.env, PORT: String(port), DATA_DIR: dataDir, ADMIN_PASSWORD, LOG_LEVEL: 'warn' };
    for (const name of ['DATABASE_URL', 'STORAGE_DIR', 'WEB_DIST', 'QUIRE_PRISMA_DIR']) delete env[name];
    server = spawn(process.execPath, ['--max-semi-space-size=1', '--v8-pool-size=1', 'dist/server.mjs'], {
      cwd: folder,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    output = collectOutput(server);
    const until = Date.now() + 180_000;
    for (;;) {
      if (server.exitCode !== null) throw new Error(`the server exited:\n${output().slice(-2000)}`);
      if (Date.now() > until) throw new Error(`no answer after 180 s:\n${output().slice(-2000)}`);
      const ok = await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      await new Promise((r) => setTimeout(r, 300));
    }
    cluster = movedClusterOf(dataDir);
    const page = await fetch(`${base}/login`);
    if (!page.ok || !(await page.text()).includes('<div id="root"'))
      throw new Error(`/login answered ${page.status} without the web client`);
  });

  let token;
  const call = async (method, url, body) => {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body && !(body instanceof FormData) ? { 'content-type': 'application/json' } : {}),
      },
      body: body instanceof FormData ? body : body ? JSON.stringify(body) : undefined,
    });
    if (res.status !== 200) throw new Error(`${method} ${url} answered ${res.status}: ${await res.text()}`);
    return res;
  };
  await check(results, 'a file uploaded into a new category downloads with the same bytes', async () => {
    token = (
      await (
        await call('POST', '/api/login', { username: 'admin', password: ADMIN_PASSWORD, role: 'admin' })
      ).json()
    ).data.access_token;
    const category = (await (await call('POST', '/api/storeFolder', { name: 'Deploy check' })).json()).data;
    const bytes = randomBytes(300_000);
    const form = new FormData();
    form.append('folder_id', String(category.id));
    form.append('file', new Blob([bytes], { type: 'application/octet-stream' }), 'check.bin');
    const uploaded = (await (await call('POST', '/api/new-upload', form)).json()).data;
    const download = await call('GET', `/api/download-files/${uploaded.files[0].id}`);
    const back = Buffer.from(await download.arrayBuffer());
    if (!back.equals(bytes))
      throw new Error(`downloaded ${back.length} bytes that differ from the ${bytes.length} sent`);
  });

  await check(results, 'SIGTERM stops the server and its PostgreSQL, exit code 0', async () => {
    const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
    const pg = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').split('\n')[0]) : null;
    const exited = new Promise((resolve) => server.on('exit', (code, signal) => resolve({ code, signal })));
    server.kill('SIGTERM');
    const { code, signal } = await exited;
    if (code !== 0) throw new Error(`the server exited with ${code ?? signal}:\n${output().slice(-2000)}`);
    if (pg && running(pg)) throw new Error(`PostgreSQL (pid ${pg}) is still running`);
  });
} catch {
  exitCode = 1;
} finally {
  if (server && server.exitCode === null) server.kill('SIGKILL');
  rmSync(tmp, { recursive: true, force: true });
  if (cluster) rmSync(cluster, { recursive: true, force: true });
}

const passed = results.filter((r) => r.ok).length;
const failed = results.length - passed + (exitCode && results.every((r) => r.ok) ? 1 : 0);
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ passed, failed }));
console.info(`the production folder: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
