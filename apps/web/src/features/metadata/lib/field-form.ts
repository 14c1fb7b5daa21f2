import type { FieldType, TMetadataField } from '@quire/contract';

/** The field form as typed: every option as text, whatever the type. */
export interface FieldFormValues {
  name: string;
  type: FieldType;
  value_list_id: string;
  required: boolean;
  help_text: string;
  min_number: string;
  max_number: string;
  min_date: string;
  max_date: string;
  max_length: string;
  pattern: string;
}

export const emptyField: FieldFormValues = {
  name: '',
  type: 'text',
  value_list_id: '',
  required: false,
  help_text: '',
  min_number: '',
  max_number: '',
  min_date: '',
  max_date: '',
  max_length: '',
  pattern: '',
};

const text = (v: number | string | null) => (v === null ? '' : String(v));

export function formValuesOf(field: TMetadataField): FieldFormValues {
  return {
    name: field.name,
    type: field.type,
    value_list_id: field.value_list ? String(field.value_list.id) : '',
    required: field.required,
    help_text: field.help_text,
    min_number: text(field.min_number),
    max_number: text(field.max_number),
    min_date: text(field.min_date),
    max_date: text(field.max_date),
    max_length: text(field.max_length),
    pattern: text(field.pattern),
  };
}

/** A number typed in a box: '' is none; anything else a number (or NaN, which the schema refuses). */
const num = (s: string) => (s.trim() === '' ? null : Number(s));

/**
 * The call's body from the form: only the options of the chosen type (the API refuses the
 * others), empty boxes as none.
 */
export function bodyOf(v: FieldFormValues, id?: number): Record<string, unknown> {
  const body: Record<string, unknown> = {
    ...(id ? { id } : {}),
    name: v.name,
    type: v.type,
    required: v.required,
    help_text: v.help_text,
  };
  if (v.type === 'number')
    Object.assign(body, { min_number: num(v.min_number), max_number: num(v.max_number) });
  if (v.type === 'date') Object.assign(body, { min_date: v.min_date || null, max_date: v.max_date || null });
  if (v.type === 'text')
    Object.assign(body, { max_length: num(v.max_length), pattern: v.pattern.trim() || null });
  if (v.type === 'select') Object.assign(body, { value_list_id: num(v.value_list_id) });
  return body;
}
