import type { Db } from '@quire/db';
import { loadConfig } from '../src/config.js';
import { createBackground } from '../src/lib/background.js';
import type { BlobStore } from '../src/lib/blob-store.js';
import type { Deps } from '../src/lib/deps.js';
import type { JobDefinition } from '../src/lib/jobs/definition.js';
import { createJobRunner, type JobRunnerOptions } from '../src/lib/jobs/runner.js';
import { ObjectGuards } from '../src/lib/object-guards.js';
import { loadSecretKey } from '../src/lib/secrets.js';
import type { TestContext } from './app.js';

// Job runners for tests, beside the app's own (app.jobs): each with the kinds, clock and
// database client of the test's choosing, as a second server would have.
//
//   const runner = testRunner(t, [myKind], { now: () => clock });
//   await runner.runDue();                      // runs what is due, to the end
//   await runner.start(); … await runner.stop(); // in the background, woken by NOTIFY

export const TEST_APP_SECRET = 'jobs-tests-secret-0123456789';

export function testDeps(
  t: TestContext,
  options: { now?: () => Date; db?: Db; blobs?: BlobStore; appSecret?: string } = {},
): Deps {
  const appSecret = options.appSecret ?? TEST_APP_SECRET;
  return {
    db: options.db ?? t.db,
    config: loadConfig({ LOG_LEVEL: 'silent', APP_SECRET: appSecret, SMTP_ALLOW_PRIVATE_HOSTS: 'true' }),
    log: t.app.log,
    now: options.now ?? (() => new Date()),
    blobs: options.blobs ?? (undefined as never),
    secretKey: loadSecretKey(appSecret, '/nonexistent'),
    objectGuards: new ObjectGuards(),
    background: createBackground(t.app.log),
  };
}

export function testRunner(
  t: TestContext,
  definitions: JobDefinition[],
  options: Partial<JobRunnerOptions> & { now?: () => Date; db?: Db; blobs?: BlobStore } = {},
) {
  const { now, db, blobs, ...rest } = options;
  return createJobRunner(testDeps(t, { now, db, blobs }), {
    pollMs: 60_000,
    listen: false,
    definitions,
    ...rest,
  });
}
