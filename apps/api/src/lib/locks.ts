import type { Tx } from './deps.js';

/**
 * Every transaction-level advisory lock Quire takes, one key each. A key shared by two kinds of
 * work makes them wait on each other for nothing, or deadlock (a seat check holding the key the
 * audit seal needs at commit). The audit chain's key is taken by the SQL seal itself
 * (`quire_audit_seal` in migration 0011_search) at commit, and by the raise of the category
 * rights epoch before it locks the epoch's row (`quire_category_rights_raise`, migration 0021),
 * so no one waits for that row while holding it; `locks.test.ts` holds them together. The
 * category rights cache's key is SQL's too (`quire_category_rights`, migration 0020): tried with
 * a person's id as the second key, never waited for.
 */
export const ADVISORY_LOCKS = {
  bootstrap: 727361,
  auditChain: 727362,
  backup: 727363,
  seats: 727364,
  categoryTree: 727365,
  categoryRightsCache: 727366,
} as const;

type AdvisoryLock = Exclude<keyof typeof ADVISORY_LOCKS, 'auditChain' | 'categoryRightsCache'>;

/** Takes the named lock until the transaction ends. */
export async function lockFor(tx: Tx, name: AdvisoryLock): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${ADVISORY_LOCKS[name]}::bigint)`;
}
