import type { Tx } from '../../lib/deps.js';

// What a step's notifications read and write: the claim that makes them once, who is told.

/** Marks a transition's notifications made; false when they already were (the job ran before). */
export async function claimNotify(tx: Tx, transitionId: bigint, now: Date): Promise<boolean> {
  const { count } = await tx.workflowTransition.updateMany({
    where: { id: transitionId, notifiedAt: null },
    data: { notifiedAt: now },
  });
  return count === 1;
}

export function transitionForNotify(db: Tx, id: bigint) {
  return db.workflowTransition.findUnique({
    where: { id },
    include: {
      instance: {
        select: {
          id: true,
          startedById: true,
          currentStepId: true,
          workflow: { select: { id: true, name: true } },
          file: { select: { id: true, name: true, ownerId: true } },
        },
      },
      fromStep: { select: { id: true, name: true } },
      toStep: { select: { id: true, name: true } },
      actedBy: { select: { id: true, username: true, firstName: true, lastName: true } },
    },
  });
}

export function stepNotifications(
  db: Tx,
  stepId: number,
  event: 'entered' | 'completed' | 'rejected' | 'overdue',
) {
  return db.stepNotification.findMany({ where: { stepId, event }, orderBy: { id: 'asc' } });
}

export async function followerIds(db: Tx, fileId: number): Promise<number[]> {
  const rows = await db.fileFollow.findMany({ where: { fileId }, select: { userId: true } });
  return rows.map((r) => r.userId);
}

export function insertNotifications(
  tx: Tx,
  rows: Array<{ userId: number; kind: string; title: string; body: string; fileId: number; link: string }>,
) {
  if (rows.length === 0) return Promise.resolve();
  return tx.notification.createMany({ data: rows });
}
