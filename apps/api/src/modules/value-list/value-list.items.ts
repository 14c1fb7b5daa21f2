import { randomInt } from 'node:crypto';
import { VALUE_LIST_KEY_MAX } from '@quire/contract';
import type { FieldError } from '../../lib/errors.js';

// How a list's items become the items wanted, worked out before anything is written: which
// items are kept (by id), created (with their key, or a random free one) and removed. Keys
// identify items for good: a kept item keeps its key, an archived item (one a file uses)
// keeps holding its key, and a random key is drawn from the keys nothing holds.

export interface ExistingItem {
  id: number;
  key: number;
  label: string;
  position: number;
  archived: boolean;
}

export interface WantedItem {
  /** The item kept, when one is. */
  id?: number;
  key?: number | null;
  label: string;
  /** Where the item came from, for errors: `body.items.3` or `row 5`. */
  at: string;
  /** How a person names it in a message: `item 4`, `row 5`. */
  name: string;
}

export type ItemPlan =
  | { kind: 'invalid'; errors: FieldError[] }
  | { kind: 'full'; needed: number; free: number }
  | {
      kind: 'ok';
      keep: Array<{ id: number; label: string; position: number; labelChanged: boolean; moved: boolean }>;
      create: Array<{ key: number; label: string; position: number }>;
      /** Live items not wanted any more: archived when in use, else deleted. */
      archive: number[];
      remove: number[];
    };

/** Index of a random element of `n` (crypto-strength; tests may pass their own). */
export type Draw = (n: number) => number;
export const drawRandom: Draw = (n) => randomInt(n);

export function planItems(
  existing: ExistingItem[],
  wanted: WantedItem[],
  inUse: Set<number>,
  draw: Draw = drawRandom,
): ItemPlan {
  const live = new Map(existing.filter((e) => !e.archived).map((e) => [e.id, e]));
  const errors: FieldError[] = [];
  const seenIds = new Map<number, string>();
  const seenLabels = new Map<string, string>();
  const seenKeys = new Map<number, string>();
  for (const w of wanted) {
    if (w.id !== undefined) {
      const item = live.get(w.id);
      if (!item) errors.push({ path: `${w.at}.id`, message: 'No such item in this list' });
      else if (seenIds.has(w.id))
        errors.push({ path: `${w.at}.id`, message: `The same item as ${seenIds.get(w.id)}` });
      else if (w.key != null && w.key !== item.key)
        errors.push({ path: `${w.at}.key`, message: `An item keeps its key (${item.key})` });
      seenIds.set(w.id, w.name);
    }
    const label = w.label.toLowerCase();
    const labelTwin = seenLabels.get(label);
    if (labelTwin) errors.push({ path: `${w.at}.label`, message: `"${w.label}" is also in ${labelTwin}` });
    else seenLabels.set(label, w.name);
    const key = w.key ?? (w.id !== undefined ? live.get(w.id)?.key : undefined);
    if (key != null) {
      const keyTwin = seenKeys.get(key);
      if (keyTwin) errors.push({ path: `${w.at}.key`, message: `Key ${key} is also in ${keyTwin}` });
      else seenKeys.set(key, w.name);
    }
  }
  if (errors.length) return { kind: 'invalid', errors };

  const keptIds = new Set(wanted.flatMap((w) => (w.id === undefined ? [] : [w.id])));
  const leaving = [...live.values()].filter((e) => !keptIds.has(e.id));
  const archive = leaving.filter((e) => inUse.has(e.id)).map((e) => e.id);
  const remove = leaving.filter((e) => !inUse.has(e.id)).map((e) => e.id);

  // Keys held after the change: kept and archived items (old and new), keys given to new items.
  const held = new Set<number>();
  for (const e of existing) if (e.archived || keptIds.has(e.id) || inUse.has(e.id)) held.add(e.key);
  for (const w of wanted) {
    if (w.id !== undefined || w.key == null) continue;
    if (held.has(w.key)) {
      const holder = existing.find((e) => e.key === w.key);
      errors.push({
        path: `${w.at}.key`,
        message: holder?.archived
          ? `Key ${w.key} belongs to the archived item "${holder.label}"`
          : `Key ${w.key} is taken by another item`,
      });
    }
  }
  if (errors.length) return { kind: 'invalid', errors };
  for (const w of wanted) if (w.id === undefined && w.key != null) held.add(w.key);

  const needed = wanted.filter((w) => w.id === undefined && w.key == null).length;
  const free: number[] = [];
  if (needed > 0) for (let k = 1; k <= VALUE_LIST_KEY_MAX; k += 1) if (!held.has(k)) free.push(k);
  if (needed > free.length) return { kind: 'full', needed, free: free.length };

  const keep: Extract<ItemPlan, { kind: 'ok' }>['keep'] = [];
  const create: Extract<ItemPlan, { kind: 'ok' }>['create'] = [];
  wanted.forEach((w, position) => {
    if (w.id !== undefined) {
      const item = live.get(w.id)!;
      keep.push({
        id: w.id,
        label: w.label,
        position,
        labelChanged: item.label !== w.label,
        moved: item.position !== position,
      });
      return;
    }
    let key = w.key ?? null;
    if (key === null) {
      // Swap-remove: each draw takes one free key, never twice.
      const i = draw(free.length);
      key = free[i]!;
      free[i] = free[free.length - 1]!;
      free.pop();
    }
    create.push({ key, label: w.label, position });
  });
  return { kind: 'ok', keep, create, archive, remove };
}
