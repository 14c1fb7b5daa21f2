import type { TCategory, TRights } from '@quire/contract';
import type * as repo from './category.repository.js';

// The category tree as the caller sees it: rows in sibling order, their depth and their
// paths ("Finance / Invoices"), and a row's rights. Pure functions over the repository's rows.

export const rightsOf = (r: repo.CategoryRow): TRights => ({
  view: r.can_view,
  upload: r.can_upload,
  edit: r.can_edit,
  delete: r.can_delete,
  share: r.can_share,
  manage: r.can_manage,
});

export function toCategoryDto(r: repo.CategoryRow, depth: number): TCategory {
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

export const bySiblingOrder = (a: repo.CategoryRow, b: repo.CategoryRow) =>
  a.position - b.position || a.name.localeCompare(b.name) || a.id - b.id;

/**
 * The rows in tree order (depth-first, siblings in order) with their depth in the caller's
 * tree: a category whose parent the caller may not view is at the top of it.
 */
export function inTreeOrder(rows: repo.CategoryRow[]): Array<{ row: repo.CategoryRow; depth: number }> {
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
export function pathsOf(rows: repo.CategoryRow[]): Map<number, string> {
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
