import type { TFieldType, TWorkflowValue } from '@quire/contract';
import type { FieldError } from '../../lib/errors.js';

// Metadata values as the workflow calls carry them: one wire value per field (text, a number,
// yes/no, a `YYYY-MM-DD` date, a value-list item's key, a user's id), stored in the typed
// columns of `file_field_values` / `workflow_instance_values`, and as text for defaults and
// conditions. Pure functions: the service loads the fields and users they need.

export interface FieldOption {
  id: number;
  key: number;
  label: string;
  archived: boolean;
}

export interface FieldMeta {
  id: number;
  name: string;
  type: TFieldType;
  required: boolean;
  maxLength: number | null;
  minNumber: number | null;
  maxNumber: number | null;
  options: FieldOption[];
}

/** The typed columns of a stored value. */
export interface ValueColumns {
  valueText: string | null;
  valueNumber: string | null;
  valueDate: Date | null;
  valueBoolean: boolean | null;
  valueItemId: number | null;
  valueUserId: number | null;
}

/** A stored row's columns as Prisma reads them (numbers come back as Decimal). */
export interface StoredColumns {
  valueText: string | null;
  valueNumber: { toString(): string } | null;
  valueDate: Date | null;
  valueBoolean: boolean | null;
  valueItemId: number | null;
  valueUserId: number | null;
}

const EMPTY: ValueColumns = {
  valueText: null,
  valueNumber: null,
  valueDate: null,
  valueBoolean: null,
  valueItemId: null,
  valueUserId: null,
};

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export const isoDate = (d: Date) => d.toISOString().slice(0, 10);

function validDate(text: string): boolean {
  if (!DATE.test(text)) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && isoDate(d) === text;
}

/** The wire value of a stored row (null when nothing is stored). */
export function fromColumns(field: FieldMeta, row: StoredColumns | undefined): TWorkflowValue {
  if (!row) return null;
  switch (field.type) {
    case 'text':
      return row.valueText;
    case 'number':
      return row.valueNumber === null ? null : Number(row.valueNumber.toString());
    case 'date':
      return row.valueDate ? isoDate(row.valueDate) : null;
    case 'boolean':
      return row.valueBoolean;
    case 'select':
      return field.options.find((o) => o.id === row.valueItemId)?.key ?? null;
    case 'user':
      return row.valueUserId;
  }
}

export type Checked = { ok: true; value: TWorkflowValue } | { ok: false; message: string };

/**
 * Checks a wire value (or a typed text, for defaults and conditions) against a field's type
 * and answers its normal form: numbers as numbers, select as the item's key, user as an id.
 * `userExists` answers for user fields.
 */
export function checkValue(
  field: FieldMeta,
  input: TWorkflowValue | undefined,
  userExists: (id: number) => boolean,
): Checked {
  if (input === null || input === undefined || input === '') return { ok: true, value: null };
  switch (field.type) {
    case 'text': {
      const text = String(input).trim();
      if (field.maxLength && text.length > field.maxLength)
        return { ok: false, message: `Use at most ${field.maxLength} characters` };
      return { ok: true, value: text };
    }
    case 'number': {
      const n =
        typeof input === 'number' ? input : typeof input === 'string' ? Number(input.trim()) : Number.NaN;
      if (!Number.isFinite(n)) return { ok: false, message: 'Enter a number' };
      if (field.minNumber !== null && n < field.minNumber)
        return { ok: false, message: `Enter a number of at least ${field.minNumber}` };
      if (field.maxNumber !== null && n > field.maxNumber)
        return { ok: false, message: `Enter a number no greater than ${field.maxNumber}` };
      return { ok: true, value: n };
    }
    case 'date': {
      const text = String(input).trim();
      if (!validDate(text)) return { ok: false, message: 'Enter a date as YYYY-MM-DD' };
      return { ok: true, value: text };
    }
    case 'boolean': {
      if (typeof input === 'boolean') return { ok: true, value: input };
      const text = String(input).trim().toLowerCase();
      if (['true', 'yes', '1'].includes(text)) return { ok: true, value: true };
      if (['false', 'no', '0'].includes(text)) return { ok: true, value: false };
      return { ok: false, message: 'Choose yes or no' };
    }
    case 'select': {
      const key = typeof input === 'number' ? input : Number(String(input).trim());
      const option = field.options.find(
        (o) => !o.archived && (o.key === key || o.label.toLowerCase() === String(input).trim().toLowerCase()),
      );
      if (!option) return { ok: false, message: `Choose one of the items of "${field.name}"` };
      return { ok: true, value: option.key };
    }
    case 'user': {
      const id = typeof input === 'number' ? input : Number(String(input).trim());
      if (!Number.isInteger(id) || id <= 0 || !userExists(id)) return { ok: false, message: 'Choose a user' };
      return { ok: true, value: id };
    }
  }
}

/** The typed columns for a checked value. */
export function toColumns(field: FieldMeta, value: TWorkflowValue): ValueColumns {
  if (value === null) return { ...EMPTY };
  switch (field.type) {
    case 'text':
      return { ...EMPTY, valueText: String(value) };
    case 'number':
      return { ...EMPTY, valueNumber: String(value) };
    case 'date':
      return { ...EMPTY, valueDate: new Date(`${String(value)}T00:00:00Z`) };
    case 'boolean':
      return { ...EMPTY, valueBoolean: value === true };
    case 'select':
      return { ...EMPTY, valueItemId: field.options.find((o) => o.key === value)?.id ?? null };
    case 'user':
      return { ...EMPTY, valueUserId: Number(value) };
  }
}

/** A checked value as stored text (defaults). */
export const toText = (value: TWorkflowValue): string | null => (value === null ? null : String(value));

/** Stored text (a default) back to the wire value of its field; what no longer fits is null. */
export function fromText(field: FieldMeta, text: string | null): TWorkflowValue {
  const checked = checkValue(field, text, () => true);
  return checked.ok ? checked.value : null;
}

/** A value as a person reads it. */
export function display(
  field: FieldMeta,
  value: TWorkflowValue,
  userName: (id: number) => string | undefined,
): string {
  if (value === null) return '';
  if (field.type === 'boolean') return value ? 'Yes' : 'No';
  if (field.type === 'select') return field.options.find((o) => o.key === value)?.label ?? String(value);
  if (field.type === 'user') return userName(Number(value)) ?? `User ${value}`;
  return String(value);
}

/**
 * Checks `[{ field_id, value }]` against `fields` (every id must be one of them). Collects
 * every problem as a 400 field error under `path` (`body.values`).
 */
export function checkValues(
  fields: Map<number, FieldMeta>,
  inputs: Array<{ field_id: number; value: TWorkflowValue }>,
  userExists: (id: number) => boolean,
  path: string,
): { values: Map<number, TWorkflowValue>; errors: FieldError[] } {
  const values = new Map<number, TWorkflowValue>();
  const errors: FieldError[] = [];
  inputs.forEach((input, i) => {
    const field = fields.get(input.field_id);
    if (!field) {
      errors.push({ path: `${path}.${i}.field_id`, message: 'This field is not part of the form' });
      return;
    }
    const checked = checkValue(field, input.value, userExists);
    if (checked.ok) values.set(field.id, checked.value);
    else errors.push({ path: `${path}.${i}.value`, message: `${field.name}: ${checked.message}` });
  });
  return { values, errors };
}
