import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';

// Starts the real app in a process of its own (test/upload-server-child.ts) on a free
// loopback port: a server that a test can kill, or one of several on one database.

export interface ChildServer {
  proc: ChildProcess;
  port: number;
  /** http://127.0.0.1:<port> */
  url: string;
  /** SIGTERM, then the process's end (SIGKILL after 10 s). */
  stop(): Promise<void>;
}

export function startChildServer(
  databaseUrl: string,
  dataDir: string,
  /** Configuration variables for the child (QUIRE_ROLE, STORAGE, S3_*, …). */
  config: Record<string, string> = {},
): Promise<ChildServer> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'test/upload-server-child.ts'], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: {
      ...process.env,
      CHILD_DATABASE_URL: databaseUrl,
      CHILD_DATA_DIR: dataDir,
      CHILD_CONFIG: JSON.stringify(config),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error('the child server did not start in 120 s'));
    }, 120_000);
    createInterface({ input: proc.stdout! }).on('line', (line) => {
      if (process.env.CHILD_LOG_LEVEL) process.stderr.write(`child ${proc.pid}: ${line}\n`);
      const m = /^listening (\d+)$/.exec(line);
      if (m) {
        clearTimeout(timer);
        const port = Number(m[1]);
        resolve({ proc, port, url: `http://127.0.0.1:${port}`, stop });
      }
    });
    proc.once('exit', (code) => reject(new Error(`the child server exited (${code})`)));
  });
}
