// What every esbuild bundle of the server shares: `pnpm build` (build.mjs) and the tests'
// child server (test/child-server.ts, which a fault test starts many times) bundle the same
// way, so a test runs the code as production does.
import { globSync } from 'node:fs';
import path from 'node:path';

/** The job children (src/modules/*\/*-child.mjs) as entry points named after their files. */
export function childEntryPoints(cwd) {
  const entries = {};
  for (const child of globSync('src/modules/*/*-child.mjs', { cwd }))
    entries[path.basename(child, '.mjs')] = child;
  return entries;
}

/** ES modules for Node 22.12+, split at each dynamic import(), written as .mjs. */
export const BUNDLE_OPTIONS = {
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22.12',
  outExtension: { '.js': '.mjs' },
  keepNames: true,
};
