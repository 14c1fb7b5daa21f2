import type { TCategory } from '@quire/contract';
import type { TreeNode } from '../../../components/tree-view';
import { plural } from '../../../lib/format';

export interface CategoryNode extends TreeNode {
  id: number;
  folder: TCategory;
  children: CategoryNode[];
}

/** The flat tree of GET /api/folders (tree order, parent first) as nested nodes. */
export function toTree(folders: TCategory[]): CategoryNode[] {
  const nodes = new Map<number, CategoryNode>();
  const roots: CategoryNode[] = [];
  for (const folder of folders) {
    const node: CategoryNode = {
      id: folder.id,
      name: folder.name,
      detail: plural(folder.file_count, 'file', 'files'),
      folder,
      children: [],
    };
    nodes.set(folder.id, node);
    const parent = folder.parent_id === null ? undefined : nodes.get(folder.parent_id);
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

/** The ids of a category and every category below it in the flat tree. */
export function subtreeIds(folders: TCategory[], id: number): Set<number> {
  const ids = new Set([id]);
  for (const folder of folders)
    if (folder.parent_id !== null && ids.has(folder.parent_id)) ids.add(folder.id);
  return ids;
}

/** The ids on the way down to `id` (its ancestors in the flat tree), top first. */
export function pathTo(folders: TCategory[], id: number): number[] {
  const byId = new Map(folders.map((f) => [f.id, f]));
  const path: number[] = [];
  let at = byId.get(id)?.parent_id ?? null;
  while (at !== null) {
    path.unshift(at);
    at = byId.get(at)?.parent_id ?? null;
  }
  return path;
}
