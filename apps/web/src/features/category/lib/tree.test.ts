import type { TCategory } from '@quire/contract';
import { describe, expect, it } from 'vitest';
import { aCategory } from '../../../testing/fixtures';
import { pathTo, subtreeIds, toTree } from './tree';

const folder = (id: number, parent_id: number | null, depth = 0): TCategory =>
  aCategory({ id, name: `F${id}`, parent_id, depth, file_count: id === 1 ? 1 : 2 });

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
