import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueue } from '../src/lib/jobs/queue.js';
import { createTestApp, type TestContext } from './app.js';
import { faultLoopEnv, runFaultLoop } from './fault-loop.js';

// The fault loop (test/fault-loop.ts) inside the API suite: FAULT_ROUNDS rounds (8 here;
// `pnpm fault` runs 50) of the real server killed with SIGKILL during uploads, indexing and
// workflow decisions. FAULT_SEED replays a run (its seed is printed).

const rounds = Number(process.env.FAULT_ROUNDS ?? 8);
const seed = Number(process.env.FAULT_SEED ?? Math.floor(Math.random() * 2 ** 31));

let t: TestContext;
beforeAll(async () => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'quire-fault-'));
  t = await createTestApp(faultLoopEnv(dataDir));
});
afterAll(() => t.close());

describe('the fault loop', () => {
  it('its collector runs with no grace (BLOB_GRACE_MS=0): content stored a moment ago, unnamed, goes', async () => {
    const orphan = await t.app.deps.blobs.put(Buffer.from('stored a moment ago; its upload failed'));
    await t.db.$transaction((tx) => enqueue(tx, 'blobs.collect', {}));
    expect((await t.app.jobs.runDue()).done).toBeGreaterThanOrEqual(1);
    expect(await t.app.deps.blobs.exists(orphan.id)).toBe(false);
  });

  it(`kills the server ${rounds} times mid-work; nothing confirmed is lost, nothing unnamed stays`, {
    timeout: 60_000 + rounds * 30_000,
  }, async () => {
    process.stdout.write(`fault loop: seed ${seed} (FAULT_SEED=${seed} replays it), ${rounds} rounds\n`);
    const summary = await runFaultLoop(t, {
      rounds,
      seed,
      log: process.env.FAULT_VERBOSE ? (line) => process.stdout.write(`${line}\n`) : undefined,
    });
    const starts = summary.startMs;
    process.stdout.write(
      [
        `${summary.rounds} rounds passed in ${(summary.ms / 1000).toFixed(1)} s (seed ${seed})`,
        `  server starts: ${starts.length}, median ${[...starts].sort((a, b) => a - b)[starts.length >> 1]} ms, longest ${Math.max(...starts)} ms`,
        `  answered 2xx before a kill: ${JSON.stringify(summary.confirmed)}`,
        `  cut off by a kill: ${JSON.stringify(summary.cutOff)}`,
        `  unnamed content the collector removed: ${summary.swept}; audit events verified: ${summary.auditEvents}`,
        '',
      ].join('\n'),
    );
    expect(summary.refused).toEqual([]);
    expect(summary.rounds).toBe(rounds);
    // Each kind of call was answered and cut off at least once over the rounds.
    for (const kind of ['upload', 'index', 'edit', 'decide'] as const)
      expect(summary.confirmed[kind], kind).toBeGreaterThan(0);
    expect(Object.values(summary.cutOff).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  });
});
