import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from './generated/prisma/client.js';

export type Db = PrismaClient;

const urls = new WeakMap<Db, string>();
const pools = new WeakMap<Db, pg.Pool>();

/**
 * One Prisma client over a node-postgres pool; the caller disconnects it (which also ends
 * the pool). The pool is the client's own: `poolOf(db)` gives it to the few hot paths that
 * run one fixed statement on every request (the session lookup), where Prisma's query
 * building costs more than the query.
 */
export function createDb(databaseUrl: string, options: { poolSize?: number } = {}): Db {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: options.poolSize ?? 10 });
  // An idle connection the server ended (PostgreSQL restarted or killed): the pool has
  // already dropped it and opens a new one for the next query. Without a listener the
  // event would end the process.
  pool.on('error', () => {});
  const db = new PrismaClient({ adapter: new PrismaPg(pool) });
  const disconnect = db.$disconnect.bind(db);
  Object.defineProperty(db, '$disconnect', {
    value: async () => {
      await disconnect();
      if (!pool.ended) await pool.end();
    },
  });
  urls.set(db, databaseUrl);
  pools.set(db, pool);
  return db;
}

/**
 * The URL a client made by createDb connects to: for a connection of its own beside the pool
 * (LISTEN for the job runner's wake-ups, which a pooled connection cannot hold).
 */
export function databaseUrlOf(db: Db): string {
  const url = urls.get(db);
  if (!url) throw new Error('This database client was not made by createDb');
  return url;
}

/** Whether `db` is a client made by createDb itself (not a transaction's client, which has no pool). */
export function hasPool(db: unknown): db is Db {
  return pools.has(db as Db);
}

/** The node-postgres pool behind a client made by createDb (shared, never ended by the caller). */
export function poolOf(db: Db): pg.Pool {
  const pool = pools.get(db);
  if (!pool) throw new Error('This database client was not made by createDb');
  return pool;
}
