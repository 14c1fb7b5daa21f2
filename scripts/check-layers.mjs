#!/usr/bin/env node
// The layering rules, as a lint step (`pnpm lint`). Biome has no per-folder import
// boundaries, so this reads every import in the tree and fails on:
//  1. an API route file (modules/*/*.routes.ts) importing the db package or a repository;
//  2. an API service or repository importing fastify (services never touch HTTP);
//  3. an API module importing another module's repository (go through its service);
//  4. one web feature importing another (shared code lives in src/components or src/lib);
//  5. process.env read outside apps/api/src/config.ts (configuration is read once).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
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
  }
}

if (problems.length) {
  console.error(`Layering rules broken (${problems.length}):\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.info('Layering rules: ok');
