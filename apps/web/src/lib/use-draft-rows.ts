import { useState } from 'react';
import { moveItem } from './move-item';

/**
 * The rows of a list edited in place and saved at once (a category's fields, a value list's
 * items): each row changed, moved up or down, or removed by its index.
 */
export function useDraftRows<T>(initial: T[] | (() => T[])) {
  const [rows, setRows] = useState<T[]>(initial);
  return {
    rows,
    setRows,
    change: (index: number, patch: Partial<T>) =>
      setRows((list) => list.map((row, i) => (i === index ? { ...row, ...patch } : row))),
    move: (index: number, by: number) => setRows((list) => moveItem(list, index, by)),
    remove: (index: number) => setRows((list) => list.filter((_, i) => i !== index)),
  };
}

/** The rows `MoveRemoveCell` moves and removes. */
export type DraftRows = Pick<ReturnType<typeof useDraftRows<unknown>>, 'rows' | 'move' | 'remove'>;
