import type { TFieldValue, TFieldValueInput } from '@quire/contract';
import type { FieldError } from '../../lib/errors.js';
import type { CategoryField, StoredValue } from './file.repository.js';

// Metadata values against a category's fields: required, type, value-list keys, bounds.
// Errors name the field as `body.fields.<field id>`, so a form can show each by its input.

/** A value to store: exactly the column of the field's type, or null to clear it. */
export interface ValueWrite {
  fieldId: number;
  valueText: string | null;
  valueNumber: string | null;
  valueDate: Date | null;
  valueBoolean: boolean | null;
  valueItemId: number | null;
  valueUserId: number | null;
}

/** What the checks need to look up: a list's live item by key, and which users are active. */
export interface ValueLookups {
  itemIds(pairs: Array<{ valueListId: number; key: number }>): Promise<Map<string, number>>;
  activeUserIds(ids: number[]): Promise<Set<number>>;
}

const empty = (v: TFieldValueInput['value']) => v === null || (typeof v === 'string' && v.trim() === '');
const path = (fieldId: number) => `body.fields.${fieldId}`;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function parseDay(text: string): Date | null {
  const m = DAY.exec(text.trim());
  if (!m) return null;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === text.trim() ? d : null;
}

function parseNumber(v: TFieldValueInput['value']): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim())) return Number(v.trim());
  return null;
}

function parseBoolean(v: TFieldValueInput['value']): boolean | null {
  if (typeof v === 'boolean') return v;
  if (v === 1 || v === '1' || v === 'true') return true;
  if (v === 0 || v === '0' || v === 'false') return false;
  return null;
}

function safePattern(pattern: string): RegExp | null {
  try {
    return new RegExp(`^(?:${pattern})$`, 'u');
  } catch {
    return null;
  }
}

/**
 * The values to write for `input` over a file's `existing` values, checked against `fields`
 * (the category's, in order). Fields not given keep their value; a required field must end
 * with one. Values of fields outside the category are dropped (`drop`).
 */
export async function checkValues(
  fields: CategoryField[],
  existing: StoredValue[],
  input: TFieldValueInput[],
  lookups: ValueLookups,
): Promise<{ writes: ValueWrite[]; drop: number[]; errors: FieldError[]; changed: number[] }> {
  const errors: FieldError[] = [];
  const byId = new Map(fields.map((f) => [f.fieldId, f]));
  const seen = new Set<number>();
  const given: Array<{ field: CategoryField; value: TFieldValueInput['value'] }> = [];
  input.forEach((item, i) => {
    const field = byId.get(item.field_id);
    if (!field) {
      errors.push({ path: `body.values.${i}.field_id`, message: 'Not a field of this category' });
      return;
    }
    if (seen.has(item.field_id)) {
      errors.push({ path: path(item.field_id), message: `"${field.name}" is given twice` });
      return;
    }
    seen.add(item.field_id);
    given.push({ field, value: item.value });
  });

  // Value-list keys and users are looked up in one go each.
  const keyPairs = given
    .filter((g) => g.field.type === 'select' && !empty(g.value) && g.field.valueListId)
    .map((g) => ({ valueListId: g.field.valueListId as number, key: parseNumber(g.value) ?? -1 }));
  const items = keyPairs.length ? await lookups.itemIds(keyPairs) : new Map<string, number>();
  const userIds = given
    .filter((g) => g.field.type === 'user' && !empty(g.value))
    .map((g) => parseNumber(g.value) ?? -1);
  const users = userIds.length ? await lookups.activeUserIds(userIds) : new Set<number>();

  const writes: ValueWrite[] = [];
  for (const { field, value } of given) {
    const w: ValueWrite = {
      fieldId: field.fieldId,
      valueText: null,
      valueNumber: null,
      valueDate: null,
      valueBoolean: null,
      valueItemId: null,
      valueUserId: null,
    };
    const fail = (message: string) => errors.push({ path: path(field.fieldId), message });
    if (empty(value)) {
      writes.push(w);
      continue;
    }
    switch (field.type) {
      case 'text': {
        const text = String(value).trim();
        if (field.maxLength !== null && [...text].length > field.maxLength)
          fail(`"${field.name}" takes at most ${field.maxLength} characters`);
        else if (field.pattern && !safePattern(field.pattern)?.test(text))
          fail(`"${field.name}" is not in the expected form`);
        else w.valueText = text;
        break;
      }
      case 'number': {
        const n = parseNumber(value);
        if (n === null) fail(`"${field.name}" must be a number`);
        else if (field.minNumber !== null && n < field.minNumber)
          fail(`"${field.name}" must be at least ${field.minNumber}`);
        else if (field.maxNumber !== null && n > field.maxNumber)
          fail(`"${field.name}" must be at most ${field.maxNumber}`);
        else w.valueNumber = String(n);
        break;
      }
      case 'date': {
        const d = typeof value === 'string' ? parseDay(value) : null;
        if (!d) fail(`"${field.name}" must be a date (YYYY-MM-DD)`);
        else if (field.minDate && d < field.minDate)
          fail(`"${field.name}" must be on or after ${field.minDate.toISOString().slice(0, 10)}`);
        else if (field.maxDate && d > field.maxDate)
          fail(`"${field.name}" must be on or before ${field.maxDate.toISOString().slice(0, 10)}`);
        else w.valueDate = d;
        break;
      }
      case 'boolean': {
        const b = parseBoolean(value);
        if (b === null) fail(`"${field.name}" must be yes or no`);
        else w.valueBoolean = b;
        break;
      }
      case 'select': {
        const key = parseNumber(value);
        const id = key === null ? undefined : items.get(`${field.valueListId}:${key}`);
        if (id === undefined) fail(`"${field.name}" must be one of its list's items`);
        else w.valueItemId = id;
        break;
      }
      case 'user': {
        const id = parseNumber(value);
        if (id === null || !users.has(id)) fail(`"${field.name}" must be an active user`);
        else w.valueUserId = id;
        break;
      }
    }
    writes.push(w);
  }

  // Required fields must end with a value: given now, or kept from before.
  const kept = new Set(existing.filter((v) => hasValue(v)).map((v) => v.fieldId));
  for (const field of fields) {
    if (!field.required) continue;
    const w = writes.find((x) => x.fieldId === field.fieldId);
    const has = w ? hasValue(w) : kept.has(field.fieldId);
    if (!has && !errors.some((e) => e.path === path(field.fieldId)))
      errors.push({ path: path(field.fieldId), message: `"${field.name}" is required` });
  }

  const drop = existing.filter((v) => !byId.has(v.fieldId)).map((v) => v.fieldId);
  const before = new Map(existing.map((v) => [v.fieldId, v]));
  const changed = writes
    .filter((w) => !sameValue(before.get(w.fieldId), w))
    .map((w) => w.fieldId)
    .concat(drop);
  return { writes, drop, errors, changed };
}

function hasValue(v: Omit<ValueWrite, 'fieldId'>): boolean {
  return (
    v.valueText !== null ||
    v.valueNumber !== null ||
    v.valueDate !== null ||
    v.valueBoolean !== null ||
    v.valueItemId !== null ||
    v.valueUserId !== null
  );
}

function sameValue(a: Omit<ValueWrite, 'fieldId'> | undefined, b: ValueWrite): boolean {
  if (!a) return !hasValue(b);
  return (
    a.valueText === b.valueText &&
    (a.valueNumber === null ? null : Number(a.valueNumber)) ===
      (b.valueNumber === null ? null : Number(b.valueNumber)) &&
    (a.valueDate?.getTime() ?? null) === (b.valueDate?.getTime() ?? null) &&
    a.valueBoolean === b.valueBoolean &&
    a.valueItemId === b.valueItemId &&
    a.valueUserId === b.valueUserId
  );
}

/** A stored value as the contract shows it. */
export function showValue(
  field: { fieldId: number; name: string; type: CategoryField['type'] },
  v: StoredValue | undefined,
): TFieldValue {
  const base = { field_id: field.fieldId, name: field.name, type: field.type };
  if (!v) return { ...base, value: null, display: '' };
  switch (field.type) {
    case 'text':
      return { ...base, value: v.valueText, display: v.valueText ?? '' };
    case 'number': {
      const n = v.valueNumber === null ? null : Number(v.valueNumber);
      return { ...base, value: n, display: n === null ? '' : String(n) };
    }
    case 'date': {
      const d = v.valueDate ? v.valueDate.toISOString().slice(0, 10) : null;
      return { ...base, value: d, display: d ?? '' };
    }
    case 'boolean':
      return {
        ...base,
        value: v.valueBoolean,
        display: v.valueBoolean === null ? '' : v.valueBoolean ? 'Yes' : 'No',
      };
    case 'select':
      return { ...base, value: v.itemKey, display: v.itemLabel ?? '' };
    case 'user':
      return { ...base, value: v.valueUserId, display: v.userName ?? '' };
  }
}
