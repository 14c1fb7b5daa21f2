import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/prisma/client.js';

export type Db = PrismaClient;

const urls = new WeakMap<Db, string>();

/** One Prisma client over a node-postgres pool; the caller disconnects it. */
export function createDb(databaseUrl: string, options: { poolSize?: number } = {}): Db {
  const adapter = new PrismaPg({ connectionString: databaseUrl, max: options.poolSize ?? 10 });
  const db = new PrismaClient({ adapter });
  urls.set(db, databaseUrl);
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
