import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';

// Work that a hostile file can make endless or huge (reading a PDF's text, decoding an image)
// runs in a child process of its own, never on the event loop that answers requests: the
// child gets a heap limit (--max-old-space-size) and is killed past its time limit, so one
// bad file costs one failed task, never the server. (A worker thread's resourceLimits were
// tried first: a worker that reaches its heap limit can still take the whole server down.)
//
// The child is a plain JavaScript module (it runs the same under tsx, the test runner and a
// built server) that reads one IPC message, answers one message and exits. An answer with an
// `error` field is the child's own failure; any other answer is its result. Typed arrays and
// Buffers cross as they are (advanced serialization).

const TYPE_STRIPPING = process.features.typescript ? [] : ['--experimental-strip-types'];

export interface ChildLimits {
  timeoutMs: number;
  /** The child's heap (old generation), in MiB. */
  memoryMb: number;
  /**
   * The child's whole resident memory, in MiB (WebAssembly memory lives outside the heap):
   * read from /proc every 200 ms where there is one, and the child is killed past it.
   */
  rssMb?: number;
  /** Told the child's highest resident memory seen (MiB), when rssMb is watched. */
  onPeakRss?: (mb: number) => void;
}

/** The resident memory of process `pid` in MiB, from /proc (Linux); null elsewhere. */
function residentMb(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'latin1');
    const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    return kb === undefined ? null : Number(kb) / 1024;
  } catch {
    return null;
  }
}

type ChildFailure = 'timeout' | 'memory' | 'error' | 'stopped' | 'start';

/** Why a child task gave no result: `reason`, and the child's or the system's words in `detail`. */
export class ChildTaskFailed extends Error {
  override name = 'ChildTaskFailed';
  constructor(
    readonly reason: ChildFailure,
    readonly detail: string,
  ) {
    super(`${reason}: ${detail}`);
  }
}

/** Runs the module at `script` (a file path) on `input` in a bounded child process. */
export function runInChild<Out>(script: string, input: unknown, limits: ChildLimits): Promise<Out> {
  return new Promise((resolve, reject) => {
    const child = fork(script, [], {
      // No loader (tsx): the child is plain JavaScript, and may import erasable TypeScript
      // (lib/spreadsheet.ts) through Node's type stripping, on by default from Node 23.6 and
      // behind a flag on Node 22.
      execArgv: [`--max-old-space-size=${limits.memoryMb}`, ...TYPE_STRIPPING],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => {
      if (stderr.length < 4000) stderr += d.toString();
    });
    let settled = false;
    let peak = 0;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(watch);
      if (limits.rssMb !== undefined) limits.onPeakRss?.(peak);
      fn();
      if (child.exitCode === null) child.kill('SIGKILL');
    };
    const fail = (reason: ChildFailure, detail: string) =>
      finish(() => reject(new ChildTaskFailed(reason, detail)));
    const timer = setTimeout(() => fail('timeout', `longer than ${limits.timeoutMs} ms`), limits.timeoutMs);
    const rssMb = limits.rssMb;
    const watch =
      rssMb === undefined
        ? undefined
        : setInterval(() => {
            const mb = child.pid === undefined ? null : residentMb(child.pid);
            if (mb === null) return;
            peak = Math.max(peak, mb);
            if (mb > rssMb) fail('memory', `more than ${rssMb} MiB resident`);
          }, 200);
    child.once('message', (msg: unknown) => {
      const error = (msg as { error?: unknown } | null)?.error;
      if (error !== undefined) fail('error', String(error));
      else finish(() => resolve(msg as Out));
    });
    child.once('error', (err) => fail('start', err.message));
    child.once('exit', (code, signal) =>
      /heap out of memory|heap limit/i.test(stderr)
        ? fail('memory', `more than ${limits.memoryMb} MiB`)
        : fail('stopped', signal ?? `exit ${code}`),
    );
    child.send(input as object);
  });
}
