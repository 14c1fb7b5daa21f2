import type { TCategory } from '@quire/contract';
import { describe, expect, it } from 'vitest';
import { pathTo, subtreeIds, toTree } from './tree';

const folder = (id: number, parent_id: number | null, depth = 0): TCategory => ({
  id,
  name: `F${id}`,
  description: '',
  parent_id,
  position: 0,
  depth,
  inherit_fields: true,
  inherit_permissions: true,
  subcategory_count: 0,
  file_count: id === 1 ? 1 : 2,
  rights: { view: true, upload: false, edit: false, delete: false, share: false, manage: false },
});

describe('the category tree', () => {
  const flat = [folder(1, null), folder(2, 1, 1), folder(4, 2, 2), folder(3, 1, 1), folder(5, null)];
  it('nests the flat list in its order, with the file count as the detail', () => {
    const tree = toTree(flat);
    expect(tree.map((n) => n.id)).toEqual([1, 5]);
    expect(tree[0]!.children.map((n) => n.id)).toEqual([2, 3]);
    expect(tree[0]!.children[0]!.children.map((n) => n.id)).toEqual([4]);
    expect(tree[0]!.detail).toBe('1 file');
    expect(tree[1]!.detail).toBe('2 files');
  });
  it('finds a subtree and the way down to a category', () => {
    expect([...subtreeIds(flat, 2)]).toEqual([2, 4]);
    expect(pathTo(flat, 4)).toEqual([1, 2]);
    expect(pathTo(flat, 5)).toEqual([]);
  });
});
