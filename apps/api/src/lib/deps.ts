import type { Db } from '@quire/db';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';

/** What every module gets, once, from buildApp. Tests pass their own clock or config. */
export interface Deps {
  db: Db;
  config: Config;
  log: FastifyBaseLogger;
  now: () => Date;
}

/** A Prisma client or the client of an open transaction: repositories take either. */
export type Tx = Parameters<Parameters<Db['$transaction']>[0]>[0];
