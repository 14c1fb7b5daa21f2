import { describe, expect, it } from 'vitest';
import {
  checkValue,
  type FieldRule,
  hasValue,
  parseBoolean,
  parseDay,
  parseInteger,
  parseNumber,
  sameColumns,
  toColumns,
  type ValueRefs,
} from './metadata.values.js';

// The value rule alone, without a database: each type's accepted forms, bounds and messages.

const refs: ValueRefs = { isItem: (key) => key === 7, isActiveUser: (id) => id === 3 };
const field = (type: FieldRule['type'], rule: Partial<FieldRule> = {}): FieldRule => ({
  name: 'Amount',
  type,
  ...rule,
});
const check = (f: FieldRule, v: unknown) => checkValue(f, v, refs);

describe('parsing', () => {
  it('reads calendar days only', () => {
    expect(parseDay('2026-02-28')?.toISOString()).toBe('2026-02-28T00:00:00.000Z');
    expect(parseDay(' 2024-02-29 ')?.toISOString()).toBe('2024-02-29T00:00:00.000Z');
    expect(parseDay('2026-02-30')).toBeNull();
    expect(parseDay('2026-13-01')).toBeNull();
    expect(parseDay('26-01-01')).toBeNull();
    expect(parseDay('2026-01-01T00:00:00Z')).toBeNull();
  });

  it('reads numbers as numbers or decimal text', () => {
    expect(parseNumber(4.5)).toBe(4.5);
    expect(parseNumber(' -1.25 ')).toBe(-1.25);
    expect(parseNumber('+2')).toBe(2);
    expect(parseNumber('.5')).toBe(0.5);
    expect(parseNumber('1e3')).toBeNull();
    expect(parseNumber('0x10')).toBeNull();
    expect(parseNumber(Number.POSITIVE_INFINITY)).toBeNull();
    expect(parseNumber(true)).toBeNull();
  });

  it('reads whole numbers for keys and ids', () => {
    expect(parseInteger('12')).toBe(12);
    expect(parseInteger(12)).toBe(12);
    expect(parseInteger('1.5')).toBeNull();
    expect(parseInteger(1.5)).toBeNull();
    expect(parseInteger('99999999999999999999')).toBeNull();
  });

  it('reads yes and no in their written forms', () => {
    for (const yes of [true, 1, '1', 'true', 'YES', ' yes ']) expect(parseBoolean(yes)).toBe(true);
    for (const no of [false, 0, '0', 'False', 'no']) expect(parseBoolean(no)).toBe(false);
    expect(parseBoolean('maybe')).toBeNull();
    expect(parseBoolean(2)).toBeNull();
  });
});

describe('checkValue', () => {
  it('takes an empty input as no value, whatever the type', () => {
    for (const type of ['text', 'number', 'date', 'boolean', 'select', 'user'] as const) {
      expect(check(field(type), null)).toEqual({ ok: true, value: null });
      expect(check(field(type), '  ')).toEqual({ ok: true, value: null });
      expect(check(field(type), undefined)).toEqual({ ok: true, value: null });
    }
  });

  it('trims text and holds it to its length (in characters) and pattern', () => {
    const text = field('text', { maxLength: 3, pattern: '[a-z🙂]+' });
    expect(check(text, ' ab🙂 ')).toEqual({ ok: true, value: 'ab🙂' });
    expect(check(text, 'abcd')).toEqual({ ok: false, message: 'Use at most 3 characters' });
    expect(check(field('text', { maxLength: 1 }), 'ab')).toEqual({
      ok: false,
      message: 'Use at most 1 character',
    });
    expect(check(text, 'AB')).toEqual({ ok: false, message: 'This is not in the expected format' });
    expect(check(field('text', { pattern: '(' }), 'x').ok).toBe(false);
    expect(check(field('text'), 42)).toEqual({ ok: true, value: '42' });
  });

  it('holds numbers to their bounds', () => {
    const n = field('number', { minNumber: 1, maxNumber: 10 });
    expect(check(n, '10')).toEqual({ ok: true, value: 10 });
    expect(check(n, 1)).toEqual({ ok: true, value: 1 });
    expect(check(n, 'ten')).toEqual({ ok: false, message: 'Enter a number' });
    expect(check(n, 0.5)).toEqual({ ok: false, message: 'Enter a number of at least 1' });
    expect(check(n, '11')).toEqual({ ok: false, message: 'Enter a number no greater than 10' });
  });

  it('holds dates to their bounds, given as days or Dates', () => {
    const d = field('date', { minDate: '2026-01-01', maxDate: new Date('2026-12-31T00:00:00Z') });
    expect(check(d, '2026-06-01')).toEqual({ ok: true, value: '2026-06-01' });
    expect(check(d, '2026-12-31')).toEqual({ ok: true, value: '2026-12-31' });
    expect(check(d, '2026-01-01')).toEqual({ ok: true, value: '2026-01-01' });
    expect(check(d, '2025-12-31')).toEqual({ ok: false, message: 'Enter a date on or after 2026-01-01' });
    expect(check(d, '2027-01-01')).toEqual({ ok: false, message: 'Enter a date on or before 2026-12-31' });
    expect(check(d, '2026-02-30')).toEqual({ ok: false, message: 'Enter a date as YYYY-MM-DD' });
    expect(check(d, 20260101)).toEqual({ ok: false, message: 'Enter a date as YYYY-MM-DD' });
  });

  it('answers yes/no as booleans', () => {
    expect(check(field('boolean'), 'yes')).toEqual({ ok: true, value: true });
    expect(check(field('boolean'), 0)).toEqual({ ok: true, value: false });
    expect(check(field('boolean'), 'perhaps')).toEqual({ ok: false, message: 'Choose yes or no' });
  });

  it('asks the caller whether a key is an item and an id an active user', () => {
    expect(check(field('select'), '7')).toEqual({ ok: true, value: 7 });
    expect(check(field('select'), 8)).toEqual({ ok: false, message: 'Choose one of the items of "Amount"' });
    expect(check(field('select'), 'seven').ok).toBe(false);
    expect(check(field('user'), 3)).toEqual({ ok: true, value: 3 });
    expect(check(field('user'), '4')).toEqual({ ok: false, message: 'Choose an active user' });
    expect(check(field('user'), -3)).toEqual({ ok: false, message: 'Choose an active user' });
  });
});

describe('columns', () => {
  it('puts each type in its own column, and a select as its item id', () => {
    const itemId = (key: number) => (key === 7 ? 70 : null);
    expect(toColumns('select', 7, itemId).valueItemId).toBe(70);
    expect(toColumns('date', '2026-03-01', itemId).valueDate?.toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(toColumns('number', 2.5, itemId).valueNumber).toBe('2.5');
    expect(toColumns('boolean', false, itemId).valueBoolean).toBe(false);
    expect(hasValue(toColumns('text', null, itemId))).toBe(false);
    expect(hasValue(toColumns('boolean', false, itemId))).toBe(true);
  });

  it('compares stored numbers as numbers', () => {
    const a = toColumns('number', 2, () => null);
    expect(sameColumns({ ...a, valueNumber: '2.00' }, a)).toBe(true);
    expect(sameColumns({ ...a, valueNumber: '2.01' }, a)).toBe(false);
    expect(
      sameColumns(
        undefined,
        toColumns('text', null, () => null),
      ),
    ).toBe(true);
  });
});
