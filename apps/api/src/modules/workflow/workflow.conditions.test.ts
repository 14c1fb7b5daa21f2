import { describe, expect, it } from 'vitest';
import { type Condition, describeFailures, evaluate } from './workflow.conditions.js';
import type { FieldMeta } from './workflow.values.js';

const field = (id: number, type: FieldMeta['type'], name = `F${id}`): FieldMeta => ({
  id,
  name,
  type,
  required: false,
  maxLength: null,
  minNumber: null,
  maxNumber: null,
  options:
    type === 'select'
      ? [
          { id: 10, key: 1, label: 'Invoice', archived: false },
          { id: 11, key: 2, label: 'Receipt', archived: false },
        ]
      : [],
});

const amount = field(1, 'number', 'Amount');
const kind = field(2, 'select', 'Kind');
const due = field(3, 'date', 'Due');
const note = field(4, 'text', 'Note');

let seq = 0;
const c = (
  f: FieldMeta,
  operator: Condition['operator'],
  value: string | null,
  join: 'and' | 'or' = 'and',
): Condition => ({
  id: ++seq,
  field: f,
  onWorkflowField: false,
  operator,
  value,
  join,
  position: seq,
});

const values = (
  file: Array<[number, string | number | boolean | null]>,
  run: Array<[number, string | number | null]> = [],
) => ({
  file: new Map(file),
  run: new Map(run),
});

describe('conditions', () => {
  it('compares by the field type: numbers as numbers, dates as dates, select by key or label, text without case', () => {
    const v = values([
      [1, 1200],
      [2, 2],
      [3, '2026-05-01'],
      [4, 'Paid in FULL'],
    ]);
    const hold = (x: Condition) => evaluate([x], v).holds;
    expect(hold(c(amount, 'gt', '999'))).toBe(true);
    expect(hold(c(amount, 'gt', '1200'))).toBe(false);
    expect(hold(c(amount, 'lt', '10000'))).toBe(true);
    expect(hold(c(kind, 'eq', 'receipt'))).toBe(true);
    expect(hold(c(kind, 'eq', '2'))).toBe(true);
    expect(hold(c(kind, 'ne', 'Invoice'))).toBe(true);
    expect(hold(c(kind, 'in_list', JSON.stringify(['1', 'Receipt'])))).toBe(true);
    expect(hold(c(kind, 'in_list', JSON.stringify(['1'])))).toBe(false);
    expect(hold(c(due, 'lt', '2026-06-01'))).toBe(true);
    expect(hold(c(due, 'gt', '2026-06-01'))).toBe(false);
    expect(hold(c(note, 'contains', 'full'))).toBe(true);
    expect(hold(c(note, 'eq', 'paid in full'))).toBe(true);
    expect(hold(c(note, 'empty', null))).toBe(false);
    expect(hold(c(note, 'not_empty', null))).toBe(true);
  });

  it('treats a missing value as empty: never greater, less or equal; always not equal', () => {
    const v = values([]);
    expect(evaluate([c(amount, 'gt', '0')], v).holds).toBe(false);
    expect(evaluate([c(amount, 'lt', '0')], v).holds).toBe(false);
    expect(evaluate([c(amount, 'eq', '0')], v).holds).toBe(false);
    expect(evaluate([c(amount, 'ne', '0')], v).holds).toBe(true);
    expect(evaluate([c(amount, 'empty', null)], v).holds).toBe(true);
  });

  it('binds and before or, in position order; no conditions hold', () => {
    const v = values([
      [1, 50],
      [2, 1],
    ]);
    // Amount > 100 and Kind = Invoice, or Amount < 60 and Kind = Invoice
    const conditions = [
      c(amount, 'gt', '100'),
      c(kind, 'eq', '1'),
      c(amount, 'lt', '60', 'or'),
      c(kind, 'eq', '1'),
    ];
    expect(evaluate(conditions, v).holds).toBe(true);
    // Amount > 100 or Amount < 60 and Kind = Receipt: (false) or (true and false)
    expect(evaluate([c(amount, 'gt', '100'), c(amount, 'lt', '60', 'or'), c(kind, 'eq', '2')], v).holds).toBe(
      false,
    );
    expect(evaluate([], v).holds).toBe(true);
  });

  it('reads workflow metadata from the run, and says which conditions fail in words', () => {
    const onRun: Condition = { ...c(note, 'eq', 'approved'), onWorkflowField: true };
    const result = evaluate(
      [onRun, c(amount, 'gt', '100')],
      values(
        [
          [4, 'approved'],
          [1, 20],
        ],
        [[4, 'pending']],
      ),
    );
    expect(result.holds).toBe(false);
    expect(result.results.map((r) => r.holds)).toEqual([false, false]);
    expect(describeFailures(result.results)).toBe(
      'Note is approved (it is pending); Amount is greater than 100 (it is 20)',
    );
  });
});
