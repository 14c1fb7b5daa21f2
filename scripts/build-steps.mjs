// What `pnpm start` and `pnpm build:deploy` build before they run: the web client
// (apps/web/dist) and the server (apps/api/dist), each only when one of its inputs is newer
// than its output (as make decides), so a second start spends milliseconds here, not the
// second or more that asking Turborepo costs. Each step prints a line when it starts and
// one with its elapsed seconds when it ends, so a first start never looks hung.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { collectOutput } from './child-output.mjs';

const SKIP = new Set(['node_modules', 'dist', '.turbo', 'coverage', 'test-results']);

/** The newest modification time under `target` (a file or a folder), in ms; 0 when absent. */
function newest(target) {
  let stat;
  try {
    stat = statSync(target);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs; // a file removed from the folder changes the folder's time
  for (const entry of readdirSync(target, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    latest = Math.max(latest, newest(path.join(target, entry.name)));
  }
  return latest;
}

/** The two builds, in order, with what each reads and the file it writes last. */
export function buildSteps(root) {
  const at = (...parts) => path.join(root, ...parts);
  return [
    {
      name: 'the web client',
      dir: at('apps/web'),
      output: at('apps/web/dist/index.html'),
      inputs: [at('apps/web'), at('packages/contract'), at('pnpm-lock.yaml')],
    },
    {
      name: 'the server',
      dir: at('apps/api'),
      output: at('apps/api/dist/server.mjs'),
      inputs: [at('apps/api/src'), at('apps/api/build.mjs'), at('apps/api/package.json'), at('packages')],
    },
  ];
}

/** The steps whose output is missing or older than one of their inputs. */
export function staleSteps(root) {
  return buildSteps(root).filter((step) => {
    if (!existsSync(step.output)) return true;
    const built = statSync(step.output).mtimeMs;
    return step.inputs.some((input) => newest(input) > built);
  });
}

const seconds = (since) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/** Runs a package's `build` script as pnpm would (its node_modules/.bin first on PATH). */
function runBuild(root, step) {
  const script = JSON.parse(readFileSync(path.join(step.dir, 'package.json'), 'utf8')).scripts.build;
  const bins = [path.join(step.dir, 'node_modules/.bin'), path.join(root, 'node_modules/.bin')];
  const env = {
    ...process.env,
    PATH: [...bins, path.dirname(process.execPath), process.env.PATH].join(path.delimiter),
  };
  return new Promise((resolve) => {
    const child = spawn(script, { cwd: step.dir, env, shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = collectOutput(child);
    child.on('close', (code) => resolve({ code, output: output() }));
    child.on('error', (err) => resolve({ code: 1, output: String(err) }));
  });
}

/**
 * Builds what is stale, printing a line per step. Returns false (after printing the step's
 * output) when a build fails.
 */
export async function buildWhatIsStale(root, log = (line) => console.info(line)) {
  const started = performance.now();
  const stale = staleSteps(root);
  for (const step of stale) {
    const stepStarted = performance.now();
    log(`Quire: building ${step.name} (${path.relative(root, step.dir)}) …   [${seconds(started)}]`);
    const { code, output } = await runBuild(root, step);
    if (code !== 0 || !existsSync(step.output)) {
      process.stderr.write(output);
      log(`Quire: building ${step.name} failed after ${seconds(stepStarted)} (its output is above).`);
      return false;
    }
    log(`Quire: built ${step.name} in ${seconds(stepStarted)}   [${seconds(started)}]`);
  }
  return true;
}
