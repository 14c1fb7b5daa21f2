import { expect } from 'vitest';
import type { TestContext } from './app.js';

/**
 * For edits of one object sent at once: the value `key` holds after them, followed through the
 * audit trail. Each `action` event on `targetId` that changed `key` must start (`before`) where
 * the previous one ended (`after`), the first where the object stood (`start`), as when the
 * edits ran one after the other; an event that left `key` as it was names no change of it.
 */
export async function auditedInTurn(
  t: TestContext,
  event: { action: string; targetId: number; key: string; start: unknown },
): Promise<unknown> {
  const events = await t.db.auditEvent.findMany({
    where: { action: event.action, targetId: String(event.targetId) },
    orderBy: { id: 'asc' },
  });
  let value = event.start;
  for (const e of events) {
    const change = (e.details as Record<string, { before: unknown; after: unknown } | undefined>)[event.key];
    if (!change) continue;
    expect(change.before, `audit event ${e.id}`).toEqual(value);
    value = change.after;
  }
  return value;
}
