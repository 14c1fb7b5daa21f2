import { type Db, Prisma } from '@quire/db';
import type { Tx } from '../../lib/deps.js';
import { utc } from '../../lib/jobs/queue.js';
import { queryRows } from '../../lib/sql.js';

// The audit trail's queries. The list is read in chain order (seq, the commit order) from the
// indexes of migration 0011_search: (seq), (user_id, seq), (type, seq), (created_at) and the
// trigram index on lower(action || ' ' || message) for the search.

export interface ActivityFilter {
  userId?: number;
  type?: string;
  from?: Date | null;
  to?: Date | null;
  search?: string;
}

/** Counting stops here: past it the page says "more than". */
export const COUNT_CAP = 10_000;

const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;

function conditions(f: ActivityFilter): Prisma.Sql {
  const parts: Prisma.Sql[] = [Prisma.sql`a.seq IS NOT NULL`];
  if (f.userId !== undefined) parts.push(Prisma.sql`a.user_id = ${f.userId}::int`);
  if (f.type !== undefined) parts.push(Prisma.sql`a.type = ${f.type}`);
  if (f.from) parts.push(Prisma.sql`a.created_at >= (${utc(f.from)}::timestamptz AT TIME ZONE 'UTC')`);
  if (f.to) parts.push(Prisma.sql`a.created_at < (${utc(f.to)}::timestamptz AT TIME ZONE 'UTC')`);
  if (f.search) parts.push(Prisma.sql`lower(a.action || ' ' || a.message) LIKE ${likePattern(f.search)}`);
  return Prisma.join(parts, ' AND ');
}

export const isUnfiltered = (f: ActivityFilter) =>
  f.userId === undefined && f.type === undefined && !f.from && !f.to && !f.search;

export interface ActivityRow {
  /** bigint columns: strings, as node-postgres reads them. */
  id: string;
  seq: string;
  created_at: Date;
  user_id: number | null;
  username: string | null;
  first_name: string | null;
  last_name: string | null;
  type: string;
  action: string;
  message: string;
  target_type: string | null;
  target_id: string | null;
  ip: string | null;
  details: unknown;
  hash: string;
}

/**
 * One page of events, newest first. With `beforeSeq` (keyset paging) the page starts below
 * that place in the chain and `offset` is not used: deep pages cost what the first does.
 */
export function activitySql(f: ActivityFilter, page: { limit: number; offset: number; beforeSeq?: number }) {
  const keyset = page.beforeSeq ? Prisma.sql` AND a.seq < ${page.beforeSeq}::bigint` : Prisma.empty;
  return Prisma.sql`
    SELECT a.id, a.seq, a.created_at, a.user_id, u.username, u.first_name, u.last_name, a.type, a.action,
           a.message, a.target_type, a.target_id, a.ip, a.details, a.hash
      FROM audit_events a
      LEFT JOIN users u ON u.id = a.user_id
     WHERE ${conditions(f)}${keyset}
     ORDER BY a.seq DESC
     LIMIT ${page.limit}::int OFFSET ${page.beforeSeq ? 0 : page.offset}::int`;
}

/** How many events match, counting at most COUNT_CAP + 1. */
export function countSql(f: ActivityFilter) {
  return Prisma.sql`
    SELECT count(*)::int AS n FROM (SELECT 1 FROM audit_events a WHERE ${conditions(f)} LIMIT ${COUNT_CAP + 1}::int) x`;
}

/** Without a filter: every committed event is sealed and seq has no gaps, so the head is the count. */
export const headSql = () =>
  Prisma.sql`SELECT seq, hash FROM audit_events WHERE seq IS NOT NULL ORDER BY seq DESC LIMIT 1`;

// The trail's reads run on the pool (lib/sql.ts): for a page of 20 events, building the query
// through Prisma cost about as much as running it.
export function listActivity(
  db: Db,
  f: ActivityFilter,
  page: { limit: number; offset: number; beforeSeq?: number },
) {
  return queryRows<ActivityRow>(db, activitySql(f, page));
}

export async function countActivity(db: Db, f: ActivityFilter): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db, countSql(f));
  return row?.n ?? 0;
}

/** Whether a user with this id exists (any status: the trail names former users too). */
export async function userExists(db: Tx, id: number): Promise<boolean> {
  return (await db.user.count({ where: { id } })) > 0;
}

export async function chainHead(db: Db): Promise<{ seq: number; hash: string } | null> {
  const [row] = await queryRows<{ seq: string; hash: string }>(db, headSql(), 'quire_audit_head');
  return row ? { seq: Number(row.seq), hash: row.hash } : null;
}

export function lastVerification(db: Tx) {
  return db.auditVerification.findFirst({ orderBy: { id: 'desc' } });
}

/** The head the last walk that verified saw: the anchor of the next walk. */
export function lastGoodVerification(db: Tx) {
  return db.auditVerification.findFirst({ where: { ok: true }, orderBy: { id: 'desc' } });
}

export function recordVerification(
  db: Tx,
  v: {
    startedAt: Date;
    finishedAt: Date;
    ok: boolean;
    checked: number;
    headSeq: number;
    headHash: string;
    problem: string | null;
    problemSeq: number | null;
  },
) {
  return db.auditVerification.create({
    data: {
      ...v,
      checked: BigInt(v.checked),
      headSeq: BigInt(v.headSeq),
      problemSeq: v.problemSeq === null ? null : BigInt(v.problemSeq),
    },
  });
}

/** Whether an audit.verify job is queued or running. */
export async function verificationPending(db: Tx): Promise<boolean> {
  const n = await db.job.count({ where: { kind: 'audit.verify', status: { in: ['queued', 'running'] } } });
  return n > 0;
}
