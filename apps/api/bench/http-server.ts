// A server for the HTTP load benchmark (bench/http.ts), one per child process:
//   quire <port> <databaseUrl> <dataDir>   the real app (buildApp), as `pnpm start` runs it
//   bare  <port> <databaseUrl>             a bare Fastify over plain `pg` answering the same
//                                          two calls with the same SQL statements (imported
//                                          from Quire's repositories): the baseline
// Prints "listening" when ready.
import { createHash } from 'node:crypto';
import type { TUsersQuery } from '@quire/contract';
import { createDb } from '@quire/db';
import Fastify from 'fastify';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { sqlTypes } from '../src/lib/sql.js';
import { sessionByTokenHashSql } from '../src/modules/account/account.repository.js';
import { usersPageSql } from '../src/modules/user/user.repository.js';

const [mode, portText, databaseUrl, dataDir] = process.argv.slice(2);
const port = Number(portText);

if (mode === 'quire') {
  const config = loadConfig({
    DATA_DIR: dataDir ?? '/tmp',
    PORT: String(port),
    LOG_LEVEL: 'info', // as `pnpm start` runs: a log line per request (stdout goes nowhere here)
    QUIRE_ROLE: 'api',
    LOGIN_RATE_LIMIT: '1000000',
  });
  const db = createDb(databaseUrl as string);
  const app = await buildApp({ config, db });
  await app.listen({ port, host: '127.0.0.1' });
} else {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  const app = Fastify({ logger: false });
  const session = async (authorization: string | undefined) => {
    const token = authorization?.replace(/^Bearer /, '') ?? '';
    const hash = createHash('sha256').update(token).digest('hex');
    const sql = sessionByTokenHashSql(hash);
    const { rows } = await pool.query({
      name: 'session',
      text: sql.text,
      values: sql.values,
      types: sqlTypes,
    });
    return rows[0];
  };
  app.get('/api/check-session', async (req) => {
    const s = await session(req.headers.authorization);
    return { data: { authenticated: Boolean(s), expires_at: s?.expires_at } };
  });
  app.get('/api/users/all', async (req) => {
    await session(req.headers.authorization);
    const q = req.query as { page?: string; quantity?: string };
    const sql = usersPageSql({
      page: Number(q.page ?? 1),
      quantity: Number(q.quantity ?? 20),
    } as TUsersQuery);
    const [count, page] = await Promise.all([
      pool.query({ text: sql.count.text, values: sql.count.values, types: sqlTypes }),
      pool.query({ text: sql.page.text, values: sql.page.values, types: sqlTypes }),
    ]);
    return { data: { users: page.rows, total: count.rows[0].total } };
  });
  await app.listen({ port, host: '127.0.0.1' });
}
process.stdout.write('listening\n');

// Stop cleanly on SIGTERM, so a CPU profile (--cpu-prof) is written.
process.on('SIGTERM', () => process.exit(0));
