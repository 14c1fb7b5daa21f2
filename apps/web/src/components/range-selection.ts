import { useRef } from 'react';

/**
 * Shift for a range in a table's selection: a row selected with Shift held (click on its box,
 * or Space) also selects every row between it and the row selected before it. React Aria
 * extends a selection from a Shift-press on the row itself but not on its checkbox; this covers
 * both. Spread `captureProps` on an element around the table.
 */
export function useRangeSelection<K>(
  rowKeys: K[],
  selected: ReadonlySet<K>,
  onChange: (keys: Set<K>) => void,
) {
  const anchor = useRef<K | null>(null);
  const shift = useRef(false);
  const onSelectionChange = (next: Set<K>) => {
    const added = [...next].filter((k) => !selected.has(k));
    const last = added.length === 1 ? (added[0] as K) : null;
    if (shift.current && last !== null && anchor.current !== null) {
      const from = rowKeys.indexOf(anchor.current);
      const to = rowKeys.indexOf(last);
      if (from >= 0 && to >= 0)
        for (const k of rowKeys.slice(Math.min(from, to), Math.max(from, to) + 1)) next.add(k);
    }
    anchor.current = last ?? anchor.current;
    onChange(next);
  };
  const note = (e: { shiftKey: boolean }) => {
    shift.current = e.shiftKey;
  };
  return {
    onSelectionChange,
    captureProps: { onPointerDownCapture: note, onKeyDownCapture: note, onClickCapture: note },
  };
}
