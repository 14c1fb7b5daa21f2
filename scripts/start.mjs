#!/usr/bin/env node
// pnpm start: builds what is not built (scripts/build-steps.mjs: a line per step with its
// elapsed seconds; nothing at all when the builds are newer than their sources), then runs
// the built server (apps/api/dist/server.mjs) in this same process: plain node, no tsx, no
// bundler, no type-check on the way. package.json starts this file with `exec node …`, so
// the process pnpm signals is this one: SIGINT or SIGTERM, to pnpm, to this process or to
// its process group, stops the server and its PostgreSQL (server.ts), with or without a
// terminal. The node flags of the server are those of that `exec node` line.
import './require-node.mjs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildWhatIsStale } from './build-steps.mjs';

const root = path.resolve(import.meta.dirname, '..');
const started = performance.now();

if (!(await buildWhatIsStale(root))) process.exit(1);
if (performance.now() - started > 1000) console.info('Quire: starting the server …');
await import(pathToFileURL(path.join(root, 'apps/api/dist/server.mjs')).href);
