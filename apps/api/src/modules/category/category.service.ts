import type {
  CategoryRightName,
  TAdminFolder,
  TCategoryGroup,
  TFolder,
  TFolderField,
  TFolderFieldInput,
  TFolderInfo,
  TFolderMeta,
  TFolderOption,
  TGrantInput,
  TGrantView,
  TRelatedTag,
  TRights,
  TStoreFolderBody,
  TUpdateFolderBody,
} from '@quire/contract';
import type { Prisma } from '@quire/db';
import { type Actor, audit } from '../../lib/audit.js';
import type { Deps, Tx } from '../../lib/deps.js';
import { type FieldError, invalidInput, summarise } from '../../lib/errors.js';
import { emitFileEvent } from '../../lib/file-events.js';
import { displayName } from '../../lib/user-dto.js';
import { readsEverything, type Scope } from '../../lib/visibility.js';
import * as metadata from '../metadata/metadata.service.js';
import {
  categoryGroupNameTaken,
  categoryGroupNotFound,
  categoryNotFound,
  deleteUnconfirmed,
  moveIntoItself,
  noSuchParent,
  siblingNameTaken,
  tagNotFound,
} from './category.errors.js';
import * as repo from './category.repository.js';

// The catalog: the category tree, its fields, rights, groups and tags. Reads take the
// caller's scope (lib/visibility.ts) and show only what it may view; writes are File Control
// writes (their guard) on live categories, each in one transaction with its audit event.

// ---------------------------------------------------------------------------------------------
// Reading the tree

const rightsOf = (r: repo.CategoryRow): TRights => ({
  view: r.can_view,
  upload: r.can_upload,
  edit: r.can_edit,
  delete: r.can_delete,
  share: r.can_share,
  manage: r.can_manage,
});

function toFolder(r: repo.CategoryRow, depth: number): TFolder {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    parent_id: r.parent_visible ? r.parent_id : null,
    position: r.position,
    depth,
    inherit_fields: r.inherit_fields,
    inherit_permissions: r.inherit_permissions,
    subcategory_count: r.subcategory_count,
    file_count: r.file_count,
    rights: rightsOf(r),
  };
}

const bySiblingOrder = (a: repo.CategoryRow, b: repo.CategoryRow) =>
  a.position - b.position || a.name.localeCompare(b.name) || a.id - b.id;

/**
 * The rows in tree order (depth-first, siblings in order) with their depth in the caller's
 * tree: a category whose parent the caller may not view is at the top of it.
 */
function inTreeOrder(rows: repo.CategoryRow[]): Array<{ row: repo.CategoryRow; depth: number }> {
  const children = new Map<number | null, repo.CategoryRow[]>();
  for (const r of rows) {
    const parent = r.parent_visible ? r.parent_id : null;
    const list = children.get(parent) ?? [];
    list.push(r);
    children.set(parent, list);
  }
  for (const list of children.values()) list.sort(bySiblingOrder);
  const out: Array<{ row: repo.CategoryRow; depth: number }> = [];
  const walk = (parent: number | null, depth: number) => {
    for (const row of children.get(parent) ?? []) {
      out.push({ row, depth });
      walk(row.id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}

/** "Finance / Invoices / 2026" through the categories the caller may view. */
function pathsOf(rows: repo.CategoryRow[]): Map<number, string> {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const paths = new Map<number, string>();
  const pathOf = (r: repo.CategoryRow): string => {
    const known = paths.get(r.id);
    if (known !== undefined) return known;
    const parent = r.parent_visible && r.parent_id !== null ? byId.get(r.parent_id) : undefined;
    const path = parent ? `${pathOf(parent)} / ${r.name}` : r.name;
    paths.set(r.id, path);
    return path;
  };
  for (const r of rows) pathOf(r);
  return paths;
}

export async function listFolders(deps: Deps, scope: Scope): Promise<TFolder[]> {
  return inTreeOrder(await repo.visibleRows(deps.db, scope)).map(({ row, depth }) => toFolder(row, depth));
}

export async function adminFolders(deps: Deps, scope: Scope): Promise<TAdminFolder[]> {
  const rows = await repo.visibleRows(deps.db, scope);
  const ids = rows.map((r) => r.id);
  const [counts, groups] = await Promise.all([repo.countsBy(deps.db, ids), repo.groupsOf(deps.db, ids)]);
  const paths = pathsOf(rows);
  return inTreeOrder(rows).map(({ row, depth }) => ({
    ...toFolder(row, depth),
    path: paths.get(row.id)!,
    field_count: counts.fields.get(row.id) ?? 0,
    tag_count: counts.tags.get(row.id) ?? 0,
    grant_count: counts.grants.get(row.id) ?? 0,
    category_groups: groups
      .filter((g) => g.categoryId === row.id)
      .map((g) => ({ id: g.categoryGroup.id, name: g.categoryGroup.name })),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }));
}

export async function fileCategories(
  deps: Deps,
  scope: Scope,
  query: { right?: CategoryRightName; search?: string },
): Promise<TFolderOption[]> {
  const [all, chosen] = await Promise.all([
    repo.visibleRows(deps.db, scope),
    query.right || query.search
      ? repo.visibleRows(deps.db, scope, { right: query.right, search: query.search })
      : null,
  ]);
  const paths = pathsOf(all);
  const keep = chosen ? new Set(chosen.map((r) => r.id)) : null;
  return inTreeOrder(all)
    .filter(({ row }) => !keep || keep.has(row.id))
    .map(({ row }) => ({
      id: row.id,
      name: row.name,
      path: paths.get(row.id)!,
      parent_id: row.parent_visible ? row.parent_id : null,
      rights: rightsOf(row),
    }));
}

// ---------------------------------------------------------------------------------------------
// One category

/** The categories whose rights a category takes: itself, then up while it inherits them. */
function inheritanceChain(
  chain: Awaited<ReturnType<typeof repo.chainUp>>,
  flag: 'inherit_fields' | 'inherit_permissions',
) {
  const out = [chain[0]!];
  for (let i = 0; i + 1 < chain.length && chain[i]![flag]; i += 1) out.push(chain[i + 1]!);
  return out;
}

/**
 * A category's fields (`repo.effectiveFieldRows`, the one definition): those of the
 * categories above it that it inherits from (top first), then its own; a field it lists
 * itself takes its own settings and place.
 */
async function effectiveFields(db: Tx, scope: Scope, id: number): Promise<TFolderField[]> {
  const rows = await repo.effectiveFieldRows(db, id);
  const above = [...new Set(rows.map((r) => r.category_id).filter((c) => c !== id))];
  const [fields, visible, chain] = await Promise.all([
    metadata.fieldsByIds(
      db,
      scope,
      rows.map((r) => r.field_id),
    ),
    repo.visibleAmong(db, scope, above),
    above.length ? repo.chainUp(db, id) : [],
  ]);
  const names = new Map(chain.map((c) => [c.id, c.name]));
  return rows
    .flatMap((row) => {
      const field = fields.get(row.field_id);
      if (!field) return [];
      const own = row.category_id === id;
      const inheritedFrom =
        !own && visible.has(row.category_id)
          ? { id: row.category_id, name: names.get(row.category_id)! }
          : null;
      return [
        {
          field,
          position: 0,
          required: row.required,
          required_override: row.required_override,
          default_value: row.default_value,
          show_in_list: row.show_in_list,
          inherited: !own,
          inherited_from: inheritedFrom,
        },
      ];
    })
    .map((f, position) => ({ ...f, position }));
}

/** A category's fields with their bounds, as the files area checks values against them. */
export interface CategoryField {
  fieldId: number;
  name: string;
  type: repo.EffectiveFieldRow['type'];
  required: boolean;
  valueListId: number | null;
  minNumber: number | null;
  maxNumber: number | null;
  minDate: Date | null;
  maxDate: Date | null;
  maxLength: number | null;
  pattern: string | null;
  showInList: boolean;
}

/** The fields a file in category `id` takes values of, in form order (see `effectiveFields`). */
export async function categoryFields(db: Tx, id: number): Promise<CategoryField[]> {
  return (await repo.effectiveFieldRows(db, id)).map((r) => ({
    fieldId: r.field_id,
    name: r.name,
    type: r.type,
    required: r.required,
    valueListId: r.value_list_id,
    minNumber: r.min_number === null ? null : Number(r.min_number),
    maxNumber: r.max_number === null ? null : Number(r.max_number),
    minDate: r.min_date,
    maxDate: r.max_date,
    maxLength: r.max_length,
    pattern: r.pattern,
    showInList: r.show_in_list,
  }));
}

export async function folderMeta(deps: Deps, scope: Scope, id: number): Promise<TFolderMeta> {
  const [row] = await repo.visibleRows(deps.db, scope, { ids: [id] });
  if (!row) throw categoryNotFound();
  return {
    folder_id: id,
    inherit_fields: row.inherit_fields,
    fields: await effectiveFields(deps.db, scope, id),
  };
}

type Grantee = {
  user: { id: number; username: string; firstName: string; lastName: string } | null;
  group: { id: number; name: string } | null;
};
const granteeOf = (g: Grantee) =>
  g.user
    ? { kind: 'user' as const, id: g.user.id, name: displayName(g.user) }
    : { kind: 'group' as const, id: g.group!.id, name: g.group!.name };

const grantRights = (g: {
  canView: boolean;
  canUpload: boolean;
  canEdit: boolean;
  canDelete: boolean;
  canShare: boolean;
  canManage: boolean;
}): TRights => ({
  view: g.canView || g.canUpload || g.canEdit || g.canDelete || g.canShare || g.canManage,
  upload: g.canUpload,
  edit: g.canEdit,
  delete: g.canDelete,
  share: g.canShare,
  manage: g.canManage,
});

/** Every grant that holds on a category: its own, inherited ones, and through category groups. */
async function grantsHolding(db: Tx, id: number): Promise<TGrantView[]> {
  const from = inheritanceChain(await repo.chainUp(db, id), 'inherit_permissions');
  const ids = from.map((c) => c.id);
  const nameOf = new Map(from.map((c) => [c.id, c.name]));
  const [direct, viaGroups] = await Promise.all([repo.grantsOn(db, ids), repo.groupGrantsOn(db, ids)]);
  const out: TGrantView[] = [];
  for (const category of from) {
    const ref = { id: category.id, name: nameOf.get(category.id)! };
    for (const g of direct.filter((d) => d.categoryId === category.id))
      out.push({
        id: g.id,
        grantee: granteeOf(g),
        rights: grantRights(g),
        source: category.id === id ? 'own' : 'inherited',
        from: ref,
        category_group: null,
      });
    for (const m of viaGroups.filter((v) => v.categoryId === category.id))
      for (const g of m.categoryGroup.permissions)
        out.push({
          id: g.id,
          grantee: granteeOf(g),
          rights: grantRights(g),
          source: 'category_group',
          from: ref,
          category_group: { id: m.categoryGroup.id, name: m.categoryGroup.name },
        });
  }
  return out;
}

async function tags(db: Tx, scope: Scope, id: number): Promise<TRelatedTag[]> {
  return (await repo.tagsOf(db, scope, id)).map((t) => ({
    id: t.id,
    folder_id: t.category_id,
    name: t.name,
    color: t.color,
    linked_folder: t.linked_id === null ? null : { id: t.linked_id, name: t.linked_name! },
  }));
}

export async function folderInfo(db: Tx, scope: Scope, id: number): Promise<TFolderInfo> {
  const [row] = await repo.visibleRows(db, scope, { ids: [id] });
  if (!row) throw categoryNotFound();
  const everything = readsEverything(scope);
  const [children, chain, fields, relatedTags, groups, grants, below] = await Promise.all([
    repo.visibleRows(db, scope, { parentId: id }),
    repo.chainUp(db, id),
    effectiveFields(db, scope, id),
    tags(db, scope, id),
    repo.groupsOf(db, [id]),
    everything ? grantsHolding(db, id) : null,
    everything ? repo.liveDescendantIds(db, id) : null,
  ]);
  // The unbroken line of categories above it that the caller may view, from the top.
  const above = chain.slice(1);
  const visible = await repo.visibleAmong(
    db,
    scope,
    above.map((c) => c.id),
  );
  const ancestors: Array<{ id: number; name: string }> = [];
  for (const c of above) {
    if (!visible.has(c.id)) break;
    ancestors.unshift({ id: c.id, name: c.name });
  }
  const depth = ancestors.length;
  return {
    ...toFolder(row, depth),
    ancestors,
    children: children.sort(bySiblingOrder).map((c) => toFolder(c, depth + 1)),
    incremental_prefix: row.incremental_prefix,
    fields,
    related_tags: relatedTags,
    category_groups: groups.map((g) => ({ id: g.categoryGroup.id, name: g.categoryGroup.name })),
    grants,
    subtree_file_count: below ? await repo.liveFileCount(db, [id, ...below]) : null,
    subtree_category_count: below ? below.length : null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

// ---------------------------------------------------------------------------------------------
// Checking what a write names

/** Grants as rows: people and groups must exist, each at most once; any right implies view. */
async function parseGrants(db: Tx, grants: TGrantInput[], at: string): Promise<repo.GrantData[]> {
  const errors: FieldError[] = [];
  const [users, groups] = await Promise.all([
    repo.usersNotDeleted(
      db,
      grants.flatMap((g) => (g.user_id ? [g.user_id] : [])),
    ),
    repo.groupIds(
      db,
      grants.flatMap((g) => (g.group_id ? [g.group_id] : [])),
    ),
  ]);
  const seen = new Set<string>();
  grants.forEach((g, i) => {
    const key = g.user_id ? `u${g.user_id}` : `g${g.group_id}`;
    if (g.user_id && !users.has(g.user_id))
      errors.push({ path: `${at}.${i}.user_id`, message: 'No such user' });
    if (g.group_id && !groups.has(g.group_id))
      errors.push({ path: `${at}.${i}.group_id`, message: 'No such group' });
    if (seen.has(key))
      errors.push({
        path: `${at}.${i}.${g.user_id ? 'user_id' : 'group_id'}`,
        message: `This ${g.user_id ? 'user' : 'group'} is listed twice`,
      });
    seen.add(key);
  });
  if (errors.length) throw invalidInput(summarise(errors), errors);
  return grants.map((g) => {
    const r = new Set(g.rights);
    return {
      userId: g.user_id ?? null,
      groupId: g.group_id ?? null,
      canView: true,
      canUpload: r.has('upload'),
      canEdit: r.has('edit'),
      canDelete: r.has('delete'),
      canShare: r.has('share'),
      canManage: r.has('manage'),
    };
  });
}

/** Fields to attach: live fields, default values valid for their type and validation. */
async function parseFields(db: Tx, scope: Scope, input: TFolderFieldInput[]) {
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

/** Two admins saving the same name at one place at once: the unique index decides, with the same 400. */
function nameRace(name: string | undefined) {
  return (err: unknown): never => {
    if (name !== undefined && (err as { code?: string }).code === 'P2002') throw siblingNameTaken(name);
    throw err;
  };
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

// ---------------------------------------------------------------------------------------------
// Writing categories

export async function storeFolder(
  deps: Deps,
  scope: Scope,
  actor: Actor,
  body: TStoreFolderBody,
): Promise<TFolderInfo> {
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
      await repo.replaceGrants(tx, category.id, grants, actor.userId);
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
    .catch(nameRace(body.name));
  return folderInfo(deps.db, scope, id);
}

export async function updateFolder(
  deps: Deps,
  scope: Scope,
  actor: Actor,
  body: TUpdateFolderBody,
): Promise<TFolderInfo> {
  const id = body.folder_id;
  await deps.db
    .$transaction(async (tx) => {
      const moving = body.parent_id !== undefined;
      if (moving) await repo.lockTree(tx);
      const before = await repo.findLive(tx, id);
      if (!before) throw categoryNotFound();
      const parentId = body.parent_id === undefined ? before.parentId : body.parent_id;
      const moved = parentId !== before.parentId;
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
      if (grants) await repo.replaceGrants(tx, id, grants, actor.userId);

      const changes: Prisma.InputJsonObject = {
        ...diff('name', before.name, body.name),
        ...diff('description', before.description, body.description),
        ...(moved ? { parent_id: { before: before.parentId, after: parentId } } : {}),
        ...(body.position !== undefined
          ? { position: { before: before.position, after: body.position } }
          : {}),
        ...diff('inherit_fields', before.inheritFields, body.inherit_fields),
        ...diff('inherit_permissions', before.inheritPermissions, body.inherit_permissions),
        ...diff('incremental_prefix', before.incrementalPrefix, body.incremental_prefix),
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
    .catch(nameRace(body.name));
  return folderInfo(deps.db, scope, id);
}

function diff<T extends string | boolean>(key: string, before: T, after: T | undefined) {
  return after !== undefined && after !== before ? { [key]: { before, after } } : {};
}

/** "Invoices (copy)", "Invoices (copy 2)", … : the first free among `taken` (lower-cased). */
function copyName(name: string, taken: Set<string>): string {
  for (let n = 1; ; n += 1) {
    const candidate = `${name} (copy${n === 1 ? '' : ` ${n}`})`.slice(0, 120);
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}

export async function duplicateFolder(
  deps: Deps,
  scope: Scope,
  actor: Actor,
  body: { folder_id: number; name?: string; parent_id?: number | null },
): Promise<TFolderInfo> {
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
    .catch(nameRace(body.name));
  return folderInfo(deps.db, scope, id);
}

/** How many file ids an audit event lists at most (the count is always there). */
const AUDITED_FILE_IDS = 1000;

export async function deleteFolder(
  deps: Deps,
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
    const files = await repo.trashTree(tx, ids, deps.now(), actor.userId);
    await renumberSiblings(tx, category.parentId);
    for (const f of files)
      await emitFileEvent(tx, {
        type: 'deleted',
        file_id: f.id,
        category_id: f.categoryId,
        actor_id: actor.userId,
      });
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

// ---------------------------------------------------------------------------------------------
// Category groups

async function toGroups(
  db: Tx,
  scope: Scope,
  groups: Awaited<ReturnType<typeof repo.listCategoryGroups>>,
): Promise<TCategoryGroup[]> {
  const [members, rows] = await Promise.all([
    repo.visibleMembers(
      db,
      scope,
      groups.map((g) => g.id),
    ),
    repo.visibleRows(db, scope),
  ]);
  const paths = pathsOf(rows);
  const everything = readsEverything(scope);
  return groups
    .map((g) => ({
      id: g.id,
      name: g.name,
      description: g.description,
      categories: members
        .filter((m) => m.group_id === g.id)
        .map((m) => ({ id: m.id, name: m.name, path: paths.get(m.id) ?? m.name })),
      grants: everything
        ? g.permissions.map((p) => ({ id: p.id, grantee: granteeOf(p), rights: grantRights(p) }))
        : null,
      created_at: g.createdAt.toISOString(),
      updated_at: g.updatedAt.toISOString(),
    }))
    .filter((g) => everything || g.categories.length > 0);
}

export async function listCategoryGroups(deps: Deps, scope: Scope): Promise<TCategoryGroup[]> {
  return toGroups(deps.db, scope, await repo.listCategoryGroups(deps.db));
}

export async function getCategoryGroup(db: Tx, scope: Scope, id: number): Promise<TCategoryGroup> {
  const [group] = await toGroups(db, scope, await repo.listCategoryGroups(db, [id]));
  if (!group) throw categoryGroupNotFound();
  return group;
}

async function checkMembers(db: Tx, ids: number[]) {
  const live = await repo.liveIds(db, ids);
  const unknown = ids.filter((id) => !live.has(id));
  if (unknown.length)
    throw invalidInput(`category_ids: no such categories ${unknown.join(', ')}`, [
      { path: 'body.category_ids', message: `No such categories: ${unknown.join(', ')}` },
    ]);
}

function groupNameRace(name: string | undefined) {
  return (err: unknown): never => {
    if (name !== undefined && (err as { code?: string }).code === 'P2002') throw categoryGroupNameTaken(name);
    throw err;
  };
}

export async function createCategoryGroup(
  deps: Deps,
  scope: Scope,
  actor: Actor,
  body: { name: string; description?: string; category_ids?: number[]; permissions?: TGrantInput[] },
): Promise<TCategoryGroup> {
  const id = await deps.db
    .$transaction(async (tx) => {
      if (await repo.categoryGroupNamed(tx, body.name)) throw categoryGroupNameTaken(body.name);
      await checkMembers(tx, body.category_ids ?? []);
      const grants = await parseGrants(tx, body.permissions ?? [], 'body.permissions');
      const group = await repo.createCategoryGroup(tx, {
        name: body.name,
        description: body.description ?? '',
        createdById: actor.userId,
      });
      await repo.replaceMembers(tx, group.id, body.category_ids ?? []);
      await repo.replaceGroupGrants(tx, group.id, grants, actor.userId);
      await audit(tx, actor, {
        type: 'category',
        action: 'category_group.created',
        message: `Created category group "${group.name}" with ${body.category_ids?.length ?? 0} categories`,
        targetType: 'category_group',
        targetId: group.id,
        details: { name: group.name, category_ids: body.category_ids ?? [], grants: grants.length },
      });
      return group.id;
    })
    .catch(groupNameRace(body.name));
  return getCategoryGroup(deps.db, scope, id);
}

export async function updateCategoryGroup(
  deps: Deps,
  scope: Scope,
  actor: Actor,
  body: {
    id: number;
    name?: string;
    description?: string;
    category_ids?: number[];
    permissions?: TGrantInput[];
  },
): Promise<TCategoryGroup> {
  await deps.db
    .$transaction(async (tx) => {
      const before = await repo.findCategoryGroup(tx, body.id);
      if (!before) throw categoryGroupNotFound();
      if (body.name !== undefined && (await repo.categoryGroupNamed(tx, body.name, body.id)))
        throw categoryGroupNameTaken(body.name);
      if (body.category_ids) await checkMembers(tx, body.category_ids);
      const grants = body.permissions
        ? await parseGrants(tx, body.permissions, 'body.permissions')
        : undefined;
      await repo.updateCategoryGroup(tx, body.id, { name: body.name, description: body.description });
      if (body.category_ids) await repo.replaceMembers(tx, body.id, body.category_ids);
      if (grants) await repo.replaceGroupGrants(tx, body.id, grants, actor.userId);
      await audit(tx, actor, {
        type: 'category',
        action: 'category_group.updated',
        message: `Edited category group "${body.name ?? before.name}"`,
        targetType: 'category_group',
        targetId: body.id,
        details: {
          ...diff('name', before.name, body.name),
          ...diff('description', before.description, body.description),
          ...(body.category_ids
            ? {
                category_ids: {
                  before: before.members.sort((a, b) => a.position - b.position).map((m) => m.categoryId),
                  after: body.category_ids,
                },
              }
            : {}),
          ...(grants ? { grants: { before: before.permissions.length, after: grants.length } } : {}),
        },
      });
    })
    .catch(groupNameRace(body.name));
  return getCategoryGroup(deps.db, scope, body.id);
}

export async function deleteCategoryGroup(deps: Deps, actor: Actor, id: number): Promise<void> {
  await deps.db.$transaction(async (tx) => {
    const group = await repo.findCategoryGroup(tx, id);
    if (!group) throw categoryGroupNotFound();
    await repo.deleteCategoryGroup(tx, id);
    await audit(tx, actor, {
      type: 'category',
      action: 'category_group.deleted',
      message: `Deleted category group "${group.name}" (its ${group.permissions.length} grant(s) no longer apply)`,
      targetType: 'category_group',
      targetId: id,
      details: { name: group.name, category_ids: group.members.map((m) => m.categoryId) },
    });
  });
}

/** Who rights can be granted to: active people and every group. */
export async function grantees(deps: Deps) {
  const [users, groups] = await Promise.all([repo.granteeUsers(deps.db), repo.granteeGroups(deps.db)]);
  return { users: users.map((u) => ({ id: u.id, username: u.username, name: displayName(u) })), groups };
}

// ---------------------------------------------------------------------------------------------
// Related tags

export async function listTags(deps: Deps, scope: Scope, categoryId: number): Promise<TRelatedTag[]> {
  return tags(deps.db, scope, categoryId);
}

async function checkLink(db: Tx, categoryId: number, linked: number | null | undefined, path: string) {
  if (linked === undefined || linked === null) return;
  if (linked === categoryId)
    throw invalidInput('A tag cannot link a category to itself', [
      { path, message: 'This is the category itself' },
    ]);
  if (!(await repo.findLive(db, linked)))
    throw invalidInput(`${path.replace(/^body\./, '')}: no such category`, [
      { path, message: 'No such category' },
    ]);
}

export async function addTags(
  deps: Deps,
  scope: Scope,
  actor: Actor,
  body: {
    folder_id: number;
    tags: Array<{ name: string; color?: string | null; linked_folder_id?: number | null }>;
  },
): Promise<TRelatedTag[]> {
  await deps.db.$transaction(async (tx) => {
    if (!(await repo.findLive(tx, body.folder_id))) throw categoryNotFound();
    const errors: FieldError[] = [];
    const taken = new Set(
      (
        await repo.tagNamesTaken(
          tx,
          body.folder_id,
          body.tags.map((t) => t.name),
        )
      ).map((t) => t.name.toLowerCase()),
    );
    const seen = new Set<string>();
    body.tags.forEach((t, i) => {
      const key = t.name.toLowerCase();
      if (taken.has(key))
        errors.push({ path: `body.tags.${i}.name`, message: 'The category already has this tag' });
      else if (seen.has(key))
        errors.push({ path: `body.tags.${i}.name`, message: 'This tag is listed twice' });
      seen.add(key);
    });
    if (errors.length) throw invalidInput(summarise(errors), errors);
    for (const [i, t] of body.tags.entries())
      await checkLink(tx, body.folder_id, t.linked_folder_id, `body.tags.${i}.linked_folder_id`);
    const made = [];
    for (const t of body.tags)
      made.push(
        await repo.createTag(tx, {
          categoryId: body.folder_id,
          name: t.name,
          color: t.color ?? null,
          linkedCategoryId: t.linked_folder_id ?? null,
          createdById: actor.userId,
        }),
      );
    await audit(tx, actor, {
      type: 'category',
      action: 'related_tag.added',
      message: `Added related tag${made.length === 1 ? '' : 's'} ${made.map((m) => `"${m.name}"`).join(', ')}`,
      targetType: 'category',
      targetId: body.folder_id,
      details: {
        tags: made.map((m) => ({ id: m.id, name: m.name, linked_category_id: m.linkedCategoryId })),
      },
    });
  });
  return tags(deps.db, scope, body.folder_id);
}

export async function editTag(
  deps: Deps,
  scope: Scope,
  actor: Actor,
  body: {
    id: number;
    folder_id: number;
    name?: string;
    color?: string | null;
    linked_folder_id?: number | null;
  },
): Promise<TRelatedTag> {
  await deps.db.$transaction(async (tx) => {
    const tag = await repo.findTag(tx, body.id);
    if (!tag || tag.categoryId !== body.folder_id || tag.category.deletedAt) throw tagNotFound();
    if (body.name !== undefined && (await repo.tagNamesTaken(tx, tag.categoryId, [body.name], tag.id)).length)
      throw invalidInput(`The category already has the tag "${body.name}"`, [
        { path: 'body.name', message: 'The category already has this tag' },
      ]);
    await checkLink(tx, tag.categoryId, body.linked_folder_id, 'body.linked_folder_id');
    await repo.updateTag(tx, tag.id, {
      name: body.name,
      color: body.color,
      linkedCategoryId: body.linked_folder_id,
    });
    await audit(tx, actor, {
      type: 'category',
      action: 'related_tag.updated',
      message: `Edited related tag "${body.name ?? tag.name}"`,
      targetType: 'related_tag',
      targetId: tag.id,
      details: {
        ...diff('name', tag.name, body.name),
        ...(body.color !== undefined && body.color !== tag.color
          ? { color: { before: tag.color, after: body.color } }
          : {}),
        ...(body.linked_folder_id !== undefined && body.linked_folder_id !== tag.linkedCategoryId
          ? { linked_category_id: { before: tag.linkedCategoryId, after: body.linked_folder_id } }
          : {}),
      },
    });
  });
  const found = (await tags(deps.db, scope, body.folder_id)).find((t) => t.id === body.id);
  if (!found) throw tagNotFound();
  return found;
}

export async function deleteTag(deps: Deps, actor: Actor, id: number): Promise<void> {
  await deps.db.$transaction(async (tx) => {
    const tag = await repo.findTag(tx, id);
    if (!tag || tag.category.deletedAt) throw tagNotFound();
    await repo.deleteTag(tx, id);
    await audit(tx, actor, {
      type: 'category',
      action: 'related_tag.deleted',
      message: `Deleted related tag "${tag.name}" of "${tag.category.name}"`,
      targetType: 'related_tag',
      targetId: id,
      details: { category_id: tag.categoryId, name: tag.name },
    });
  });
}
