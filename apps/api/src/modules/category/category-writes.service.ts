import type {
  TCategoryFieldInput,
  TCategoryInfo,
  TStoreCategoryBody,
  TUpdateCategoryBody,
} from '@quire/contract';
import type { Prisma } from '@quire/db';
import { type Actor, audit, auditChange } from '../../lib/audit.js';
import type { Deps, Tx } from '../../lib/deps.js';
import { type FieldError, invalidInput, nameRace, summarise } from '../../lib/errors.js';
import { emitFileEvents } from '../../lib/file-events.js';
import type { AuthContext } from '../../lib/session.js';
import type { Scope } from '../../lib/visibility.js';
import { holdFilesIn } from '../file/file-change.service.js';
import * as metadata from '../metadata/metadata.service.js';
import { assertCategoriesNotHeld } from '../retention/legal-hold.guard.js';
import {
  categoryNotFound,
  deleteUnconfirmed,
  moveIntoItself,
  noSuchParent,
  siblingNameTaken,
} from './category.errors.js';
import { grantRights, parseGrants } from './category.grants.js';
import * as repo from './category.repository.js';
import { categoryInfo } from './category.service.js';
import * as grantsRepo from './category-grants.repository.js';

// Changing categories: create, edit (rename, move, fields, rights), copy and delete. Each is a
// File Control write in one transaction with its audit event.

/** Fields to attach: live fields, default values valid for their type and validation. */
async function parseFields(db: Tx, scope: Scope, input: TCategoryFieldInput[]) {
  const fields = await metadata.fieldsByIds(
    db,
    scope,
    input.map((f) => f.field_id),
  );
  const errors: FieldError[] = [];
  const defaults = new Map<number, string | null>();
  for (const [i, f] of input.entries()) {
    const field = fields.get(f.field_id);
    if (!field) {
      errors.push({ path: `body.fields.${i}.field_id`, message: 'No such metadata field' });
      continue;
    }
    if (f.default_value) {
      const checked = await metadata.checkDefaultValue(db, field, f.default_value);
      if (checked.ok) defaults.set(i, checked.text);
      else errors.push({ path: `body.fields.${i}.default_value`, message: checked.message });
    }
  }
  if (errors.length) throw invalidInput(summarise(errors), errors);
  return input.map((f, i) => ({
    fieldId: f.field_id,
    required: f.required ?? null,
    defaultValue: defaults.get(i) ?? null,
    showInList: f.show_in_list ?? true,
  }));
}

/**
 * Puts `id` among the live children of `parentId` (locked) at index `position`, or right after
 * the sibling `{ after }`, or last; renumbers them 0, 1, 2…
 */
async function placeAmongSiblings(
  tx: Tx,
  parentId: number | null,
  id: number,
  position: number | { after: number } | undefined,
) {
  const siblings = await repo.lockSiblings(tx, parentId);
  const before = new Map(siblings.map((s) => [s.id, s.position]));
  const order = siblings.map((s) => s.id).filter((s) => s !== id);
  const index =
    position === undefined
      ? order.length
      : typeof position === 'number'
        ? position
        : order.indexOf(position.after) + 1;
  const at = index <= 0 && typeof position === 'object' ? order.length : Math.min(index, order.length);
  order.splice(at, 0, id);
  before.set(id, -1);
  await repo.setPositions(tx, order, before);
}

/** Renumbers the live children of `parentId` 0, 1, 2… (after one left). */
async function renumberSiblings(tx: Tx, parentId: number | null) {
  const siblings = await repo.lockSiblings(tx, parentId);
  await repo.setPositions(
    tx,
    siblings.map((s) => s.id),
    new Map(siblings.map((s) => [s.id, s.position])),
  );
}

export async function createCategory(
  deps: Deps,
  scope: Scope,
  actor: Actor,
  body: TStoreCategoryBody,
): Promise<TCategoryInfo> {
  const id = await deps.db
    .$transaction(async (tx) => {
      const parentId = body.parent_id ?? null;
      if (parentId !== null && !(await repo.findLive(tx, parentId))) throw categoryNotFound();
      await repo.lockSiblings(tx, parentId);
      if (await repo.siblingNamed(tx, parentId, body.name)) throw siblingNameTaken(body.name);
      const fields = body.fields ? await parseFields(tx, scope, body.fields) : [];
      const grants = body.permissions ? await parseGrants(tx, body.permissions, 'body.permissions') : [];
      const category = await repo.createCategory(tx, {
        name: body.name,
        description: body.description ?? '',
        parentId,
        position: 0,
        inheritFields: body.inherit_fields ?? true,
        inheritPermissions: body.inherit_permissions ?? true,
        incrementalPrefix: body.incremental_prefix ?? '',
        createdById: actor.userId,
      });
      await placeAmongSiblings(tx, parentId, category.id, body.position);
      await repo.replaceFields(tx, category.id, fields);
      await grantsRepo.replaceGrants(tx, category.id, grants, actor.userId);
      await audit(tx, actor, {
        type: 'category',
        action: 'category.created',
        message: `Created category "${category.name}"`,
        targetType: 'category',
        targetId: category.id,
        details: {
          name: category.name,
          parent_id: parentId,
          field_ids: fields.map((f) => f.fieldId),
          grants: grants.length,
        },
      });
      return category.id;
    })
    .catch(nameRace(body.name, siblingNameTaken));
  return categoryInfo(deps.db, scope, id);
}

export async function updateCategory(
  deps: Deps,
  scope: Scope,
  actor: Actor,
  body: TUpdateCategoryBody,
): Promise<TCategoryInfo> {
  const id = body.folder_id;
  await deps.db
    .$transaction(async (tx) => {
      // Moves and reorders one at a time, and the category's siblings (itself among them)
      // locked in their order, as a creation beside it locks them: else each could hold a row
      // the other waits for. Then the category's row, before it is read.
      const moving = body.parent_id !== undefined;
      if (moving || body.position !== undefined) {
        await repo.lockTree(tx);
        const current = await repo.findLive(tx, id);
        if (current) await repo.lockSiblings(tx, current.parentId);
      }
      await repo.lockCategory(tx, id);
      const before = await repo.findLive(tx, id);
      if (!before) throw categoryNotFound();
      const parentId = body.parent_id === undefined ? before.parentId : body.parent_id;
      const moved = parentId !== before.parentId;
      // Out from under a held category its files would leave the hold: refused (decision 018).
      if (moved) await assertCategoriesNotHeld(tx, [id]);
      if (moved && parentId !== null) {
        if (!(await repo.findLive(tx, parentId))) throw noSuchParent();
        if (parentId === id || (await repo.liveDescendantIds(tx, id)).includes(parentId))
          throw moveIntoItself();
      }
      const name = body.name ?? before.name;
      if ((moved || name !== before.name) && (await repo.siblingNamed(tx, parentId, name, id)))
        throw siblingNameTaken(name, body.name === undefined ? 'body.parent_id' : 'body.name');
      const fields = body.fields ? await parseFields(tx, scope, body.fields) : undefined;
      const grants = body.permissions
        ? await parseGrants(tx, body.permissions, 'body.permissions')
        : undefined;

      await repo.updateCategory(tx, id, {
        name: body.name,
        description: body.description,
        parentId,
        inheritFields: body.inherit_fields,
        inheritPermissions: body.inherit_permissions,
        incrementalPrefix: body.incremental_prefix,
      });
      if (moved) {
        await renumberSiblings(tx, before.parentId);
        await placeAmongSiblings(tx, parentId, id, body.position);
      } else if (body.position !== undefined) await placeAmongSiblings(tx, parentId, id, body.position);
      if (fields) await repo.replaceFields(tx, id, fields);
      if (grants) await grantsRepo.replaceGrants(tx, id, grants, actor.userId);

      const changes: Prisma.InputJsonObject = {
        ...auditChange('name', before.name, body.name),
        ...auditChange('description', before.description, body.description),
        ...(moved ? { parent_id: { before: before.parentId, after: parentId } } : {}),
        ...(body.position !== undefined
          ? { position: { before: before.position, after: body.position } }
          : {}),
        ...auditChange('inherit_fields', before.inheritFields, body.inherit_fields),
        ...auditChange('inherit_permissions', before.inheritPermissions, body.inherit_permissions),
        ...auditChange('incremental_prefix', before.incrementalPrefix, body.incremental_prefix),
        ...(fields ? { field_ids: fields.map((f) => f.fieldId) } : {}),
        ...(grants
          ? {
              grants: grants.map((g) => ({
                user_id: g.userId,
                group_id: g.groupId,
                rights: Object.entries(grantRights(g))
                  .filter(([, on]) => on)
                  .map(([r]) => r),
              })),
            }
          : {}),
      };
      await audit(tx, actor, {
        type: 'category',
        action: moved ? 'category.moved' : 'category.updated',
        message: moved
          ? `Moved category "${name}"`
          : name !== before.name
            ? `Renamed category "${before.name}" to "${name}"`
            : `Edited category "${name}"`,
        targetType: 'category',
        targetId: id,
        details: changes,
      });
    })
    .catch(nameRace(body.name, siblingNameTaken));
  return categoryInfo(deps.db, scope, id);
}

/** "Invoices (copy)", "Invoices (copy 2)", … : the first free among `taken` (lower-cased). */
function copyName(name: string, taken: Set<string>): string {
  for (let n = 1; ; n += 1) {
    const candidate = `${name} (copy${n === 1 ? '' : ` ${n}`})`.slice(0, 120);
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}

export async function duplicateCategory(
  deps: Deps,
  scope: Scope,
  actor: Actor,
  body: { folder_id: number; name?: string; parent_id?: number | null },
): Promise<TCategoryInfo> {
  const id = await deps.db
    .$transaction(async (tx) => {
      await repo.lockTree(tx);
      const source = await repo.findLive(tx, body.folder_id);
      if (!source) throw categoryNotFound();
      const parentId = body.parent_id === undefined ? source.parentId : body.parent_id;
      if (parentId !== null && !(await repo.findLive(tx, parentId))) throw noSuchParent();
      await repo.lockSiblings(tx, parentId);
      const taken = await repo.siblingNames(tx, parentId);
      if (body.name !== undefined && taken.has(body.name.toLowerCase())) throw siblingNameTaken(body.name);
      const name = body.name ?? copyName(source.name, taken);

      const ids = [source.id, ...(await repo.liveDescendantIds(tx, source.id))];
      const sources = await repo.copySources(tx, ids);
      const copies = new Map<number, number>();
      const byParent = new Map<number, typeof sources.categories>();
      for (const c of sources.categories)
        if (c.parentId !== null) byParent.set(c.parentId, [...(byParent.get(c.parentId) ?? []), c]);
      // Top-down, so each copy's parent exists when it is made.
      const queue = [source];
      while (queue.length) {
        const c = queue.shift()!;
        const top = c.id === source.id;
        const copy = await repo.createCategory(tx, {
          name: top ? name : c.name,
          description: c.description,
          parentId: top ? parentId : copies.get(c.parentId!)!,
          position: top ? 0 : c.position,
          inheritFields: c.inheritFields,
          inheritPermissions: c.inheritPermissions,
          workflowId: c.workflowId,
          incrementalPrefix: c.incrementalPrefix,
          createdById: actor.userId,
        });
        copies.set(c.id, copy.id);
        queue.push(...(byParent.get(c.id) ?? []));
      }
      await repo.copyInto(tx, copies, sources, actor.userId);
      const rootCopy = copies.get(source.id)!;
      await placeAmongSiblings(
        tx,
        parentId,
        rootCopy,
        parentId === source.parentId ? { after: source.id } : undefined,
      );
      await audit(tx, actor, {
        type: 'category',
        action: 'category.duplicated',
        message: `Copied category "${source.name}" as "${name}" (${copies.size} categor${copies.size === 1 ? 'y' : 'ies'}, no files)`,
        targetType: 'category',
        targetId: rootCopy,
        details: {
          source_id: source.id,
          parent_id: parentId,
          copies: Object.fromEntries([...copies].map(([from, to]) => [String(from), to])),
          fields: sources.fields.length,
          grants: sources.grants.length,
          tags: sources.tags.length,
          category_groups: sources.groups.length,
        },
      });
      return rootCopy;
    })
    .catch(nameRace(body.name, siblingNameTaken));
  return categoryInfo(deps.db, scope, id);
}

/** How many file ids an audit event lists at most (the count is always there). */
const AUDITED_FILE_IDS = 1000;

export async function deleteCategory(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  body: { folder_id: number; confirm_file_count?: number },
) {
  return deps.db.$transaction(async (tx) => {
    await repo.lockTree(tx);
    const category = await repo.findLive(tx, body.folder_id);
    if (!category) throw categoryNotFound();
    const below = await repo.liveDescendantIds(tx, category.id);
    const ids = [category.id, ...below];
    const count = await repo.liveFileCount(tx, ids);
    if (count > 0 && body.confirm_file_count !== count)
      throw deleteUnconfirmed(category.name, count, below.length, body.confirm_file_count);
    // Trashing is a change of each file: held ones refuse the whole deletion (file.service.ts).
    await holdFilesIn(tx, auth, ids);
    const files = await repo.trashTree(tx, ids, deps.now(), actor.userId);
    await renumberSiblings(tx, category.parentId);
    await emitFileEvents(
      tx,
      files.map((f) => ({
        type: 'deleted',
        file_id: f.id,
        category_id: f.categoryId,
        actor_id: actor.userId,
      })),
    );
    await audit(tx, actor, {
      type: 'category',
      action: 'category.deleted',
      message: `Deleted category "${category.name}" with ${below.length} sub-categor${below.length === 1 ? 'y' : 'ies'}; ${files.length} file${files.length === 1 ? '' : 's'} moved to the trash`,
      targetType: 'category',
      targetId: category.id,
      details: {
        category_ids: ids,
        trashed_files: files.length,
        file_ids: files.slice(0, AUDITED_FILE_IDS).map((f) => f.id),
      },
    });
    return { id: category.id, deleted_categories: ids.length, trashed_files: files.length };
  });
}
