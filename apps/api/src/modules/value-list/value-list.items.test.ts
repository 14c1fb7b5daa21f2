import { describe, expect, it } from 'vitest';
import { type ExistingItem, planItems, type WantedItem } from './value-list.items.js';

const item = (id: number, key: number, label: string, archived = false): ExistingItem => ({
  id,
  key,
  label,
  position: id,
  archived,
});
const want = (w: Partial<WantedItem> & { label: string }, i = 0): WantedItem => ({
  at: `body.items.${i}`,
  name: `item ${i + 1}`,
  ...w,
});

describe('planItems', () => {
  it('draws a random free key for each new item, never one held by a kept or archived item', () => {
    const existing = [item(1, 5, 'Kept'), item(2, 6, 'Old', true), item(3, 7, 'Gone')];
    const keys: number[] = [];
    for (let run = 0; run < 50; run += 1) {
      const plan = planItems(
        existing,
        [want({ id: 1, label: 'Kept' }), want({ label: 'New' }, 1)],
        new Set(),
      );
      if (plan.kind !== 'ok') throw new Error(plan.kind);
      keys.push(plan.create[0]!.key);
      expect(plan.remove).toEqual([3]);
    }
    expect(keys.every((k) => k >= 1 && k <= 10000 && k !== 5 && k !== 6)).toBe(true);
    // Random, not the first free key every time.
    expect(new Set(keys).size).toBeGreaterThan(1);
  });

  it('takes the last free key, and is full (with the numbers) past it', () => {
    const existing = Array.from({ length: 9999 }, (_, i) => item(i + 1, i + 1, `L${i + 1}`));
    const kept = existing.map((e, i) => want({ id: e.id, label: e.label }, i));
    const one = planItems(existing, [...kept, want({ label: 'Last' }, 9999)], new Set());
    expect(one.kind === 'ok' && one.create[0]!.key).toBe(10000);
    const two = planItems(
      existing,
      [...kept, want({ label: 'A' }, 9999), want({ label: 'B' }, 10000)],
      new Set(),
    );
    expect(two).toEqual({ kind: 'full', needed: 2, free: 1 });
  });

  it('gives new items distinct keys in one draw', () => {
    const wanted = Array.from({ length: 10000 }, (_, i) => want({ label: `L${i}` }, i));
    const plan = planItems([], wanted, new Set());
    if (plan.kind !== 'ok') throw new Error(plan.kind);
    expect(new Set(plan.create.map((c) => c.key)).size).toBe(10000);
  });

  it('archives leaving items that are in use, deletes the others; their keys stay held when archived', () => {
    const existing = [item(1, 1, 'A'), item(2, 2, 'B'), item(3, 3, 'C')];
    const plan = planItems(
      existing,
      [want({ id: 1, label: 'A' }), want({ key: 2, label: 'D' }, 1)],
      new Set([2]),
    );
    expect(plan).toEqual({
      kind: 'invalid',
      errors: [{ path: 'body.items.1.key', message: 'Key 2 is taken by another item' }],
    });
    const ok = planItems(
      existing,
      [want({ id: 1, label: 'A' }), want({ key: 3, label: 'D' }, 1)],
      new Set([2]),
    );
    expect(ok).toMatchObject({
      kind: 'ok',
      archive: [2],
      remove: [3],
      create: [{ key: 3, label: 'D', position: 1 }],
    });
  });

  it('names repeated labels (any case) and keys, unknown ids and changed keys of kept items', () => {
    const existing = [item(1, 1, 'A'), item(2, 2, 'Z', true)];
    const plan = planItems(
      existing,
      [
        want({ id: 1, key: 9, label: 'A' }, 0),
        want({ label: 'b', key: 4 }, 1),
        want({ label: 'B', key: 4 }, 2),
        want({ id: 77, label: 'C' }, 3),
        want({ label: 'Y', key: 2 }, 4),
      ],
      new Set(),
    );
    expect(plan.kind === 'invalid' && plan.errors).toEqual([
      { path: 'body.items.0.key', message: 'An item keeps its key (1)' },
      { path: 'body.items.2.label', message: '"B" is also in item 2' },
      { path: 'body.items.2.key', message: 'Key 4 is also in item 2' },
      { path: 'body.items.3.id', message: 'No such item in this list' },
    ]);
    const archivedKey = planItems(existing, [want({ label: 'Y', key: 2 })], new Set());
    expect(archivedKey.kind === 'invalid' && archivedKey.errors[0]!.message).toBe(
      'Key 2 belongs to the archived item "Z"',
    );
  });
});
