import type { FastifyBaseLogger } from 'fastify';

/**
 * Work that runs after a call has been answered (the mail and tokens of a password reset, so
 * a known address is answered in the same time as an unknown one). Failures are logged, never
 * thrown; `drain()` waits for whatever is running (the app waits for it when it closes).
 */
export type Background = ReturnType<typeof createBackground>;

export function createBackground(log: FastifyBaseLogger) {
  const running = new Set<Promise<void>>();
  return {
    /** Starts `task` now; its failure is logged with `name`. */
    run(name: string, task: () => Promise<unknown>): void {
      const done: Promise<void> = task()
        .then(() => undefined)
        .catch((err: unknown) => log.error({ err, task: name }, 'background task failed'))
        .finally(() => running.delete(done));
      running.add(done);
    },
    /** Resolves once every task started so far (and any they start) has finished. */
    async drain(): Promise<void> {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}

/** The response a task waits for: Node's, or light-my-request's in tests. */
interface SentResponse {
  writableFinished?: boolean;
  once(event: 'finish' | 'close', listener: () => void): unknown;
}

/** Runs `task` in the background once the response has been sent (or the client went away). */
export function afterReply(
  background: Background,
  response: SentResponse,
  name: string,
  task: () => Promise<unknown>,
): void {
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    background.run(name, task);
  };
  if (response.writableFinished) {
    start();
    return;
  }
  response.once('finish', start);
  response.once('close', start);
}
