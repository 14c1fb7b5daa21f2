import type { TFieldType, TWorkflowValue } from '@quire/contract';
import type { FieldError } from '../../lib/errors.js';
import {
  checkValue as checkFieldValue,
  dayText,
  type FieldRule,
  namedProblem,
  parseInteger,
  type ValueColumns,
  toColumns as valueColumns,
} from '../metadata/metadata.values.js';

// Metadata values as the workflow calls carry them: one wire value per field (text, a number,
// yes/no, a `YYYY-MM-DD` date, a value-list item's key, a user's id), stored in the typed
// columns of `file_field_values` / `workflow_instance_values`, and as text for defaults and
// conditions. What a valid value is, is the metadata area's rule (`metadata.values.ts`); a
// select here may also be named by its item's label. Pure functions: the service loads the
// fields and users they need.

export type { ValueColumns } from '../metadata/metadata.values.js';

export interface FieldOption {
  id: number;
  key: number;
  label: string;
  archived: boolean;
}

export interface FieldMeta extends FieldRule {
  id: number;
  name: string;
  type: TFieldType;
  required: boolean;
  maxLength: number | null;
  minNumber: number | null;
  maxNumber: number | null;
  options: FieldOption[];
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

export const isoDate = dayText;

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
 * Checks a wire value (or a typed text, for defaults and conditions) against its field and
 * answers its normal form: numbers as numbers, select as the item's key (a live item's label
 * names it too), user as an id. `userExists` answers for user fields.
 */
export function checkValue(
  field: FieldMeta,
  input: TWorkflowValue | undefined,
  userExists: (id: number) => boolean,
): Checked {
  const live = field.options.filter((o) => !o.archived);
  const isItem = (key: number) => live.some((o) => o.key === key);
  const byLabel =
    field.type === 'select' && typeof input === 'string' && !isItem(parseInteger(input) ?? Number.NaN)
      ? live.find((o) => o.label.toLowerCase() === input.trim().toLowerCase())
      : undefined;
  return checkFieldValue(field, byLabel ? byLabel.key : input, {
    isItem,
    isActiveUser: userExists,
  });
}

/** The typed columns for a checked value. */
export function toColumns(field: FieldMeta, value: TWorkflowValue): ValueColumns {
  return valueColumns(field.type, value, (key) => field.options.find((o) => o.key === key)?.id ?? null);
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
    else errors.push({ path: `${path}.${i}.value`, message: namedProblem(field, checked.message) });
  });
  return { values, errors };
}
