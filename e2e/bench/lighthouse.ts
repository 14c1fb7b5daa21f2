// pnpm bench:web — Lighthouse performance (mobile, simulated throttling: its defaults) of the
// pages people arrive on, against the production build served by the real server on a fresh
// embedded PostgreSQL. Goal: /login at least 95 (issue "Ready for documents").
//
//   pnpm bench:web                 /login, 5 runs, the median printed
//   pnpm bench:web --runs=3 / /register
//   pnpm bench:web /dashboard      a page behind sign-in: the bench makes a General staff
//                                  member and signs in as them by the form (as the Company
//                                  Admin for /admin/… pages); Lighthouse keeps that browser's
//                                  storage (the session) between runs
//
// Run it on a quiet machine: Lighthouse scales the main thread's observed work by 4, so
// anything else using the CPU (a test run, a benchmark) lowers the score.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { freePort } from '../free-port.ts';

const GOAL = 95;
const runsArg = process.argv.find((a) => a.startsWith('--runs='));
const RUNS = Math.max(1, Number(runsArg?.slice('--runs='.length) ?? 5));
const pages = process.argv.slice(2).filter((a) => a.startsWith('/'));
if (pages.length === 0) pages.push('/login');
/** Pages anyone may open; any other page is measured signed in. */
const PUBLIC_PAGES = ['/', '/login', '/register', '/forgot-password'];
const isPublic = (page: string) => PUBLIC_PAGES.includes(page);
// The public pages first: signed in, /login would move on to the dashboard.
pages.sort((a, b) => Number(!isPublic(a)) - Number(!isPublic(b)));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** The JavaScript /login loads up front, as the build counts it (apps/web/build/budget.ts). */
const INITIAL_JS_GOAL = 100 * 1024;
function initialJs(page: string): number | null {
  const dist = path.resolve(import.meta.dirname, '../../apps/web/dist');
  const hints = JSON.parse(readFileSync(path.join(dist, '.preload.json'), 'utf8')) as Record<
    string,
    string[]
  >;
  const files = hints[page];
  if (!files) return null;
  return files.reduce(
    (sum, file) => sum + gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length,
    0,
  );
}
const loadBefore = loadAverage();

/** The Company Admin the server is started with, and the staff member the bench makes. */
const ADMIN = { username: 'admin', password: 'Quiet-Lantern-River-8', role: 'admin' };
const STAFF = { username: 'dana', password: 'Cobalt-Harbour-Meadow-5', role: 'user' };

/** Makes the General staff member STAFF, as the Company Admin (through the API). */
async function createStaff(base: string) {
  const login = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  const token = ((await login.json()) as { data: { access_token: string } }).data.access_token;
  const made = await fetch(`${base}/api/users/createUser`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      username: STAFF.username,
      email: 'dana@example.test',
      first_name: 'Dana',
      last_name: 'Reyes',
      password: STAFF.password,
      role: 'user',
      access_type: 'General staff',
    }),
  });
  if (!made.ok) throw new Error(`could not make the staff member: ${made.status} ${await made.text()}`);
}

/** Signs in by the form, in the browser Lighthouse then drives. */
async function signIn(chromePort: number, base: string, who: typeof ADMIN) {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chromePort}`);
  try {
    const page = await browser.contexts()[0]!.newPage();
    await page.goto(`${base}/login`);
    await page.getByLabel('Username or e-mail').fill(who.username);
    await page.getByLabel('Password').fill(who.password);
    await page.getByLabel('Role').selectOption(who.role);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname !== '/login', { timeout: 30_000 });
    await page.close();
  } finally {
    await browser.close();
  }
}

const port = await freePort();
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'quire-bench-web-'));
const server = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
  cwd: path.resolve(import.meta.dirname, '../../apps/api'),
  stdio: ['ignore', 'ignore', 'inherit'],
  env: {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    VENDOR_PASSWORD: 'Amber-Falcon-Orbit-31',
  },
});
const base = `http://127.0.0.1:${port}`;
const stop = async () => {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
};

let failed = false;
try {
  for (let tries = 0; ; tries++) {
    const ok = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (tries > 240 || server.exitCode !== null) throw new Error('the server did not start');
    await new Promise((r) => setTimeout(r, 500));
  }
  const html = await fetch(`${base}/login`).then((r) => r.text());
  if (!html.includes('/assets/')) throw new Error('the web client is not built: run `pnpm build` first');

  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const metric = (lhr: { audits: Record<string, { numericValue?: number }> }, id: string) =>
    lhr.audits[id]?.numericValue ?? Number.NaN;
  const rows: string[][] = [];
  let version = '';
  try {
    let signedIn = false;
    for (const page of pages) {
      if (!isPublic(page) && !signedIn) {
        const asAdmin = pages.some((p) => p.startsWith('/admin'));
        if (!asAdmin) await createStaff(base);
        await signIn(chrome.port, base, asAdmin ? ADMIN : STAFF);
        signedIn = true;
      }
      const runs: Array<Record<string, number>> = [];
      for (let i = 0; i < RUNS; i++) {
        const result = await lighthouse(`${base}${page}`, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance'],
          // Signed in: the session in local storage stays (Lighthouse clears storage otherwise).
          ...(signedIn ? { disableStorageReset: true } : {}),
        });
        const lhr = result?.lhr;
        if (!lhr || lhr.runtimeError)
          throw new Error(`Lighthouse failed on ${page}: ${lhr?.runtimeError?.message}`);
        version = lhr.lighthouseVersion;
        runs.push({
          score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
          fcp: metric(lhr, 'first-contentful-paint'),
          lcp: metric(lhr, 'largest-contentful-paint'),
          tbt: metric(lhr, 'total-blocking-time'),
          cls: metric(lhr, 'cumulative-layout-shift'),
        });
      }
      const m = (k: string) => median(runs.map((r) => r[k] ?? Number.NaN));
      const score = m('score');
      if (page === '/login' && score < GOAL) failed = true;
      rows.push([
        page,
        runs.map((r) => r.score).join(' '),
        String(score),
        `${Math.round(m('fcp'))} ms`,
        `${Math.round(m('lcp'))} ms`,
        `${Math.round(m('tbt'))} ms`,
        m('cls').toFixed(3),
        page === '/login' ? `>= ${GOAL}` : '',
      ]);
    }
  } finally {
    chrome.kill();
  }
  const head = [
    'page',
    `scores (${RUNS} runs)`,
    'median',
    'FCP',
    'LCP',
    'TBT',
    'CLS',
    'goal',
    'initial JS (gzip)',
  ];
  for (const row of rows) {
    const bytes = initialJs(row[0] ?? '');
    row.push(
      bytes === null
        ? ''
        : `${(bytes / 1024).toFixed(1)} KiB${row[0] === '/login' ? ` (<= ${INITIAL_JS_GOAL / 1024} KiB)` : ''}`,
    );
  }
  console.info(`\nLighthouse ${version} performance, mobile (medians)`);
  console.info(`load average (1, 5, 15 min): ${loadBefore} before, ${loadAverage()} after\n`);
  console.info(`| ${head.join(' | ')} |`);
  console.info(`| ${head.map(() => '---').join(' | ')} |`);
  for (const row of rows) console.info(`| ${row.join(' | ')} |`);
} finally {
  await stop();
}
if (failed) {
  console.error(`\n/login scored under ${GOAL}.`);
  process.exitCode = 1;
}
