import type {
  CategoryRightName,
  TAdminCategory,
  TCategory,
  TCategoryField,
  TCategoryInfo,
  TCategoryMeta,
  TCategoryOption,
  TGrantView,
} from '@quire/contract';
import type { Deps, Tx } from '../../lib/deps.js';
import { readsEverything, type Scope } from '../../lib/visibility.js';
import { hasUnindexedFileIn } from '../file/unindexed-waiting.service.js';
import * as metadata from '../metadata/metadata.service.js';
import { categoryNotFound } from './category.errors.js';
import { granteeOf, grantRights } from './category.grants.js';
import * as repo from './category.repository.js';
import { bySiblingOrder, inTreeOrder, pathsOf, rightsOf, toCategoryDto } from './category.tree.js';
import * as grantsRepo from './category-grants.repository.js';
import { categoryTags } from './related-tags.service.js';

// The catalog: the category tree, its fields, rights, groups and tags. Reads take the
// caller's scope (lib/visibility.ts) and show only what it may view; writes are File Control
// writes (their guard) on live categories, each in one transaction with its audit event.
// This file reads; category-writes.service.ts changes categories, category-groups.service.ts
// and related-tags.service.ts hold the groups and the tags.

// ---------------------------------------------------------------------------------------------
// Reading the tree

export async function listCategories(deps: Deps, scope: Scope): Promise<TCategory[]> {
  return inTreeOrder(await repo.visibleRows(deps.db, scope)).map(({ row, depth }) =>
    toCategoryDto(row, depth),
  );
}

export async function adminCategories(deps: Deps, scope: Scope): Promise<TAdminCategory[]> {
  const rows = await repo.visibleRows(deps.db, scope);
  const ids = rows.map((r) => r.id);
  const [counts, groups] = await Promise.all([repo.countsBy(deps.db, ids), repo.groupsOf(deps.db, ids)]);
  const paths = pathsOf(rows);
  return inTreeOrder(rows).map(({ row, depth }) => ({
    ...toCategoryDto(row, depth),
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
): Promise<TCategoryOption[]> {
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
async function effectiveFields(db: Tx, scope: Scope, id: number): Promise<TCategoryField[]> {
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
  return (await repo.effectiveFieldRows(db, id)).map(toCategoryField);
}

/** A live category's name with its fields (categoryFields), read at once; null when it is gone. */
export async function liveCategoryFields(db: Tx, id: number) {
  const found = await repo.liveCategoryWithFields(db, id);
  return found && { id: found.id, name: found.name, fields: found.fields.map(toCategoryField) };
}

function toCategoryField(r: repo.EffectiveFieldRow): CategoryField {
  return {
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
  };
}

/**
 * A category's fields, for its index form: to whoever views the category, and to whoever has an
 * unindexed file waiting there (theirs, or left by intake for a group of theirs), who may not
 * view it. Fields only: no other category is named to them (effectiveFields). Others: 404.
 */
export async function categoryMeta(deps: Deps, scope: Scope, id: number): Promise<TCategoryMeta> {
  const [row] = await repo.visibleRows(deps.db, scope, { ids: [id] });
  let inheritFields = row?.inherit_fields;
  if (inheritFields === undefined && (await hasUnindexedFileIn(deps.db, scope.userId, id)))
    inheritFields = (await repo.findLive(deps.db, id))?.inheritFields;
  if (inheritFields === undefined) throw categoryNotFound();
  return {
    folder_id: id,
    inherit_fields: inheritFields,
    fields: await effectiveFields(deps.db, scope, id),
  };
}

/** Every grant that holds on a category: its own, inherited ones, and through category groups. */
async function grantsHolding(db: Tx, id: number): Promise<TGrantView[]> {
  const from = inheritanceChain(await repo.chainUp(db, id), 'inherit_permissions');
  const ids = from.map((c) => c.id);
  const nameOf = new Map(from.map((c) => [c.id, c.name]));
  const [direct, viaGroups] = await Promise.all([
    grantsRepo.grantsOn(db, ids),
    grantsRepo.groupGrantsOn(db, ids),
  ]);
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

export async function categoryInfo(db: Tx, scope: Scope, id: number): Promise<TCategoryInfo> {
  const [row] = await repo.visibleRows(db, scope, { ids: [id] });
  if (!row) throw categoryNotFound();
  const everything = readsEverything(scope);
  const [children, chain, fields, relatedTags, groups, grants, below] = await Promise.all([
    repo.visibleRows(db, scope, { parentId: id }),
    repo.chainUp(db, id),
    effectiveFields(db, scope, id),
    categoryTags(db, scope, id),
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
    ...toCategoryDto(row, depth),
    ancestors,
    children: children.sort(bySiblingOrder).map((c) => toCategoryDto(c, depth + 1)),
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
