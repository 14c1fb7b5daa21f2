// A worker in a process of its own, for tests that kill it mid-job (jobs-crash.test.ts):
//
//   CHILD_DATABASE_URL=… node --import tsx test/job-worker-child.ts
//
// It runs the mail kind and `test.hang` (which says "started <id> <attempt>" on stdout and
// never ends), listening for wake-ups like a real worker, and says "ready <worker id>" once
// it listens.
import { createDb } from '@quire/db';
import Fastify from 'fastify';
import { z } from 'zod';
import { loadConfig } from '../src/config.js';
import { createBackground } from '../src/lib/background.js';
import { defineJob } from '../src/lib/jobs/definition.js';
import { createJobRunner } from '../src/lib/jobs/runner.js';
import { ObjectGuards } from '../src/lib/object-guards.js';
import { loadSecretKey } from '../src/lib/secrets.js';
import { mailSendJob } from '../src/modules/email/email.jobs.js';

declare module '../src/lib/jobs/queue.js' {
  interface JobPayloads {
    'test.hang': { n: number };
  }
}

const url = process.env.CHILD_DATABASE_URL;
if (!url) throw new Error('CHILD_DATABASE_URL is not set');
const secret = 'child-worker-secret-0123456789';
const db = createDb(url, { poolSize: 3 });
const hang = defineJob({
  kind: 'test.hang',
  payload: z.object({ n: z.number() }),
  async run(job) {
    process.stdout.write(`started ${job.id} ${job.attempts}\n`);
    await new Promise(() => {});
  },
});
const runner = createJobRunner(
  {
    db,
    config: loadConfig({ LOG_LEVEL: 'silent', APP_SECRET: secret, SMTP_ALLOW_PRIVATE_HOSTS: 'true' }),
    log: Fastify({ logger: { level: 'warn' } }).log,
    now: () => new Date(),
    objectGuards: new ObjectGuards(),
    background: createBackground(Fastify({ logger: { level: 'warn' } }).log),
    blobs: undefined as never,
    secretKey: loadSecretKey(secret, '/nonexistent'),
  },
  { definitions: [mailSendJob, hang], pollMs: 60_000 },
);
await runner.start();
if (!runner.listening) throw new Error('the child worker could not LISTEN');
process.stdout.write(`ready ${runner.workerId}\n`);
