import type { TFieldValue, TFieldValueInput } from '@quire/contract';
import type { FieldError } from '../../lib/errors.js';
import {
  checkValue,
  type FieldRule,
  hasValue,
  isEmptyValue,
  namedProblem,
  parseInteger,
  sameColumns,
  toColumns,
  type ValueColumns,
} from '../metadata/metadata.values.js';

// Metadata values of a file against its category's fields: the value rule is the metadata
// area's (`metadata.values.ts`); here are what a file adds to it: required fields, fields
// outside the category, and which values changed. Errors name the field as
// `body.fields.<field id>`, so a form can show each by its input.

/** A field of the file's category (the repository's `CategoryField` is one). */
interface ValueField extends FieldRule {
  fieldId: number;
  required: boolean;
  valueListId: number | null;
}

/** A stored value, with what its item and user read as (the repository's `StoredValue`). */
export interface ShownValue extends ValueColumns {
  fieldId: number;
  itemKey: number | null;
  itemLabel: string | null;
  userName: string | null;
}

/** A value to store: exactly the column of the field's type, or null to clear it. */
export interface ValueWrite extends ValueColumns {
  fieldId: number;
}

/** What the checks need to look up: a list's live item by key, and which users are active. */
interface ValueLookups {
  itemIds(pairs: Array<{ valueListId: number; key: number }>): Promise<Map<string, number>>;
  activeUserIds(ids: number[]): Promise<Set<number>>;
}

const path = (fieldId: number) => `body.fields.${fieldId}`;

/**
 * The values to write for `input` over a file's `existing` values, checked against `fields`
 * (the category's, in order). Fields not given keep their value; a required field must end
 * with one. Values of fields outside the category are dropped (`drop`).
 */
export async function checkValues(
  fields: ValueField[],
  existing: ValueWrite[],
  input: TFieldValueInput[],
  lookups: ValueLookups,
): Promise<{ writes: ValueWrite[]; drop: number[]; errors: FieldError[]; changed: number[] }> {
  const errors: FieldError[] = [];
  const byId = new Map(fields.map((f) => [f.fieldId, f]));
  const seen = new Set<number>();
  const given: Array<{ field: ValueField; value: TFieldValueInput['value'] }> = [];
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
  const wanted = (type: ValueField['type']) =>
    given.filter((g) => g.field.type === type && !isEmptyValue(g.value) && parseInteger(g.value) !== null);
  const keyPairs = wanted('select')
    .filter((g) => g.field.valueListId !== null)
    .map((g) => ({ valueListId: g.field.valueListId as number, key: parseInteger(g.value) as number }));
  const items = keyPairs.length ? await lookups.itemIds(keyPairs) : new Map<string, number>();
  const userIds = wanted('user').map((g) => parseInteger(g.value) as number);
  const users = userIds.length ? await lookups.activeUserIds(userIds) : new Set<number>();

  const writes: ValueWrite[] = [];
  for (const { field, value } of given) {
    const itemId = (key: number) => items.get(`${field.valueListId}:${key}`) ?? null;
    const checked = checkValue(field, value, {
      isItem: (key) => itemId(key) !== null,
      isActiveUser: (id) => users.has(id),
    });
    if (checked.ok) writes.push({ fieldId: field.fieldId, ...toColumns(field.type, checked.value, itemId) });
    else {
      errors.push({ path: path(field.fieldId), message: namedProblem(field, checked.message) });
      writes.push({ fieldId: field.fieldId, ...toColumns(field.type, null, itemId) });
    }
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
    .filter((w) => !sameColumns(before.get(w.fieldId), w))
    .map((w) => w.fieldId)
    .concat(drop);
  return { writes, drop, errors, changed };
}

/** A stored value as the contract shows it. */
export function showValue(
  field: { fieldId: number; name: string; type: ValueField['type'] },
  v: ShownValue | undefined,
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
