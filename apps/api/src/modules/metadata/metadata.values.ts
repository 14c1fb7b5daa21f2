import type { TFieldType } from '@quire/contract';

// What a valid value of a metadata field is: the one rule for the values the files area
// stores, the values and defaults the workflow calls carry, and a category field's default.
// It lives in the metadata area because that area defines the fields and their bounds; the
// files and workflow areas import it (pure functions, no database: callers look up what a
// value names, a value-list item or a user, and answer through `ValueRefs`).
//
// A value in normal form (`FieldValue`): text trimmed, a number, a `YYYY-MM-DD` day, yes/no
// as a boolean, a select as its item's key, a user as an id; null is "no value".

type FieldValue = string | number | boolean | null;

/** The bounds of a field that a value must keep (the metadata field's settings). */
export interface FieldRule {
  name: string;
  type: TFieldType;
  maxLength?: number | null;
  pattern?: string | null;
  minNumber?: number | null;
  maxNumber?: number | null;
  /** A day, as a Date at midnight UTC or as `YYYY-MM-DD`. */
  minDate?: Date | string | null;
  maxDate?: Date | string | null;
}

/** What a value names that only the caller can look up. */
export interface ValueRefs {
  /** Whether `key` is a live item of the select field's value list. */
  isItem(key: number): boolean;
  /** Whether `id` is an active user. */
  isActiveUser(id: number): boolean;
}

export type Checked = { ok: true; value: FieldValue } | { ok: false; message: string };

/** The typed columns a value is stored in (`file_field_values`, `workflow_instance_values`). */
export interface ValueColumns {
  valueText: string | null;
  valueNumber: string | null;
  valueDate: Date | null;
  valueBoolean: boolean | null;
  valueItemId: number | null;
  valueUserId: number | null;
}

const EMPTY_COLUMNS: Readonly<ValueColumns> = Object.freeze({
  valueText: null,
  valueNumber: null,
  valueDate: null,
  valueBoolean: null,
  valueItemId: null,
  valueUserId: null,
});

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const NUMBER = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)$/;
const INTEGER = /^[-+]?\d+$/;
const MAX_ID = 2_147_483_647;

/** No value: null, undefined, or text that is only spaces. */
export const isEmptyValue = (v: unknown): boolean =>
  v === null || v === undefined || (typeof v === 'string' && v.trim() === '');

/** A day as `YYYY-MM-DD`. */
export const dayText = (d: Date): string => d.toISOString().slice(0, 10);

/** A calendar day written `YYYY-MM-DD` (2026-02-30 is not one), at midnight UTC; else null. */
export function parseDay(text: string): Date | null {
  const trimmed = text.trim();
  const m = DAY.exec(trimmed);
  if (!m) return null;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return dayText(d) === trimmed ? d : null;
}

/** A finite number, or decimal digits as text (`-1.5`, `+2`, `.5`); else null. */
export function parseNumber(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && NUMBER.test(v.trim())) return Number(v.trim());
  return null;
}

/** A whole number (a value-list key), as a number or as digits; else null. */
export function parseInteger(v: unknown): number | null {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? v : null;
  if (typeof v === 'string' && INTEGER.test(v.trim())) {
    const n = Number(v.trim());
    return Number.isSafeInteger(n) ? n : null;
  }
  return null;
}

/** Yes or no: a boolean, 1/0, or `true`/`yes`/`1` and `false`/`no`/`0` in any case; else null. */
export function parseBoolean(v: unknown): boolean | null {
  if (typeof v === 'boolean') return v;
  if (v === 1 || v === 0) return v === 1;
  if (typeof v !== 'string') return null;
  const text = v.trim().toLowerCase();
  if (text === 'true' || text === 'yes' || text === '1') return true;
  if (text === 'false' || text === 'no' || text === '0') return false;
  return null;
}

/** A field's pattern as a whole-value regular expression; null when it does not compile. */
function fieldPattern(pattern: string): RegExp | null {
  try {
    return new RegExp(`^(?:${pattern})$`, 'u');
  } catch {
    return null;
  }
}

const boundDay = (d: Date | string | null | undefined): string | null =>
  d === null || d === undefined ? null : typeof d === 'string' ? d : dayText(d);

const characters = (n: number) => `${n} ${n === 1 ? 'character' : 'characters'}`;

/**
 * Checks `input` against the field's type and bounds and answers its normal form, or the
 * problem in words a person can act on (without the field's name: see `namedProblem`).
 * An empty input is `{ ok: true, value: null }`; whether the field may be empty is the
 * caller's rule (required fields).
 */
export function checkValue(field: FieldRule, input: unknown, refs: ValueRefs): Checked {
  if (isEmptyValue(input)) return { ok: true, value: null };
  const fail = (message: string): Checked => ({ ok: false, message });
  switch (field.type) {
    case 'text': {
      const text = String(input).trim();
      if (field.maxLength != null && [...text].length > field.maxLength)
        return fail(`Use at most ${characters(field.maxLength)}`);
      if (field.pattern && !fieldPattern(field.pattern)?.test(text))
        return fail('This is not in the expected format');
      return { ok: true, value: text };
    }
    case 'number': {
      const n = parseNumber(input);
      if (n === null) return fail('Enter a number');
      if (field.minNumber != null && n < field.minNumber)
        return fail(`Enter a number of at least ${field.minNumber}`);
      if (field.maxNumber != null && n > field.maxNumber)
        return fail(`Enter a number no greater than ${field.maxNumber}`);
      return { ok: true, value: n };
    }
    case 'date': {
      const d = typeof input === 'string' ? parseDay(input) : null;
      if (!d) return fail('Enter a date as YYYY-MM-DD');
      const day = dayText(d);
      const min = boundDay(field.minDate);
      const max = boundDay(field.maxDate);
      if (min && day < min) return fail(`Enter a date on or after ${min}`);
      if (max && day > max) return fail(`Enter a date on or before ${max}`);
      return { ok: true, value: day };
    }
    case 'boolean': {
      const b = parseBoolean(input);
      return b === null ? fail('Choose yes or no') : { ok: true, value: b };
    }
    case 'select': {
      const key = parseInteger(input);
      if (key === null || !refs.isItem(key)) return fail(`Choose one of the items of "${field.name}"`);
      return { ok: true, value: key };
    }
    case 'user': {
      const id = parseInteger(input);
      if (id === null || id <= 0 || id > MAX_ID || !refs.isActiveUser(id))
        return fail('Choose an active user');
      return { ok: true, value: id };
    }
  }
}

/** A value's problem as a message that names the field: `Amount: Enter a number`. */
export const namedProblem = (field: { name: string }, message: string): string => `${field.name}: ${message}`;

/** A value in normal form as stored text (defaults); null stays null. */
export const valueText = (value: FieldValue): string | null => (value === null ? null : String(value));

/**
 * The typed columns for a value in normal form. `itemId` turns a select's key into the
 * value-list item's id (null when the list has no such item).
 */
export function toColumns(
  type: TFieldType,
  value: FieldValue,
  itemId: (key: number) => number | null,
): ValueColumns {
  if (value === null) return { ...EMPTY_COLUMNS };
  switch (type) {
    case 'text':
      return { ...EMPTY_COLUMNS, valueText: String(value) };
    case 'number':
      return { ...EMPTY_COLUMNS, valueNumber: String(value) };
    case 'date':
      return { ...EMPTY_COLUMNS, valueDate: parseDay(String(value)) };
    case 'boolean':
      return { ...EMPTY_COLUMNS, valueBoolean: value === true };
    case 'select':
      return { ...EMPTY_COLUMNS, valueItemId: itemId(Number(value)) };
    case 'user':
      return { ...EMPTY_COLUMNS, valueUserId: Number(value) };
  }
}

/** Whether any typed column holds a value. */
export function hasValue(v: ValueColumns): boolean {
  return (
    v.valueText !== null ||
    v.valueNumber !== null ||
    v.valueDate !== null ||
    v.valueBoolean !== null ||
    v.valueItemId !== null ||
    v.valueUserId !== null
  );
}

/** Whether two stored values are the same value (numbers compared as numbers). */
export function sameColumns(a: ValueColumns | undefined, b: ValueColumns): boolean {
  if (!a) return !hasValue(b);
  const num = (n: string | null) => (n === null ? null : Number(n));
  return (
    a.valueText === b.valueText &&
    num(a.valueNumber) === num(b.valueNumber) &&
    (a.valueDate?.getTime() ?? null) === (b.valueDate?.getTime() ?? null) &&
    a.valueBoolean === b.valueBoolean &&
    a.valueItemId === b.valueItemId &&
    a.valueUserId === b.valueUserId
  );
}
