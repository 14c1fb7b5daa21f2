// pnpm bench — figures as ratios against a baseline measured in the same process, never
// as pass/fail timings. Runs the real app on a throw-away embedded PostgreSQL.
//
//   pipeline overhead: GET /api/check-session (token lookup, guard, serializer) against
//                      GET /api/health (one SELECT 1) on the same server
//   login:             POST /api/login (argon2 verify + session + audit) against the same
//                      baseline; argon2 dominates by design
//   user list:         GET /api/users/all (page of 20, with groups) and a search, with 5,000
//                      users in the table
import { createUser, loginAs, TEST_PASSWORD } from '../test/factories.js';
import { startBenchApp } from './bench-app.js';
import { addBenchUsers } from './data.js';

const bench = await startBenchApp('run');
try {
  const { db, app } = bench;
  const admin = await createUser(db, { accessType: 'COMPANY ADMIN' });
  const token = await loginAs(app, admin);

  async function measure(label: string, n: number, fn: () => Promise<unknown>) {
    for (let i = 0; i < Math.min(50, n); i++) await fn(); // warm-up
    const start = process.hrtime.bigint();
    for (let i = 0; i < n; i++) await fn();
    const ns = Number(process.hrtime.bigint() - start);
    return { label, n, perOpMs: ns / n / 1e6 };
  }

  const health = () => app.inject({ method: 'GET', url: '/api/health' });
  const check = () =>
    app.inject({ method: 'GET', url: '/api/check-session', headers: { authorization: `Bearer ${token}` } });
  const login = () =>
    app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: admin.username, password: TEST_PASSWORD, role: 'admin' },
    });

  const rows = [];
  const baseline = await measure('baseline GET /api/health', 2000, health);
  rows.push(baseline);
  rows.push(await measure('GET /api/check-session', 2000, check));
  rows.push(await measure('POST /api/login', 100, login));

  await addBenchUsers(db);
  const auth = { authorization: `Bearer ${token}` };
  rows.push(
    await measure('GET /api/users/all (5,000 users)', 300, () =>
      app.inject({ method: 'GET', url: '/api/users/all?page=3&quantity=20', headers: auth }),
    ),
  );
  rows.push(
    await measure('  … search "last42"', 300, () =>
      app.inject({ method: 'GET', url: '/api/users/all?search=last42', headers: auth }),
    ),
  );

  console.info('\nQuire benchmark (in-process, app.inject; lower ratio is better)\n');
  console.info(`${'call'.padEnd(30)} ${'n'.padStart(6)} ${'ms/op'.padStart(9)} ${'x baseline'.padStart(11)}`);
  for (const r of rows) {
    console.info(
      `${r.label.padEnd(30)} ${String(r.n).padStart(6)} ${r.perOpMs.toFixed(3).padStart(9)} ${(r.perOpMs / baseline.perOpMs).toFixed(2).padStart(11)}`,
    );
  }
} finally {
  await bench.close();
}
