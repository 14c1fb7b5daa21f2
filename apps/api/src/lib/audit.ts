import type { AuditAction, AuditType } from '@quire/contract';
import type { Prisma } from '@quire/db';
import type { Tx } from './deps.js';

/** Who did something, from where: what every service that writes is given. */
export interface Actor {
  userId: number | null;
  ip?: string | null;
}

export interface AuditInput<T extends AuditType = AuditType> {
  /** The area: auth, user, group, file, … (AUDIT_EVENTS in the contract). */
  type: T;
  /** What happened: one of that type's actions in AUDIT_EVENTS (a free string does not compile). */
  action: AuditAction<T>;
  message: string;
  targetType?: string;
  targetId?: string | number;
  details?: Prisma.InputJsonValue;
  /**
   * When it happened (default: the server's clock as the event is written). Code that reads
   * its own events back against `deps.now()` (the sign-in throttle) passes it.
   */
  at?: Date;
}

/**
 * Writes one audit event; call it with the transaction of the change it records. The event is
 * sealed into the hash chain when that transaction commits (decision 015), so write audit
 * events in READ COMMITTED transactions (Prisma's default). The row `auditAll` writes for it.
 */
export async function audit<T extends AuditType>(
  tx: Tx,
  actor: Actor,
  event: AuditInput<T>,
): Promise<{ id: bigint }> {
  const [written] = await auditAll(tx, actor, [event]);
  return written as { id: bigint };
}

/**
 * One changed field in an audit's `changes` (`{ key: { before, after } }`): text, or a list of
 * ids (a user's groups, a group's members). A user edit and a directory sign-in audit the same
 * keys; a group edit audits its own.
 */
export type FieldChange = { before: string | number[]; after: string | number[] };

/** An audit detail of one changed value: `{ key: { before, after } }`, or `{}` when unchanged. */
export function auditChange<T extends string | number | boolean | null>(
  key: string,
  before: T,
  after: T | undefined,
) {
  return after !== undefined && after !== before ? { [key]: { before, after } } : {};
}

/**
 * Writes many audit events of one actor in one statement, in the order given (their ids, and
 * their seals at commit, follow it): each the row `audit` writes for it, all stamped with one
 * time (the server's clock, as `audit`'s are), unless an event names its own `at`. For a change
 * of many objects at once. Answers their ids, in that order.
 */
export async function auditAll<T extends AuditType>(
  tx: Tx,
  actor: Actor,
  events: ReadonlyArray<AuditInput<T>>,
): Promise<Array<{ id: bigint }>> {
  if (!events.length) return [];
  const now = new Date();
  const col = <V>(f: (e: AuditInput<T>) => V) => events.map(f);
  return tx.$queryRaw<Array<{ id: bigint }>>`
    INSERT INTO audit_events (user_id, ip, type, action, message, target_type, target_id, details, created_at)
    SELECT ${actor.userId}::int, ${actor.ip ?? null}::text, e.type, e.action, e.message, e.target_type,
           e.target_id, e.details::jsonb, e.at::timestamptz AT TIME ZONE 'UTC'
      FROM unnest(${col((e) => e.type)}::text[], ${col((e) => e.action)}::text[],
                  ${col((e) => e.message)}::text[], ${col((e) => e.targetType ?? null)}::text[],
                  ${col((e) => (e.targetId === undefined ? null : String(e.targetId)))}::text[],
                  ${col((e) => (e.details === undefined ? null : JSON.stringify(e.details)))}::text[],
                  ${col((e) => (e.at ?? now).toISOString())}::text[])
           WITH ORDINALITY AS e(type, action, message, target_type, target_id, details, at, n)
     ORDER BY e.n
    RETURNING id`;
}
