import type { TNotification } from '@quire/contract';
import { type Actor, audit } from '../../lib/audit.js';
import type { Deps, Tx } from '../../lib/deps.js';
import { type FileEvent, FOLLOWER_EVENTS, isOneOf } from '../../lib/file-events.js';
import { type PageQuery, pageMeta } from '../../lib/paging.js';
import type { AuthContext } from '../../lib/session.js';
import { notificationNotFound } from './notification.errors.js';
import * as repo from './notification.repository.js';

// The bell: in-app notifications. Other areas add them in their own transaction with
// notify(); followers of a file are told of its changes by the `notification.file_event`
// job (a subscriber of file events).

export type { NewNotification } from './notification.repository.js';

/** Adds notifications in the caller's transaction. */
export function notify(tx: Tx, rows: repo.NewNotification[]) {
  return rows.length ? repo.insert(tx, rows) : Promise.resolve({ count: 0 });
}

function toDto(n: {
  id: bigint;
  kind: string;
  title: string;
  body: string;
  fileId: number | null;
  link: string | null;
  readAt: Date | null;
  createdAt: Date;
}): TNotification {
  return {
    id: Number(n.id),
    kind: n.kind,
    title: n.title,
    body: n.body,
    file_id: n.fileId,
    link: n.link,
    read: n.readAt !== null,
    created_at: n.createdAt.toISOString(),
  };
}

export async function myNotifications(deps: Deps, auth: AuthContext, q: PageQuery) {
  const { items, total, unread } = await repo.pageOf(deps.db, auth.userId, q);
  return { ...pageMeta(q, total), items: items.map(toDto), unread };
}

export async function markAsRead(deps: Deps, auth: AuthContext, actor: Actor, id: number) {
  return deps.db.$transaction(async (tx) => {
    const n = await repo.findMine(tx, auth.userId, BigInt(id));
    if (!n) throw notificationNotFound();
    if (n.readAt) return toDto(n);
    const read = await repo.markRead(tx, n.id, deps.now());
    await audit(tx, actor, {
      type: 'notification',
      action: 'notification.read',
      message: `Marked a notification read: ${n.title}`,
      targetType: 'notification',
      targetId: id,
    });
    return toDto(read);
  });
}

export async function clearNotifications(deps: Deps, auth: AuthContext, actor: Actor) {
  return deps.db.$transaction(async (tx) => {
    const { count } = await repo.clearAll(tx, auth.userId);
    await audit(tx, actor, {
      type: 'notification',
      action: 'notification.cleared',
      message: `Cleared ${count} notification(s)`,
      targetType: 'user',
      targetId: auth.userId,
      details: { cleared: count },
    });
    return { cleared: count };
  });
}

// What followers are told, by event (lib/file-events.ts FOLLOWER_EVENTS: no other event is
// sent to this area).
const TOLD: Record<(typeof FOLLOWER_EVENTS)[number], (name: string) => string> = {
  values_changed: (n) => `The values of "${n}" changed`,
  version_added: (n) => `A new version of "${n}" was added`,
  checked_in: (n) => `"${n}" was checked in`,
  checked_out: (n) => `"${n}" was checked out`,
  renamed: (n) => `A file you follow was renamed "${n}"`,
  moved: (n) => `"${n}" was moved to another category`,
  locked: (n) => `"${n}" was locked`,
  unlocked: (n) => `"${n}" was unlocked`,
  commented: (n) => `New comment on "${n}"`,
  attachment_added: (n) => `A file was attached to "${n}"`,
  attachment_removed: (n) => `A file was removed from "${n}"`,
  deleted: (n) => `"${n}" was moved to the trash`,
  restored: (n) => `"${n}" was restored from the trash`,
};

/**
 * Tells a file's followers (who may still see it, not the one who acted) about a change.
 * Runs at least once: the job's id makes each notification once.
 */
export async function notifyFollowers(deps: Deps, jobId: bigint | number | string, event: FileEvent) {
  if (!isOneOf(FOLLOWER_EVENTS, event.type)) return 0;
  const title = TOLD[event.type];
  return deps.db.$transaction(async (tx) => {
    const file = await repo.fileForEvent(tx, event.file_id);
    if (!file) return 0;
    const userIds = await repo.followersWhoSee(tx, file.id, event.actor_id);
    // Who did it, for the notifications page ("By Alice Able"); the system signs nothing.
    const actor = event.actor_id === null ? null : await repo.actorName(tx, event.actor_id);
    const { count } = await notify(
      tx,
      userIds.map((userId) => ({
        userId,
        kind: `file.${event.type}`,
        title: title(file.name),
        body: actor ? `By ${actor}` : '',
        fileId: file.id,
        link: file.deletedAt ? null : `/files/${file.id}`,
        sourceKey: `file-event:${jobId}`,
      })),
    );
    return count;
  });
}
