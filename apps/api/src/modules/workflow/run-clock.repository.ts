import type { Tx } from '../../lib/deps.js';

// What the clock reads of runs: overdue steps and the date, field-change and overdue triggers.

/** Running files past their step's due time, not yet handled as overdue. */
export function overdueRuns(db: Tx, now: Date, take = 200) {
  return db.workflowInstance.findMany({
    where: { status: 'running', overdueAt: null, dueAt: { lte: now } },
    orderBy: { dueAt: 'asc' },
    take,
  });
}

export function activeTriggers(db: Tx, kind: 'on_date' | 'on_field_change' | 'overdue', stepIds?: number[]) {
  return db.stepTrigger.findMany({
    where: {
      kind,
      active: true,
      ...(stepIds ? { stepId: { in: stepIds } } : {}),
      step: { workflow: { deletedAt: null } },
    },
    orderBy: { id: 'asc' },
  });
}

/** Running files in `stepId` whose date field `fieldId` is today or earlier. */
export function runsWithDateReached(db: Tx, stepId: number, fieldId: number, today: Date) {
  return db.workflowInstance.findMany({
    where: {
      status: 'running',
      currentStepId: stepId,
      file: { deletedAt: null, values: { some: { fieldId, valueDate: { lte: today } } } },
    },
    take: 500,
  });
}

export function runsEnteredBefore(db: Tx, stepId: number, before: Date) {
  return db.workflowInstance.findMany({
    where: { status: 'running', currentStepId: stepId, stepEnteredAt: { lt: before } },
    take: 500,
  });
}
