import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/prisma/client.js';

export type Db = PrismaClient;

/** One Prisma client over a node-postgres pool; the caller disconnects it. */
export function createDb(databaseUrl: string, options: { poolSize?: number } = {}): Db {
  const adapter = new PrismaPg({ connectionString: databaseUrl, max: options.poolSize ?? 10 });
  return new PrismaClient({ adapter });
}
