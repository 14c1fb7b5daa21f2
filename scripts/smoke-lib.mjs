// What the end-to-end start checks share (smoke-start.mjs: a private clone; smoke-deploy.mjs:
// the production folder): a free port, a named check that prints `ok` or `FAIL`, and whether
// a process is still running.
import { readFileSync, realpathSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Runs `fn` as the check `name`, records { name, ok } in `results`, prints a line; rethrows. */
export async function check(results, name, fn) {
  try {
    await fn();
    results.push({ name, ok: true });
    console.info(`  ok    ${name}`);
  } catch (err) {
    results.push({ name, ok: false });
    console.error(
      `  FAIL  ${name}\n        ${String(err?.message ?? err)
        .split('\n')
        .join('\n        ')}`,
    );
    throw err;
  }
}

/** True while `pid` runs (a zombie waiting for its parent to reap it has stopped). */
export function running(pid) {
  try {
    process.kill(pid, 0);
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/**
 * As root with a private folder above DATA_DIR, the embedded cluster lives in
 * /var/lib/quire/clusters/<id> and DATA_DIR/postgres links to it (README): the folder to
 * remove with the temp data, or null. Read it while the link is there.
 */
export function movedClusterOf(dataDir) {
  try {
    const real = realpathSync(path.join(dataDir, 'postgres'));
    return real.startsWith('/var/lib/quire/clusters/') ? real : null;
  } catch {
    return null;
  }
}
