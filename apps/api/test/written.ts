import type { TestContext } from './app.js';

// What a call wrote to the audit trail and the job queue, row by row in the order written:
// `written(t)` before the call, `writtenSince(t, mark)` after it.

export type WrittenMark = Awaited<ReturnType<typeof written>>;

/** The last audit event's and job's ids, for `writtenSince`. */
export async function written(t: TestContext) {
  const [event, job] = await Promise.all([
    t.db.auditEvent.findFirst({ orderBy: { id: 'desc' }, select: { id: true } }),
    t.db.job.findFirst({ orderBy: { id: 'desc' }, select: { id: true } }),
  ]);
  return { event: event?.id ?? 0n, job: job?.id ?? 0n };
}

/** The audit events and jobs written after `mark`, in the order of their ids. */
export async function writtenSince(t: TestContext, mark: WrittenMark) {
  const [audit, jobs] = await Promise.all([
    t.db.auditEvent.findMany({
      where: { id: { gt: mark.event } },
      orderBy: { id: 'asc' },
      select: {
        userId: true,
        type: true,
        action: true,
        message: true,
        targetType: true,
        targetId: true,
        details: true,
      },
    }),
    t.db.job.findMany({
      where: { id: { gt: mark.job } },
      orderBy: { id: 'asc' },
      select: { kind: true, payload: true },
    }),
  ]);
  return { audit, jobs };
}
