import type { AuditAction, AuditType } from '@quire/contract';
import type { Prisma } from '@quire/db';
import type { Tx } from './deps.js';

/** Who did something, from where: what every service that writes is given. */
export interface Actor {
  userId: number | null;
  ip?: string | null;
}

interface AuditInput<T extends AuditType = AuditType> {
  /** The area: auth, user, group, file, … (AUDIT_EVENTS in the contract). */
  type: T;
  /** What happened: one of that type's actions in AUDIT_EVENTS (a free string does not compile). */
  action: AuditAction<T>;
  message: string;
  targetType?: string;
  targetId?: string | number;
  details?: Prisma.InputJsonValue;
  /**
   * When it happened (default: the database's clock at the start of the transaction). Code
   * that reads its own events back against `deps.now()` (the sign-in throttle) passes it.
   */
  at?: Date;
}

/**
 * Writes one audit event; call it with the transaction of the change it records. The event is
 * sealed into the hash chain when that transaction commits (decision 015), so write audit
 * events in READ COMMITTED transactions (Prisma's default).
 */
export function audit<T extends AuditType>(tx: Tx, actor: Actor, event: AuditInput<T>) {
  return tx.auditEvent.create({
    data: {
      userId: actor.userId,
      ip: actor.ip ?? null,
      type: event.type,
      action: event.action,
      message: event.message,
      targetType: event.targetType ?? null,
      targetId: event.targetId === undefined ? null : String(event.targetId),
      details: event.details,
      ...(event.at ? { createdAt: event.at } : {}),
    },
  });
}

/** An audit detail of one changed value: `{ key: { before, after } }`, or `{}` when unchanged. */
export function auditChange<T extends string | number | boolean | null>(
  key: string,
  before: T,
  after: T | undefined,
) {
  return after !== undefined && after !== before ? { [key]: { before, after } } : {};
}
