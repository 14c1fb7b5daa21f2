import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { collectOutput } from '../../../scripts/child-output.mjs';

const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Runs one of apps/api/scripts with tsx and extra environment; answers its exit code and output. */
export function runScript(
  script: string,
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join('scripts', script)], {
      cwd: apiDir,
      env: { ...process.env, LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output = collectOutput(child);
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output: output() }));
  });
}
