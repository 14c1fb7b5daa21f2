import type { TCategoryField, TFieldValueInput } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../lib/api-client';
import { Field } from './form-field';
import { SinglePicker } from './single-picker';

// The control of one metadata field of a category, by its type: value-list and user fields are
// searchable combo boxes showing labels and sending keys; dates are date inputs; numbers, yes/no
// and text their own controls. The file area's metadata form and the intake rule form draw
// their values with it. A control's value is its text ('' for none): `toWire` makes it the
// value the API takes, `toRaw` the other way.

/** A wire value of a field, as submitmetas and the intake rules take it. */
export type MetadataWireValue = TFieldValueInput['value'];

/** What a control holds, as text ('' for none). */
export const toRaw = (value: MetadataWireValue | undefined): string =>
  value === null || value === undefined ? '' : String(value);

/** The wire value of a control's text for a field of this type. */
export function toWire(type: TCategoryField['field']['type'], raw: string): MetadataWireValue {
  const text = raw.trim();
  if (text === '') return null;
  if (type === 'number' || type === 'select' || type === 'user') {
    const n = Number(text);
    return Number.isFinite(n) ? n : text;
  }
  if (type === 'boolean') return text === 'true';
  return type === 'text' ? raw : text;
}

function FieldLabel({ field }: { field: TCategoryField }) {
  return (
    <>
      {field.field.name}
      {field.required ? (
        <span className="metadata-form__required">
          <span aria-hidden="true"> *</span>
          <span className="sr-only"> (required)</span>
        </span>
      ) : null}
    </>
  );
}

/** The control of one field: `value` is its text ('' for none). */
export function MetadataInput({
  field,
  value,
  onChange,
  error,
  disabled,
}: {
  field: TCategoryField;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  disabled: boolean;
}) {
  const { type, id, help_text } = field.field;
  const name = `field-${id}`;
  const hint = help_text || undefined;
  if (type === 'select' || type === 'user')
    return (
      <ChoiceField
        field={field}
        value={value}
        onChange={onChange}
        error={error}
        disabled={disabled}
        name={name}
      />
    );
  return (
    <Field label={<FieldLabel field={field} />} error={error} hint={hint}>
      {(control) =>
        type === 'boolean' ? (
          <select
            {...control}
            className="control"
            name={name}
            value={value}
            disabled={disabled}
            required={field.required}
            onChange={(e) => onChange(e.target.value)}
          >
            <option value="">—</option>
            <option value="true">Yes</option>
            <option value="false">No</option>
          </select>
        ) : (
          <input
            {...control}
            className="control"
            name={name}
            type={type === 'date' ? 'date' : type === 'number' ? 'number' : 'text'}
            inputMode={type === 'number' ? 'decimal' : undefined}
            step={type === 'number' ? 'any' : undefined}
            min={
              type === 'date' ? (field.field.min_date ?? undefined) : (field.field.min_number ?? undefined)
            }
            max={
              type === 'date' ? (field.field.max_date ?? undefined) : (field.field.max_number ?? undefined)
            }
            maxLength={type === 'text' ? (field.field.max_length ?? undefined) : undefined}
            value={value}
            disabled={disabled}
            required={field.required}
            autoComplete="off"
            onChange={(e) => onChange(e.target.value)}
          />
        )
      }
    </Field>
  );
}

/**
 * The choices of a value-list field (its items: key and label) or a user field (active people:
 * id and name); none for another field, or none given. The rule list names values with them.
 */
export function useChoiceOptions(field: TCategoryField | null) {
  const type = field?.field.type;
  const listId = type === 'select' ? (field?.field.value_list?.id ?? null) : null;
  const items = useQuery({
    ...apiQueryOptions(calls.valueList.valueListItems, { params: { id: listId ?? 0 } }),
    enabled: listId !== null,
    staleTime: 60_000,
  });
  const users = useQuery({
    ...apiQueryOptions(calls.metadata.fieldUsers),
    enabled: type === 'user',
    staleTime: 60_000,
  });
  if (type === 'select')
    return {
      options: (items.data ?? []).map((i) => ({ id: i.key, label: i.label })),
      loading: items.isPending,
    };
  if (type === 'user')
    return {
      options: (users.data ?? []).map((u) => ({ id: u.id, label: `${u.name} (${u.username})` })),
      loading: users.isPending,
    };
  return { options: [], loading: false };
}

/** A value-list or user field: one choice, found by typing part of its label. */
function ChoiceField({
  field,
  value,
  onChange,
  error,
  disabled,
  name,
}: {
  field: TCategoryField;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  disabled: boolean;
  name: string;
}) {
  const { options, loading } = useChoiceOptions(field);
  return (
    <SinglePicker
      label={<FieldLabel field={field} />}
      toggleLabel={`Show all: ${field.field.name}`}
      options={options}
      value={value === '' ? null : Number(value)}
      onChange={(id) => onChange(id === null ? '' : String(id))}
      loading={loading}
      name={name}
      disabled={disabled}
      required={field.required}
      error={error}
      hint={field.field.help_text || undefined}
    />
  );
}
