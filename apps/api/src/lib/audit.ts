import type { Prisma } from '@quire/db';
import type { Tx } from './deps.js';

/** Who did something, from where: what every service that writes is given. */
export interface Actor {
  userId: number | null;
  ip?: string | null;
}

export interface AuditInput {
  /** The area: auth, user, group, file, … */
  type: string;
  /** What happened, e.g. `login.success`, `user.created`, `access.denied`. */
  action: string;
  message: string;
  targetType?: string;
  targetId?: string | number;
  details?: Prisma.InputJsonValue;
}

/** Writes one audit event; call it with the transaction of the change it records. */
export function audit(tx: Tx, actor: Actor, event: AuditInput) {
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
    },
  });
}
