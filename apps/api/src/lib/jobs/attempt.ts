import { z } from 'zod';
import type { Deps, Tx } from '../deps.js';
import {
  defaultBackoffMs,
  describeError,
  JobDeferred,
  type JobDefinition,
  type JobOutcome,
} from './definition.js';
import * as repo from './repository.js';

// One attempt at a claimed job (runner.ts claims it and keeps its slot): the payload checked,
// the kind's handler run under its time limit and the stop signal, and the outcome recorded
// (done; queued again after the back-off, or failed at the last attempt; deferred without
// counting the attempt), the kind's onFailure in the same transaction.

const DEFAULT_TIMEOUT_MS = 10 * 60_000;
export const STOP_MESSAGE = 'Interrupted by a server stop; retrying';

/** What a run of the runner did, by outcome. */
export interface RunSummary {
  done: number;
  retried: number;
  failed: number;
  deferred: number;
  recovered: number;
}

class JobStopped extends Error {
  override name = 'JobStopped';
}
class JobTimedOut extends Error {
  override name = 'JobTimedOut';
}

export const newSummary = (): RunSummary => ({ done: 0, retried: 0, failed: 0, deferred: 0, recovered: 0 });

/** Records an attempt that did not succeed, and lets the kind mirror it, in one transaction. */
export async function settle(
  deps: Deps,
  def: JobDefinition | undefined,
  job: repo.ClaimedJob,
  outcome: JobOutcome,
  tx?: Tx,
): Promise<boolean> {
  const write = async (t: Tx) => {
    if (!(await repo.settle(t, job, outcome, deps.now()))) return false;
    const payload = def?.payload.safeParse(job.payload);
    if (def?.onFailure && payload?.success)
      await def.onFailure(t, { id: job.id, payload: payload.data }, outcome);
    return true;
  };
  return tx ? write(tx) : deps.db.$transaction(write);
}

/** The outcome of a failed attempt number `attempts`: retry after the back-off, or give up. */
export function failure(
  deps: Deps,
  def: JobDefinition | undefined,
  job: repo.ClaimedJob,
  error: string,
): JobOutcome {
  const now = deps.now();
  return job.attempts >= job.maxAttempts
    ? { status: 'failed', attempts: job.attempts, runAt: now, error }
    : {
        status: 'queued',
        attempts: job.attempts,
        runAt: new Date(now.getTime() + (def?.backoffMs ?? defaultBackoffMs)(job.attempts)),
        error,
      };
}

export async function execute(
  deps: Deps,
  def: JobDefinition,
  job: repo.ClaimedJob,
  signal: AbortSignal,
  summary: RunSummary,
) {
  const log = deps.log;
  const parsed = def.payload.safeParse(job.payload);
  if (!parsed.success) {
    const error = `The payload does not fit a ${def.kind} job: ${z.prettifyError(parsed.error)}`.slice(
      0,
      1000,
    );
    const giveUp: JobOutcome = { status: 'failed', attempts: job.attempts, runAt: deps.now(), error };
    if (await settle(deps, def, job, giveUp)) summary.failed += 1;
    log.error({ jobId: String(job.id), kind: job.kind, err: error }, 'job failed: bad payload');
    return;
  }
  const timeoutMs = def.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const controller = new AbortController();
  const onStop = () => controller.abort(new JobStopped(STOP_MESSAGE));
  signal.addEventListener('abort', onStop, { once: true });
  const timer = setTimeout(
    () => controller.abort(new JobTimedOut(`Timed out after ${Math.round(timeoutMs / 1000)} s`)),
    timeoutMs,
  );
  const aborted = new Promise<never>((_, reject) => {
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
  });
  aborted.catch(() => {});
  try {
    const run = def.run(
      {
        id: job.id,
        kind: job.kind,
        payload: parsed.data,
        attempts: job.attempts,
        maxAttempts: job.maxAttempts,
        signal: controller.signal,
      },
      deps,
    );
    await Promise.race([run, aborted]);
    if (await repo.finish(deps.db, job, deps.now())) summary.done += 1;
    else log.warn({ jobId: String(job.id), kind: job.kind }, 'job finished after it was taken back');
  } catch (err) {
    const now = deps.now();
    let outcome: JobOutcome;
    let counter: keyof RunSummary;
    if (err instanceof JobDeferred) {
      outcome = {
        status: 'queued',
        attempts: job.attempts - 1,
        runAt: new Date(now.getTime() + err.delayMs),
        error: err.message,
      };
      counter = 'deferred';
    } else if (err instanceof JobStopped) {
      outcome = { status: 'queued', attempts: job.attempts - 1, runAt: now, error: STOP_MESSAGE };
      counter = 'deferred';
    } else {
      const error = err instanceof JobTimedOut ? err.message : (def.describeError ?? describeError)(err);
      outcome = failure(deps, def, job, error);
      counter = outcome.status === 'failed' ? 'failed' : 'retried';
      log.warn(
        {
          jobId: String(job.id),
          kind: job.kind,
          attempts: job.attempts,
          giveUp: counter === 'failed',
          err: error,
        },
        'job attempt failed',
      );
    }
    if (await settle(deps, def, job, outcome)) summary[counter] += 1;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onStop);
  }
}
