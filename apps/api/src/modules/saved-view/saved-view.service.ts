import {
  SAVED_VIEWS_MAX,
  type TCreateSavedViewInput,
  type TSavedView,
  type TSavedViewQuery,
  type TUpdateSavedViewInput,
} from '@quire/contract';
import type { Prisma } from '@quire/db';
import { type Actor, audit } from '../../lib/audit.js';
import type { Deps, Tx } from '../../lib/deps.js';
import { nameRace } from '../../lib/errors.js';
import type { AuthContext } from '../../lib/session.js';
import { savedViewNameTaken, savedViewNotFound, tooManySavedViews } from './saved-view.errors.js';
import * as repo from './saved-view.repository.js';

// Saved views: a person's own searches and filters, by name, in their order; the pinned ones
// are on their dashboard. Only the owner sees or changes a view (anyone else gets 404). Each
// change runs under the owner's row lock (asOwner) and writes its audit event in the same
// transaction.

type Row = Awaited<ReturnType<typeof repo.listMine>>[number];

function toDto(v: Row): TSavedView {
  return {
    id: v.id,
    name: v.name,
    query: v.query as TSavedViewQuery,
    pinned: v.pinned,
    position: v.position,
    created_at: v.createdAt.toISOString(),
    updated_at: v.updatedAt.toISOString(),
  };
}

/**
 * Runs `work` in one transaction under the owner's row lock (their counts and positions stay
 * whole); a `name` another of theirs took meanwhile is the same 400 as one found taken.
 */
function asOwner<T>(deps: Deps, auth: AuthContext, name: string | undefined, work: (tx: Tx) => Promise<T>) {
  return deps.db
    .$transaction(async (tx) => {
      await repo.lockOwner(tx, auth.userId);
      return work(tx);
    })
    .catch(nameRace(name, savedViewNameTaken));
}

export async function listSavedViews(deps: Deps, auth: AuthContext) {
  return { items: (await repo.listMine(deps.db, auth.userId)).map(toDto) };
}

/** Saves a view last in the owner's list. */
export async function createSavedView(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  body: TCreateSavedViewInput,
) {
  return asOwner(deps, auth, body.name, async (tx) => {
    if (await repo.nameTaken(tx, auth.userId, body.name)) throw savedViewNameTaken(body.name);
    const count = await repo.countMine(tx, auth.userId);
    if (count >= SAVED_VIEWS_MAX) throw tooManySavedViews();
    const view = await repo.insert(tx, {
      userId: auth.userId,
      name: body.name,
      query: body.query as Prisma.InputJsonValue,
      pinned: body.pinned,
      position: count,
    });
    await audit(tx, actor, {
      type: 'saved-view',
      action: 'saved_view.created',
      message: `Saved the view "${view.name}"${view.pinned ? ' (pinned to the dashboard)' : ''}`,
      targetType: 'saved_view',
      targetId: view.id,
    });
    return toDto(view);
  });
}

/** What a change did, for its audit message. */
function describeChange(before: Row, after: Row, moved: boolean): string {
  const parts: string[] = [];
  if (after.name !== before.name) parts.push(`renamed "${before.name}" to "${after.name}"`);
  if (after.pinned !== before.pinned) parts.push(after.pinned ? 'pinned it to the dashboard' : 'unpinned it');
  if (moved) parts.push(`moved it to place ${after.position + 1}`);
  if (JSON.stringify(after.query) !== JSON.stringify(before.query)) parts.push('changed its search');
  return `Saved view "${after.name}": ${parts.length ? parts.join(', ') : 'saved unchanged'}`;
}

/** Renames, pins or unpins, moves or changes the query of one of the owner's views. */
export async function updateSavedView(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  id: number,
  body: TUpdateSavedViewInput,
) {
  return asOwner(deps, auth, body.name, async (tx) => {
    const before = await repo.findMine(tx, auth.userId, id);
    if (!before) throw savedViewNotFound();
    if (body.name !== undefined && (await repo.nameTaken(tx, auth.userId, body.name, id)))
      throw savedViewNameTaken(body.name);
    let moved = false;
    if (body.position !== undefined) {
      const order = (await repo.listMine(tx, auth.userId)).map((v) => v.id).filter((v) => v !== id);
      const place = Math.min(body.position, order.length);
      order.splice(place, 0, id);
      moved = before.position !== place;
      await repo.renumber(tx, order);
    }
    const after = await repo.update(tx, id, {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.pinned !== undefined ? { pinned: body.pinned } : {}),
      ...(body.query !== undefined ? { query: body.query as Prisma.InputJsonValue } : {}),
    });
    await audit(tx, actor, {
      type: 'saved-view',
      action: 'saved_view.updated',
      message: describeChange(before, after, moved),
      targetType: 'saved_view',
      targetId: id,
    });
    return toDto(after);
  });
}

/** Deletes one of the owner's views; the ones after it move up. */
export async function deleteSavedView(deps: Deps, auth: AuthContext, actor: Actor, id: number) {
  return asOwner(deps, auth, undefined, async (tx) => {
    const view = await repo.findMine(tx, auth.userId, id);
    if (!view) throw savedViewNotFound();
    await repo.remove(tx, id);
    await repo.renumber(
      tx,
      (await repo.listMine(tx, auth.userId)).map((v) => v.id),
    );
    await audit(tx, actor, {
      type: 'saved-view',
      action: 'saved_view.deleted',
      message: `Deleted the saved view "${view.name}"`,
      targetType: 'saved_view',
      targetId: id,
    });
    return { id };
  });
}
