#!/usr/bin/env node
// The layering rules, as a lint step (`pnpm lint`). Biome has no per-folder import
// boundaries, so this reads every import in the tree and fails on:
//  1. an API route file (modules/*/*.routes.ts) importing the db package or a repository;
//  2. an API service or repository importing fastify (services never touch HTTP);
//  3. an API module importing another module's repository (go through its service);
//  4. one web feature importing another (shared code lives in src/components or src/lib);
//  5. process.env read outside apps/api/src/config.ts (configuration is read once);
//  6. an API service (modules/*/*.service.ts) calling Prisma itself (`tx.file.update`,
//     `deps.db.user.count`, `db.$queryRaw`): queries live in the area's repository, and a
//     service only opens transactions (`$transaction`);
//  7. any loop of imports between source files (a imports b imports … a), type imports too;
//  8. an area named differently on its sides: each key of `contract` in
//     packages/contract/src/index.ts (kebab-cased) is a folder in apps/api/src/modules/, and
//     every module folder and web feature folder is such an area (or named in NOT_AREAS);
//  9. a web source file importing the `contract` table itself (not as a type): it builds every
//     call's zod schemas, so each page would load and run them all; calls go through the
//     zod-free `calls` table of @quire/contract/calls.
// `node scripts/check-layers.mjs [root]` checks another tree (apps/api/test/check-layers.test.ts).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = process.argv[2] ? path.resolve(process.argv[2]) : path.resolve(import.meta.dirname, '..');
const skip = new Set(['node_modules', 'dist', 'generated', '.turbo', '.data', 'test-results']);

function* walk(dir) {
  for (const name of readdirSync(dir)) {
    if (skip.has(name)) continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* walk(full);
    else if (/\.(ts|tsx|mjs|js)$/.test(name)) yield full;
  }
}

const importRe =
  /(?:import|export)\s[^'"`]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;

function importsOf(file) {
  const text = readFileSync(file, 'utf8');
  const out = [];
  for (const m of text.matchAll(importRe)) {
    const spec = m[1] ?? m[2] ?? m[3];
    const line = text.slice(0, m.index).split('\n').length;
    const resolved = spec.startsWith('.') ? path.resolve(path.dirname(file), spec) : null;
    out.push({ spec, resolved, line });
  }
  return { text, imports: out };
}

const problems = [];
const rel = (f) => path.relative(root, f);
const apiModules = path.join(root, 'apps/api/src/modules');
const webFeatures = path.join(root, 'apps/web/src/features');
const moduleOf = (f) => (f.startsWith(apiModules + path.sep) ? rel(f).split('/')[4] : null);
const featureOf = (f) => (f.startsWith(webFeatures + path.sep) ? rel(f).split('/')[4] : null);

const webSrc = path.join(root, 'apps/web/src');
/** The source file an import names (`./x.js` is `./x.ts` in TypeScript); null outside the tree. */
function sourceOf(from, spec) {
  let base;
  if (spec.startsWith('.')) base = path.resolve(path.dirname(from), spec);
  else if (spec.startsWith('@/') && from.startsWith(webSrc + path.sep))
    base = path.join(webSrc, spec.slice(2));
  else return null;
  const stem = base.replace(/\.(js|mjs|jsx)$/, '');
  const candidates = [
    base,
    `${stem}.ts`,
    `${stem}.tsx`,
    `${stem}.mjs`,
    `${stem}.js`,
    path.join(base, 'index.ts'),
    path.join(base, 'index.tsx'),
  ];
  return (
    candidates.find((c) => graph.has(c)) ??
    candidates.find((c) => existsSync(c) && statSync(c).isFile()) ??
    null
  );
}

// A service's own Prisma calls: `<tx|db|deps.db|…>.<model>.<method>(` or `$queryRaw`-style
// calls; `$transaction` is the service's to open.
const prismaCallRe =
  /\b(?:tx|db|deps\.db|this\.db)\s*\.\s*(?:([a-z][A-Za-z0-9]*)\s*\.\s*[a-zA-Z]+\s*\(|(\$(?:queryRaw|executeRaw|queryRawUnsafe|executeRawUnsafe))\b)/g;

// A value import from the contract package's index (`import type { … }` is not one).
const contractImportRe = /^import\s*\{([^}]*)\}\s*from\s*['"]@quire\/contract['"]/gm;

/** Every source file, with the source files it imports. */
const graph = new Map();

for (const dir of ['apps', 'packages', 'scripts', 'e2e']) {
  let files;
  try {
    files = [...walk(path.join(root, dir))];
  } catch {
    continue;
  }
  for (const file of files) {
    const { text, imports } = importsOf(file);
    const name = path.basename(file);
    const mod = moduleOf(file);
    const feature = featureOf(file);
    for (const { spec, resolved, line } of imports) {
      const where = `${rel(file)}:${line}`;
      if (mod && name.endsWith('.routes.ts')) {
        if (spec === '@quire/db' || spec.startsWith('@quire/db/'))
          problems.push(`${where}: a route imports the db package (${spec}); call a service`);
        if (/\.repository(\.js)?$/.test(spec))
          problems.push(`${where}: a route imports a repository (${spec}); call a service`);
      }
      if (
        mod &&
        /\.(service|repository)\.ts$/.test(name) &&
        (spec === 'fastify' || spec.startsWith('@fastify/'))
      ) {
        problems.push(`${where}: a service or repository imports ${spec}; services never touch HTTP`);
      }
      if (
        mod &&
        resolved &&
        /\.repository(\.js)?$/.test(spec) &&
        moduleOf(resolved) &&
        moduleOf(resolved) !== mod
      ) {
        problems.push(
          `${where}: module "${mod}" imports the repository of "${moduleOf(resolved)}"; use its service`,
        );
      }
      if (feature) {
        const other = resolved ? featureOf(resolved) : (spec.match(/^@\/features\/([^/]+)/)?.[1] ?? null);
        if (other && other !== feature)
          problems.push(`${where}: feature "${feature}" imports feature "${other}"`);
      }
    }
    const envAllowed =
      rel(file) === 'apps/api/src/config.ts' ||
      rel(file).startsWith('scripts/') ||
      rel(file).startsWith('e2e/') ||
      rel(file).startsWith('packages/db/') ||
      /\.config\.(ts|mjs|js)$/.test(name) ||
      /(^|\/)(test|bench)\//.test(rel(file));
    if (!envAllowed && /process\.env\b/.test(text)) {
      problems.push(`${rel(file)}: reads process.env; read configuration in apps/api/src/config.ts`);
    }
    if (file.startsWith(webSrc + path.sep) && !/\.test\.tsx?$/.test(name)) {
      for (const m of text.matchAll(contractImportRe)) {
        const names = m[1].split(',').map((s) => s.trim());
        if (!names.includes('contract')) continue;
        const line = text.slice(0, m.index).split('\n').length;
        problems.push(
          `${rel(file)}:${line}: imports the contract table, which builds every schema; use calls from @quire/contract/calls`,
        );
      }
    }
    if (mod && name.endsWith('.service.ts')) {
      for (const m of text.matchAll(prismaCallRe)) {
        const line = text.slice(0, m.index).split('\n').length;
        problems.push(
          `${rel(file)}:${line}: a service calls Prisma (${m[1] ?? m[2]}); put the query in the area's repository`,
        );
      }
    }
    graph.set(file, imports);
  }
}

// Loops of imports: the strongly connected components of the import graph (Tarjan), each
// reported once as one loop through it.
const edges = new Map();
for (const [file, imports] of graph) {
  const to = new Set();
  for (const { spec } of imports) {
    const target = sourceOf(file, spec);
    if (target && graph.has(target)) to.add(target);
  }
  edges.set(file, [...to]);
}
const index = new Map();
const low = new Map();
const onStack = new Set();
const stack = [];
let counter = 0;
const components = [];
function connect(v) {
  index.set(v, counter);
  low.set(v, counter);
  counter += 1;
  stack.push(v);
  onStack.add(v);
  for (const w of edges.get(v)) {
    if (!index.has(w)) {
      connect(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
  }
  if (low.get(v) === index.get(v)) {
    const component = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || edges.get(v).includes(v)) components.push(component);
  }
}
for (const v of [...edges.keys()].sort()) if (!index.has(v)) connect(v);
for (const component of components) {
  // One loop through the component: from its first file, follow imports inside it until a
  // file repeats.
  const inside = new Set(component);
  const start = [...component].sort()[0];
  const trail = [start];
  const seen = new Map([[start, 0]]);
  for (;;) {
    const next = edges
      .get(trail[trail.length - 1])
      .filter((w) => inside.has(w))
      .sort()[0];
    if (seen.has(next)) {
      const loop = [...trail.slice(seen.get(next)), next].map(rel);
      problems.push(`an import loop: ${loop.join(' -> ')}`);
      break;
    }
    seen.set(next, trail.length);
    trail.push(next);
  }
}

// One name per area on all three sides.
const NOT_AREAS = {
  api: { account: 'sign-in state (sessions, throttle, recovery codes) that auth and user share' },
  web: { landing: 'the public home page, which calls nothing' },
};
const contractIndex = path.join(root, 'packages/contract/src/index.ts');
if (existsSync(contractIndex)) {
  const block =
    readFileSync(contractIndex, 'utf8').match(/export const contract = \{([\s\S]*?)\n\}/)?.[1] ?? '';
  const areas = new Set(
    [...block.matchAll(/^\s{2}([a-zA-Z]+):/gm)].map((m) =>
      m[1].replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`),
    ),
  );
  const folders = (dir) =>
    existsSync(dir) ? readdirSync(dir).filter((n) => statSync(path.join(dir, n)).isDirectory()) : [];
  const modules = folders(apiModules);
  if (modules.length) {
    for (const area of areas)
      if (!modules.includes(area))
        problems.push(`the contract area "${area}" has no folder apps/api/src/modules/${area}`);
  }
  for (const name of modules)
    if (!areas.has(name) && !(name in NOT_AREAS.api))
      problems.push(`apps/api/src/modules/${name} is not a contract area; name it after one`);
  for (const name of folders(webFeatures))
    if (!areas.has(name) && !(name in NOT_AREAS.web))
      problems.push(`apps/web/src/features/${name} is not a contract area; name it after one`);
}

if (problems.length) {
  console.error(`Layering rules broken (${problems.length}):\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.info('Layering rules: ok');
