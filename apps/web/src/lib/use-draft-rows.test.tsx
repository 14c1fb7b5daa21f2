import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { messagesByPath } from './field-errors';
import { useDraftRows } from './use-draft-rows';

type Row = { label: string; key: number | null };
const rows = (): Row[] => [
  { label: 'Paid', key: 1 },
  { label: 'Open', key: 2 },
  { label: 'Late', key: null },
];

describe('useDraftRows', () => {
  it('changes, moves and removes a row by its index, leaving the others as they were', () => {
    const { result } = renderHook(() => useDraftRows(rows));
    act(() => result.current.change(1, { label: 'Unpaid' }));
    expect(result.current.rows.map((r) => r.label)).toEqual(['Paid', 'Unpaid', 'Late']);
    act(() => result.current.move(2, -1));
    expect(result.current.rows.map((r) => r.label)).toEqual(['Paid', 'Late', 'Unpaid']);
    act(() => result.current.move(0, 1));
    expect(result.current.rows.map((r) => r.label)).toEqual(['Late', 'Paid', 'Unpaid']);
    act(() => result.current.remove(1));
    expect(result.current.rows).toEqual([
      { label: 'Late', key: null },
      { label: 'Unpaid', key: 2 },
    ]);
  });
});

describe('messagesByPath', () => {
  it('keys each message by its path with the prefix taken off', () => {
    expect(
      messagesByPath(
        [
          { path: 'body.fields.0.default_value', message: 'Not a date' },
          { path: 'body.name', message: 'Taken' },
        ],
        'body.fields.',
      ),
    ).toEqual({ '0.default_value': 'Not a date', 'body.name': 'Taken' });
  });
});
