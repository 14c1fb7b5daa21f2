import { expect } from 'vitest';
import type { TestContext } from './app.js';

/**
 * For edits of one object sent at once: the value `key` holds after them, followed through the
 * audit trail. Each `action` event on `targetId` that changed `key` must start (`before`) where
 * the previous one ended (`after`), the first where the object stood (`start`), as when the
 * edits ran one after the other; an event that left `key` as it was names no change of it.
 * Without `key`, the event's details are the change: `{ before, after }` of the whole object.
 */
export async function auditedInTurn(
  t: TestContext,
  event: { action: string; targetId: number; key?: string; start: unknown },
): Promise<unknown> {
  const events = await t.db.auditEvent.findMany({
    where: { action: event.action, targetId: String(event.targetId) },
    orderBy: { id: 'asc' },
  });
  let value = event.start;
  for (const e of events) {
    const details = e.details as Record<string, { before: unknown; after: unknown } | undefined>;
    const change =
      event.key === undefined ? (details as { before: unknown; after: unknown }) : details[event.key];
    if (!change) continue;
    expect(change.before, `audit event ${e.id}`).toEqual(value);
    value = change.after;
  }
  return value;
}

type Change = { before: number[]; after: number[] } | undefined;

/**
 * For user edits (their group_ids), group edits (their user_ids), user deletions and creations
 * of users and groups sent at once, touching memberships of `users` in `groups` (people in no other group): the members of
 * each group after them, followed through the audit trail in its order. Each user event must
 * start from the groups the person then had, each group event from the people it then had (a
 * deleted person is no longer shown as a member, and no edit after their deletion names them),
 * as when the calls ran one after the other. `afterEventId`: only the events after it (the
 * memberships then were `start`).
 */
export async function membershipsInTurn(
  t: TestContext,
  o: { users: number[]; groups: number[]; start: Record<number, number[]>; afterEventId?: number },
): Promise<Record<number, number[]>> {
  const events = await t.db.auditEvent.findMany({
    where: {
      id: { gt: o.afterEventId ?? 0 },
      OR: [
        {
          action: { in: ['user.created', 'user.updated', 'user.deleted'] },
          targetId: { in: o.users.map(String) },
        },
        { action: { in: ['group.created', 'group.updated'] }, targetId: { in: o.groups.map(String) } },
      ],
    },
    orderBy: { id: 'asc' },
  });
  const members = new Map(o.groups.map((g) => [g, new Set(o.start[g] ?? [])]));
  const deleted = new Set<number>();
  const shown = (g: number) =>
    [...(members.get(g) ?? [])].filter((u) => !deleted.has(u)).sort((a, b) => a - b);
  const groupsOf = (u: number) => o.groups.filter((g) => members.get(g)?.has(u)).sort((a, b) => a - b);
  for (const e of events) {
    const target = Number(e.targetId);
    const details = e.details as Record<string, unknown>;
    if (e.action === 'user.deleted') {
      deleted.add(target);
    } else if (e.action === 'user.created') {
      for (const g of details.group_ids as number[]) members.get(g)?.add(target);
    } else if (e.action === 'group.created') {
      members.set(target, new Set(details.user_ids as number[]));
    } else if (e.action === 'user.updated') {
      expect(deleted.has(target), `audit event ${e.id}: user ${target} edited once deleted`).toBe(false);
      const change = (details.changes as Record<string, Change>).group_ids;
      if (!change) continue;
      expect(change.before, `audit event ${e.id} (user ${target})`).toEqual(groupsOf(target));
      for (const g of o.groups) members.get(g)?.delete(target);
      for (const g of change.after) members.get(g)?.add(target);
    } else {
      const change = details.user_ids as Change;
      if (!change) continue;
      expect(change.before, `audit event ${e.id} (group ${target})`).toEqual(shown(target));
      const gone = change.after.filter((u) => deleted.has(u));
      expect(gone, `audit event ${e.id}: group ${target} given people deleted before`).toEqual([]);
      members.set(target, new Set(change.after));
    }
  }
  return Object.fromEntries(o.groups.map((g) => [g, shown(g)]));
}
