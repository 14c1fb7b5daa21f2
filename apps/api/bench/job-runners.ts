import { createDb, type Db } from '@quire/db';
import {
  type Runner as GraphileRunner,
  Logger,
  makeWorkerUtils,
  runMigrations as migrateGraphile,
  parseCronItems,
  run as runGraphile,
} from 'graphile-worker';
import { PgBoss } from 'pg-boss';
import pino from 'pino';
import { z } from 'zod';
import type { Deps } from '../src/lib/deps.js';
import type { JobDefinition } from '../src/lib/jobs/definition.js';
import { enqueueMany, type JobKind } from '../src/lib/jobs/queue.js';
import { createJobRunner, type JobRunner } from '../src/lib/jobs/runner.js';

const RETRY_BACKOFF_S = 1;

/** The payload of every bench job: its number. Cron jobs carry what the library gives them. */
export interface Payload {
  n: number;
}
export type Handler = (payload: Payload, instance: number) => Promise<void>;
interface Started {
  stop(): Promise<void>;
}
export interface Contender {
  name: string;
  /** Two instances, each with a pool of its own, working on these queues (and the cron, if any). */
  start(
    queues: Record<string, Handler>,
    options?: { cron?: Array<{ queue: string; expression: string }> },
  ): Promise<Started>;
  /** Adds the jobs in one commit. */
  add(queue: string, payloads: Payload[], options?: { maxAttempts?: number }): Promise<void>;
  close(): Promise<void>;
}

const QUEUES = ['bench_noop', 'bench_work', 'bench_latency', 'bench_retry', 'bench_cron', 'bench_cron_s'];

// ---- ours: createJobRunner on the `jobs` table ------------------------------------------------

export function ours(url: string, concurrency: number): Contender {
  const log = pino({ level: 'silent' });
  const admin = createDb(url, { poolSize: 2 });
  const anyPayload = z.looseObject({});
  return {
    name: 'ours',
    async start(queues, options = {}) {
      const instances: Array<{ db: Db; runner: JobRunner }> = [];
      for (const instance of [0, 1]) {
        const db = createDb(url);
        const deps = { db, log, now: () => new Date() } as unknown as Deps;
        const definitions: JobDefinition[] = Object.entries(queues).map(([kind, handler]) => ({
          kind,
          payload: anyPayload,
          run: (job) => handler(job.payload as unknown as Payload, instance),
          concurrency: concurrency,
          backoffMs: (attempts) => RETRY_BACKOFF_S * 1000 * 2 ** (attempts - 1),
        }));
        const runner = createJobRunner(deps, {
          definitions,
          schedules: (options.cron ?? []).map((c) => ({
            name: c.queue,
            kind: c.queue as JobKind,
            cron: c.expression,
          })),
          pollMs: 30_000, // JOBS_POLL_MS's default
        });
        await runner.start();
        instances.push({ db, runner });
      }
      return {
        async stop() {
          for (const { db, runner } of instances) {
            await runner.stop();
            await db.$disconnect();
          }
        },
      };
    },
    async add(queue, payloads, options = {}) {
      // One statement for the lot (enqueueMany), as pg-boss's and graphile-worker's bulk adds.
      await admin.$transaction(
        (tx) =>
          enqueueMany(
            tx,
            payloads.map((p) => ({ kind: queue as JobKind, payload: p as never })),
            options,
          ),
        { timeout: 600_000 },
      );
    },
    close: () => admin.$disconnect(),
  };
}

// ---- pg-boss ----------------------------------------------------------------------------------

export async function pgBoss(url: string, concurrency: number): Promise<Contender> {
  const schema = 'pgboss';
  const make = () => {
    const boss = new PgBoss({
      connectionString: url,
      schema,
      useListenNotify: true,
      // Its fastest: look at the schedules every second (default 30 s and 5 s).
      cronMonitorIntervalSeconds: 1,
      cronWorkerIntervalSeconds: 1,
    });
    boss.on('error', (err) => console.error(`pg-boss: ${err.message}`));
    return boss;
  };
  const admin = make();
  await admin.start();
  for (const name of QUEUES)
    await admin.createQueue(name, {
      notify: true,
      retryLimit: 2,
      retryDelay: RETRY_BACKOFF_S,
      retryBackoff: true,
    });
  return {
    name: 'pg-boss',
    async start(queues, options = {}) {
      const bosses: PgBoss[] = [];
      for (const instance of [0, 1]) {
        const boss = make();
        await boss.start();
        for (const [name, handler] of Object.entries(queues))
          await boss.work<Payload>(
            name,
            { batchSize: concurrency, burstWhenBatchFull: true },
            async (jobs) => {
              await Promise.all(jobs.map((job) => handler(job.data, instance)));
            },
          );
        for (const c of options.cron ?? []) await boss.schedule(c.queue, c.expression);
        bosses.push(boss);
      }
      return {
        async stop() {
          for (const boss of bosses) await boss.stop({ graceful: true, timeout: 10_000 });
        },
      };
    },
    async add(queue, payloads, options = {}) {
      const retryLimit = options.maxAttempts === undefined ? undefined : options.maxAttempts - 1;
      await admin.insert(
        queue,
        payloads.map((data) => ({ data, ...(retryLimit === undefined ? {} : { retryLimit }) })),
      );
    },
    close: () => admin.stop({ graceful: false }),
  };
}

// ---- graphile-worker --------------------------------------------------------------------------

export async function graphileWorker(url: string, concurrency: number): Promise<Contender> {
  const schema = 'graphile_worker';
  const logger = new Logger(() => () => {});
  await migrateGraphile({ connectionString: url, schema, logger });
  const utils = await makeWorkerUtils({ connectionString: url, schema, logger });
  return {
    name: 'graphile-worker',
    async start(queues, options = {}) {
      const runners: GraphileRunner[] = [];
      for (const instance of [0, 1]) {
        const runner = await runGraphile({
          connectionString: url,
          schema,
          logger,
          concurrency: concurrency,
          noHandleSignals: true,
          taskList: Object.fromEntries(
            Object.entries(queues).map(([name, handler]) => [
              name,
              (payload: unknown) => handler(payload as Payload, instance),
            ]),
          ),
          parsedCronItems: parseCronItems(
            (options.cron ?? []).map((c) => ({ task: c.queue, match: c.expression, identifier: c.queue })),
          ),
        });
        runners.push(runner);
      }
      return {
        async stop() {
          for (const r of runners) await r.stop();
        },
      };
    },
    async add(queue, payloads, options = {}) {
      await utils.addJobs(
        payloads.map((payload) => ({ identifier: queue, payload, maxAttempts: options.maxAttempts })),
      );
    },
    close: async () => {
      await utils.release();
    },
  };
}
