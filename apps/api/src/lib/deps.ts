import type { Db } from '@quire/db';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Background } from './background.js';
import type { BlobStore } from './blob-store.js';
import type { ObjectGuards } from './object-guards.js';

/** What every module gets, once, from buildApp. Tests pass their own clock or config. */
export interface Deps {
  db: Db;
  config: Config;
  log: FastifyBaseLogger;
  now: () => Date;
  /** File contents (signatures, logos, file versions). */
  blobs: BlobStore;
  /** Backup archives, when BACKUP_DIR gives them a folder of their own (else in `blobs`). */
  backups?: BlobStore;
  /** Encrypts secrets at rest (lib/secrets.ts). */
  secretKey: Buffer;
  /** "May this caller act on this object?", one check per kind, registered by the areas. */
  objectGuards: ObjectGuards;
  /** Work run after a call has been answered (lib/background.ts). */
  background: Background;
}

/** A Prisma client or the client of an open transaction: repositories take either. */
export type Tx = Parameters<Parameters<Db['$transaction']>[0]>[0];

/**
 * The options of a transaction that writes a whole import (thousands of users or value-list
 * items): Prisma's defaults (2 s to start, 5 s to finish) end a large one on a busy machine,
 * which answered 500 after the work was done.
 */
export const BULK_TX = { maxWait: 10_000, timeout: 120_000 };

/**
 * The options of an upload's transaction (an attachment, a file an intake source takes): it
 * writes rows only, its content in the store and synced before it starts. Under load it may
 * wait for a pooled connection or for another upload's commit (the same content's blob row);
 * waiting is not a failure, so it has longer than Prisma's defaults.
 */
export const UPLOAD_TX = { maxWait: 30_000, timeout: 30_000 };
