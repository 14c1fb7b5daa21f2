import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './app.js';
import { person } from './seed.js';

// The audit key is given to each database connection before the pool hands it out
// (keyAuditPool in lib/audit-chain.ts): a query sent while the key's own query still runs
// would wait in the client's queue, which node-postgres deprecates with a warning printed
// to the test run. Warnings are caught from the start of this file, before the app opens
// its first connection.

const warnings: Error[] = [];
const onWarning = (w: Error) => warnings.push(w);
process.on('warning', onWarning);

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  process.off('warning', onWarning);
  await t.close();
});

describe('the database pool', () => {
  it('prints no node-postgres deprecation while new connections are keyed under load', async () => {
    // Many calls at once: the pool (5 connections in tests) opens every connection it has,
    // each handed to a caller that queries at once.
    const { token: admin } = await person(t, { accessType: 'COMPANY ADMIN' });
    const calls = Array.from({ length: 30 }, (_, i) =>
      i % 2
        ? t.app.inject({ method: 'GET', url: '/api/health' })
        : t.app.inject({
            method: 'GET',
            url: '/api/user/current',
            headers: { authorization: `Bearer ${admin}` },
          }),
    );
    for (const res of await Promise.all(calls)) expect(res.statusCode, res.body).toBe(200);
    // The events written on those connections are sealed with the key.
    const last = await t.db.auditEvent.findFirstOrThrow({ orderBy: { seq: 'desc' } });
    expect(last.hash?.startsWith('k1:')).toBe(true);
    await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
    expect(
      warnings.map((w) => `${w.name}: ${w.message}`).filter((m) => /pg@9|client\.query/.test(m)),
    ).toEqual([]);
  });
});
