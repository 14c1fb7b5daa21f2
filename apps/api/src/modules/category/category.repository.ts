import type { CategoryRightName } from '@quire/contract';
import { type FieldType, Prisma } from '@quire/db';
import type { Tx } from '../../lib/deps.js';
import { lockFor, lockRow } from '../../lib/locks.js';
import { sameName } from '../../lib/names.js';
import { readRows } from '../../lib/sql.js';
import { categoryRightsTable, fileVisible, type Scope } from '../../lib/visibility.js';

// The catalog's queries. Every read that lists or counts categories or files goes through
// lib/visibility.ts in SQL (categoryRightsTable, fileVisible): nothing is filtered afterwards.
// The tree reads and the category writes (copy, trash, positions) share the tree's recursive
// SQL and row locks; a category's grants and grantees are category-grants.repository.ts, groups
// and tags have their own repositories.

export interface CategoryRow {
  id: number;
  name: string;
  description: string;
  parent_id: number | null;
  position: number;
  inherit_fields: boolean;
  inherit_permissions: boolean;
  incremental_prefix: string;
  created_at: Date;
  updated_at: Date;
  can_view: boolean;
  can_upload: boolean;
  can_edit: boolean;
  can_delete: boolean;
  can_share: boolean;
  can_manage: boolean;
  /** Whether the caller may view the parent (false at the top). */
  parent_visible: boolean;
  subcategory_count: number;
  file_count: number;
}

const RIGHT_COLUMN: Record<CategoryRightName, Prisma.Sql> = {
  view: Prisma.sql`r.can_view`,
  upload: Prisma.sql`r.can_upload`,
  edit: Prisma.sql`r.can_edit`,
  delete: Prisma.sql`r.can_delete`,
  share: Prisma.sql`r.can_share`,
  manage: Prisma.sql`r.can_manage`,
};

interface RowFilter {
  /** Only these categories. */
  ids?: number[];
  /** Only the children of this category. */
  parentId?: number;
  /** Only where the caller holds this right. */
  right?: CategoryRightName;
  /** Part of the name, any letter case. */
  search?: string;
}

/**
 * The live categories the scope may view (narrowed by `filter`), with the scope's rights,
 * whether it sees the parent, and counts of what it may view: sub-categories, and indexed
 * live files directly in each.
 */
export async function visibleRows(db: Tx, scope: Scope, filter: RowFilter = {}): Promise<CategoryRow[]> {
  const where: Prisma.Sql[] = [Prisma.sql`true`];
  if (filter.ids) where.push(Prisma.sql`c.id = ANY(${filter.ids}::int[])`);
  if (filter.parentId !== undefined) where.push(Prisma.sql`c.parent_id = ${filter.parentId}::int`);
  if (filter.right) where.push(RIGHT_COLUMN[filter.right]);
  if (filter.search) where.push(Prisma.sql`strpos(lower(c.name), lower(${filter.search})) > 0`);
  const rows = await db.$queryRaw<
    Array<
      Omit<CategoryRow, 'subcategory_count' | 'file_count'> & {
        subcategory_count: bigint;
        file_count: bigint;
      }
    >
  >`
    WITH r AS MATERIALIZED (${categoryRightsTable(scope)})
    SELECT c.id, c.name, c.description, c.parent_id, c.position, c.inherit_fields, c.inherit_permissions,
           c.incremental_prefix, c.created_at, c.updated_at,
           r.can_view, r.can_upload, r.can_edit, r.can_delete, r.can_share, r.can_manage,
           coalesce(c.parent_id IN (SELECT category_id FROM r), false) AS parent_visible,
           (SELECT count(*) FROM categories k
             WHERE k.parent_id = c.id AND k.id IN (SELECT category_id FROM r)) AS subcategory_count,
           (SELECT count(*) FROM files f
             WHERE f.category_id = c.id AND f.deleted_at IS NULL AND f.index_status = 'indexed'
               AND ${fileVisible(scope, 'f')}) AS file_count
      FROM categories c
      JOIN r ON r.category_id = c.id
     WHERE ${Prisma.join(where, ' AND ')}`;
  return rows.map((r) => ({
    ...r,
    subcategory_count: Number(r.subcategory_count),
    file_count: Number(r.file_count),
  }));
}

/** A category and every category above it (deleted or not, visible or not), from it upwards. */
export async function chainUp(db: Tx, id: number) {
  return db.$queryRaw<
    Array<{
      id: number;
      name: string;
      parent_id: number | null;
      inherit_fields: boolean;
      inherit_permissions: boolean;
      deleted: boolean;
      depth: number;
    }>
  >`
    WITH RECURSIVE up AS (
      SELECT c.id, c.name, c.parent_id, c.inherit_fields, c.inherit_permissions, c.deleted_at IS NOT NULL AS deleted, 0 AS depth
        FROM categories c WHERE c.id = ${id}::int
      UNION ALL
      SELECT p.id, p.name, p.parent_id, p.inherit_fields, p.inherit_permissions, p.deleted_at IS NOT NULL, up.depth + 1
        FROM categories p JOIN up ON p.id = up.parent_id
       WHERE up.depth < 1000
    )
    SELECT * FROM up ORDER BY depth`;
}

/** The ids of the live categories below `id` (at any depth), not `id` itself. */
export async function liveDescendantIds(db: Tx, id: number): Promise<number[]> {
  const rows = await db.$queryRaw<Array<{ id: number }>>`
    WITH RECURSIVE down AS (
      SELECT c.id FROM categories c WHERE c.parent_id = ${id}::int AND c.deleted_at IS NULL
      UNION ALL
      SELECT c.id FROM categories c JOIN down ON c.parent_id = down.id WHERE c.deleted_at IS NULL
    )
    SELECT id FROM down`;
  return rows.map((r) => r.id);
}

/** Which of these ids are the scope's visible categories (for names shown next to other things). */
export async function visibleAmong(db: Tx, scope: Scope, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.$queryRaw<Array<{ id: number }>>`
    SELECT category_id AS id FROM (${categoryRightsTable(scope)}) r WHERE r.category_id = ANY(${ids}::int[])`;
  return new Set(rows.map((r) => r.id));
}

// ---- fields, grants, groups, tags of categories --------------------------------------------

/** A field a category takes, with the level it takes it from and the field's bounds. */
export interface EffectiveFieldRow {
  field_id: number;
  /** The category the field is listed on: this one, or one above that it inherits from. */
  category_id: number;
  depth: number;
  position: number;
  name: string;
  type: FieldType;
  /** The category's own setting (null: the field's). */
  required_override: boolean | null;
  required: boolean;
  default_value: string | null;
  show_in_list: boolean;
  value_list_id: number | null;
  min_number: Prisma.Decimal | string | null;
  max_number: Prisma.Decimal | string | null;
  min_date: Date | null;
  max_date: Date | null;
  max_length: number | null;
  pattern: string | null;
}

/**
 * The one definition of a category's fields: the live metadata fields listed on it and on
 * the categories above it while each level inherits fields (`inherit_fields`), a field listed
 * at several levels taken from the nearest; in form order, the outermost level first, then
 * by position within a level.
 */
export async function effectiveFieldRows(db: Tx, categoryId: number): Promise<EffectiveFieldRow[]> {
  const rows = await readRows<EffectiveFieldRow>(
    db,
    Prisma.sql`${effectiveFieldsCte(categoryId)} SELECT * FROM effective`,
    'quire_effective_fields',
  );
  return inFormOrder(rows);
}

/**
 * A live category's name with its fields (effectiveFieldRows), in one statement: null when
 * the category is deleted or was never there.
 */
export async function liveCategoryWithFields(
  db: Tx,
  categoryId: number,
): Promise<{ id: number; name: string; fields: EffectiveFieldRow[] } | null> {
  const rows = await readRows<{ category_name: string } & ({ field_id: null } | EffectiveFieldRow)>(
    db,
    Prisma.sql`${effectiveFieldsCte(categoryId)}
    SELECT c.name AS category_name, f.*
      FROM categories c LEFT JOIN effective f ON true
     WHERE c.id = ${categoryId}::int AND c.deleted_at IS NULL`,
    'quire_live_category_fields',
  );
  const [first] = rows;
  if (!first) return null;
  const fields = rows.filter((r): r is { category_name: string } & EffectiveFieldRow => r.field_id !== null);
  return { id: categoryId, name: first.category_name, fields: inFormOrder(fields) };
}

/** `effective`: the fields of category `categoryId` (the one definition: effectiveFieldRows). */
function effectiveFieldsCte(categoryId: number) {
  return Prisma.sql`
    WITH RECURSIVE chain AS (
      SELECT id, parent_id, inherit_fields, 0 AS depth FROM categories WHERE id = ${categoryId}::int
      UNION ALL
      SELECT p.id, p.parent_id, p.inherit_fields, chain.depth + 1
        FROM categories p JOIN chain ON p.id = chain.parent_id AND chain.inherit_fields
       WHERE chain.depth < 1000
    ), effective AS (
      SELECT DISTINCT ON (cf.field_id) cf.field_id, cf.category_id, chain.depth, cf.position, mf.name,
             mf.type, cf.required AS required_override, coalesce(cf.required, mf.required) AS required,
             cf.default_value, cf.show_in_list, mf.value_list_id, mf.min_number, mf.max_number,
             mf.min_date, mf.max_date, mf.max_length, mf.pattern
        FROM chain
        JOIN category_fields cf ON cf.category_id = chain.id
        JOIN metadata_fields mf ON mf.id = cf.field_id AND mf.deleted_at IS NULL
       ORDER BY cf.field_id, chain.depth
    )`;
}

/** Form order: the outermost level first, then by position within a level. */
function inFormOrder<T extends EffectiveFieldRow>(rows: T[]): T[] {
  return rows.sort((a, b) => b.depth - a.depth || a.position - b.position || a.field_id - b.field_id);
}

export function groupsOf(db: Tx, categoryIds: number[]) {
  return db.categoryGroupMember.findMany({
    where: { categoryId: { in: categoryIds } },
    select: { categoryId: true, categoryGroup: { select: { id: true, name: true } } },
    orderBy: { categoryGroup: { name: 'asc' } },
  });
}

export async function countsBy(db: Tx, ids: number[]) {
  const [fields, tags, grants] = await Promise.all([
    db.categoryField.groupBy({ by: ['categoryId'], where: { categoryId: { in: ids } }, _count: true }),
    db.relatedTag.groupBy({ by: ['categoryId'], where: { categoryId: { in: ids } }, _count: true }),
    db.categoryPermission.groupBy({ by: ['categoryId'], where: { categoryId: { in: ids } }, _count: true }),
  ]);
  const map = (rows: Array<{ categoryId: number; _count: number }>) =>
    new Map(rows.map((r) => [r.categoryId, r._count]));
  return { fields: map(fields), tags: map(tags), grants: map(grants) };
}

/** Tags of a category by name, with the linked category when the scope may view it. */
// ---- writes ---------------------------------------------------------------------------------

/** Locks the category's row: two edits of one category run one after the other. */
export function lockCategory(tx: Tx, id: number): Promise<boolean> {
  return lockRow(tx, 'categories', id);
}

export function findLive(db: Tx, id: number) {
  return db.category.findFirst({ where: { id, deletedAt: null } });
}

/** Live ids among these. */
export async function liveIds(db: Tx, ids: number[]): Promise<Set<number>> {
  const rows = await db.category.findMany({
    where: { id: { in: ids }, deletedAt: null },
    select: { id: true },
  });
  return new Set(rows.map((r) => r.id));
}

/** A live sibling (under `parentId`) named `name` in any letter case, other than `exceptId`. */
export function siblingNamed(db: Tx, parentId: number | null, name: string, exceptId?: number) {
  return db.category.findFirst({
    where: { parentId, deletedAt: null, ...sameName(name, exceptId) },
    select: { id: true },
  });
}

/** The live names under `parentId`, lower-cased. */
export async function siblingNames(db: Tx, parentId: number | null): Promise<Set<string>> {
  const rows = await db.category.findMany({ where: { parentId, deletedAt: null }, select: { name: true } });
  return new Set(rows.map((r) => r.name.toLowerCase()));
}

/**
 * Live siblings in order, locked (one writer reorders a parent's children at a time). FOR NO
 * KEY UPDATE, as an UPDATE of their positions takes: a category can still be made under one.
 */
export async function lockSiblings(tx: Tx, parentId: number | null) {
  const parent = parentId === null ? Prisma.sql`parent_id IS NULL` : Prisma.sql`parent_id = ${parentId}::int`;
  return tx.$queryRaw<Array<{ id: number; position: number }>>`
    SELECT id, position FROM categories WHERE ${parent} AND deleted_at IS NULL
     ORDER BY position, id FOR NO KEY UPDATE`;
}

/** Moves and renames (who goes under whom) one at a time: no two moves make a cycle together. */
export async function lockTree(tx: Tx) {
  await lockFor(tx, 'categoryTree');
}

/**
 * Gives categories `order` the positions 0, 1, 2… in that order, in one statement: only those
 * whose position (`before`) changes, their `updated_at` from the server's clock, as Prisma's
 * @updatedAt.
 */
export async function setPositions(tx: Tx, order: number[], before: Map<number, number>) {
  const moved = [...order.entries()].filter(([position, id]) => before.get(id) !== position);
  if (!moved.length) return;
  await tx.$executeRaw`
    UPDATE categories c SET position = m.position,
           updated_at = ${new Date().toISOString()}::timestamptz AT TIME ZONE 'UTC'
      FROM unnest(${moved.map(([, id]) => id)}::int[], ${moved.map(([position]) => position)}::int[])
           AS m(id, position)
     WHERE c.id = m.id`;
}

type CategoryData = Omit<Prisma.CategoryUncheckedCreateInput, 'id' | 'createdAt' | 'updatedAt'>;

export function createCategory(tx: Tx, data: CategoryData) {
  return tx.category.create({ data });
}

export function updateCategory(tx: Tx, id: number, data: Partial<CategoryData>) {
  return tx.category.update({ where: { id }, data });
}

export async function replaceFields(
  tx: Tx,
  categoryId: number,
  fields: Array<{
    fieldId: number;
    required: boolean | null;
    defaultValue: string | null;
    showInList: boolean;
  }>,
) {
  await tx.categoryField.deleteMany({ where: { categoryId } });
  if (fields.length)
    await tx.categoryField.createMany({
      data: fields.map((f, position) => ({ ...f, categoryId, position })),
    });
}

/** Everything a duplicate copies of these categories. */
export async function copySources(tx: Tx, ids: number[]) {
  const [categories, fields, grants, tags, groups] = await Promise.all([
    tx.category.findMany({ where: { id: { in: ids } } }),
    tx.categoryField.findMany({ where: { categoryId: { in: ids } } }),
    tx.categoryPermission.findMany({ where: { categoryId: { in: ids } } }),
    tx.relatedTag.findMany({ where: { categoryId: { in: ids } } }),
    tx.categoryGroupMember.findMany({ where: { categoryId: { in: ids } } }),
  ]);
  return { categories, fields, grants, tags, groups };
}

export async function copyInto(
  tx: Tx,
  copies: Map<number, number>,
  sources: Awaited<ReturnType<typeof copySources>>,
  by: number | null,
) {
  const to = (id: number) => copies.get(id)!;
  if (sources.fields.length)
    await tx.categoryField.createMany({
      data: sources.fields.map(({ categoryId, ...f }) => ({ ...f, categoryId: to(categoryId) })),
    });
  if (sources.grants.length)
    await tx.categoryPermission.createMany({
      data: sources.grants.map(({ id: _id, createdAt: _c, updatedAt: _u, categoryId, ...g }) => ({
        ...g,
        categoryId: to(categoryId),
        grantedById: by,
      })),
    });
  if (sources.tags.length)
    await tx.relatedTag.createMany({
      data: sources.tags.map(
        ({ id: _id, createdAt: _c, updatedAt: _u, categoryId, linkedCategoryId, ...t }) => ({
          ...t,
          categoryId: to(categoryId),
          // A link inside the copied tree points at the copy.
          linkedCategoryId:
            linkedCategoryId === null ? null : (copies.get(linkedCategoryId) ?? linkedCategoryId),
          createdById: by,
        }),
      ),
    });
  if (sources.groups.length) {
    const ends = await tx.categoryGroupMember.groupBy({
      by: ['categoryGroupId'],
      where: { categoryGroupId: { in: sources.groups.map((g) => g.categoryGroupId) } },
      _max: { position: true },
    });
    const next = new Map(ends.map((e) => [e.categoryGroupId, (e._max.position ?? -1) + 1]));
    await tx.categoryGroupMember.createMany({
      data: sources.groups.map((g) => {
        const position = next.get(g.categoryGroupId) ?? 0;
        next.set(g.categoryGroupId, position + 1);
        return { categoryGroupId: g.categoryGroupId, categoryId: to(g.categoryId), position };
      }),
    });
  }
}

/** How many live files (any state) these categories hold. */
export function liveFileCount(db: Tx, categoryIds: number[]) {
  return db.file.count({ where: { categoryId: { in: categoryIds }, deletedAt: null } });
}

/** Soft-deletes categories and moves their live files to the trash, at one time; returns the file ids. */
export async function trashTree(tx: Tx, categoryIds: number[], at: Date, by: number | null) {
  const files = await tx.file.findMany({
    where: { categoryId: { in: categoryIds }, deletedAt: null },
    select: { id: true, categoryId: true },
  });
  await tx.file.updateMany({
    where: { id: { in: files.map((f) => f.id) } },
    data: { deletedAt: at, deletedById: by },
  });
  await tx.category.updateMany({
    where: { id: { in: categoryIds } },
    data: { deletedAt: at, deletedById: by },
  });
  return files;
}
