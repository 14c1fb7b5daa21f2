#!/usr/bin/env node
// pnpm test: every test runner of the workspace, one after the other, then one line
// `N passed, N failed` summing their counts (a runner that failed without a failed test, or
// could not run, counts as one failure). Exits non-zero when anything failed.
// `pnpm test -- --no-e2e` skips the browser journeys; `--no-start` skips the start of a
// private clone (scripts/smoke-start.mjs: install, start, kill -9, restart, SIGTERM,
// Ctrl-C); `--no-deploy` skips the production folder (scripts/smoke-deploy.mjs: pnpm
// build:deploy, then start it alone, sign in, upload and download a file, SIGTERM).
import './require-node.mjs';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1', FORCE_COLOR: '0' };
const out = mkdtempSync(path.join(os.tmpdir(), 'quire-test-results-'));
const skipE2e = process.argv.includes('--no-e2e');
const skipStart = process.argv.includes('--no-start');
const skipDeploy = process.argv.includes('--no-deploy');

// Every workspace package whose package.json has a `test` script runs Vitest.
const vitestPackages = ['packages/contract', 'packages/db', 'apps/api', 'apps/web'].filter(
  (dir) => JSON.parse(readFileSync(path.join(root, dir, 'package.json'), 'utf8')).scripts?.test,
);

let passed = 0;
let failed = 0;
const broken = [];
// The names of failed tests, repeated just before the summary so the end of a long log says
// which ones (CI keeps only the tail).
const failures = [];

/** A runner's JSON report once it has run; null (and the runner named broken) when it wrote none. */
function reportOf(file, name) {
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
  broken.push(name);
  return null;
}

/** Adds a runner's counts to the totals. */
function count(passedHere, failedHere) {
  passed += passedHere;
  failed += failedHere;
}

function run(label, command, args, cwd, extraEnv = {}) {
  console.info(`\n=== ${label} ===`);
  const result = spawnSync(command, args, { cwd, stdio: 'inherit', env: { ...env, ...extraEnv } });
  return result.status ?? 1;
}

for (const dir of vitestPackages) {
  const file = path.join(out, `${dir.replace(/\//g, '_')}.json`);
  const status = run(
    `vitest: ${dir}`,
    'pnpm',
    ['exec', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${file}`],
    path.join(root, dir),
  );
  const report = reportOf(file, dir);
  if (!report) continue;
  count(report.numPassedTests, report.numFailedTests);
  for (const suite of report.testResults ?? []) {
    const rel = path.relative(root, suite.name);
    for (const test of suite.assertionResults ?? []) {
      if (test.status === 'failed')
        failures.push(`${rel} > ${test.fullName}: ${firstLine(test.failureMessages)}`);
    }
    if (suite.status === 'failed' && !(suite.assertionResults ?? []).some((t) => t.status === 'failed')) {
      failures.push(`${rel}: ${firstLine([suite.message])}`);
    }
  }
  if (status !== 0 && report.numFailedTests === 0) broken.push(dir);
}

if (!skipE2e) {
  const build = run('build for the browser journeys', 'pnpm', ['exec', 'turbo', 'run', 'build'], root);
  if (build !== 0) broken.push('build');
  else {
    const file = path.join(out, 'playwright.json');
    const status = run('playwright: e2e', 'pnpm', ['exec', 'playwright', 'test'], path.join(root, 'e2e'), {
      PLAYWRIGHT_JSON_OUTPUT_NAME: file,
    });
    const report = reportOf(file, 'e2e');
    if (report) {
      const { stats } = report;
      count(stats.expected + (stats.flaky ?? 0), stats.unexpected);
      collectPlaywrightFailures(report.suites ?? []);
      if (status !== 0 && stats.unexpected === 0) broken.push('e2e');
    }
  }
}

/** Runs a smoke script that writes its counts to a JSON file, and adds them up. */
function smoke(label, script, name) {
  const file = path.join(out, `${name}.json`);
  run(label, process.execPath, [path.join(root, script), '--json', file], root);
  const result = reportOf(file, name);
  if (!result) return;
  count(result.passed, result.failed);
  if (result.failed > 0) failures.push(`${label}: see its lines above`);
}

if (!skipStart) smoke('start from a private clone', 'scripts/smoke-start.mjs', 'start');
if (!skipDeploy) smoke('the production folder', 'scripts/smoke-deploy.mjs', 'deploy');

rmSync(out, { recursive: true, force: true });
if (failures.length) {
  console.error('\nFailed tests:');
  for (const line of failures) console.error(`  ${line.slice(0, 400)}`);
}
// A runner that failed without a failed test (unhandled errors, a crash, no report) counts
// as one failure, so the summary never says 0 failed for a run that failed.
if (broken.length)
  console.error(
    `\nRunners that failed without a failed test, or could not run or report (each counted as a failure): ${broken.join(', ')}`,
  );
failed += broken.length;
console.info(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);

function firstLine(messages) {
  const text = (messages ?? []).filter(Boolean).join('\n');
  return text.split('\n').find((line) => line.trim()) ?? '(no message)';
}

function collectPlaywrightFailures(suites) {
  for (const suite of suites) {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status === 'unexpected') {
          const error = test.results?.at(-1)?.error?.message;
          failures.push(`e2e/${spec.file} > ${spec.title}: ${firstLine([error])}`);
        }
      }
    }
    collectPlaywrightFailures(suite.suites ?? []);
  }
}
