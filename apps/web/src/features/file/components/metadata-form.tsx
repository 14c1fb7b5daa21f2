import type { TCategoryField, TFieldValue, TFieldValueInput } from '@quire/contract';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Field } from '../../../components/form-field';
import { PendingButton } from '../../../components/pending-button';
import { SinglePicker } from '../../../components/single-picker';
import { ApiError } from '../../../lib/api-error';
import { useFieldUsers } from '../api/get-field-users';
import { useValueListItems } from '../api/get-value-list-items';

// One form for a file's metadata values, driven by its category's fields (GET
// /api/folderMeta/{id}): used to index an unindexed file and to correct a filed one.
// Value-list and user fields are searchable combo boxes showing labels and sending keys;
// dates are date inputs; numbers, yes/no and text their own controls.

/** A wire value of a field, as submitmetas and edit-file-user-field take it. */
export type MetadataValue = TFieldValueInput['value'];
/** Values by field id. */
export type MetadataValues = Record<number, MetadataValue>;
/** Error messages by field id. */
export type MetadataErrors = Record<number, string>;

export interface MetadataFormProps {
  /** The category's fields in order (folderMeta's `fields`). */
  fields: TCategoryField[];
  /**
   * Values to start from, by field id (a filed file's: `valuesFromFile(file.values)`). A field
   * absent here starts from the category's default value; give `null` to start it empty.
   */
  initialValues?: MetadataValues;
  /** Called with one value per field (null for none) once the required fields are filled. */
  onSubmit: (values: TFieldValueInput[]) => void;
  /**
   * Problems by field id, shown at their fields until changed (`metadataErrors(error)` of a
   * refused call); when they change, the first such field gets the focus.
   */
  errors?: MetadataErrors;
  /** A call is running: the submit button shows `busyLabel` and waits. */
  busy?: boolean;
  submitLabel: string;
  busyLabel?: string;
  /** The form's accessible name ("Index scan.pdf"). */
  label: string;
  /** More buttons beside the submit one (a Cancel). */
  actions?: ReactNode;
}

/** A filed file's values (file-view's `values`) as the form's `initialValues`. */
export function valuesFromFile(values: TFieldValue[]): MetadataValues {
  return Object.fromEntries(values.map((v) => [v.field_id, v.value]));
}

/** The problems a refused call names per field (`body.fields.<id>`), by field id. */
export function metadataErrors(error: unknown): MetadataErrors {
  const result: MetadataErrors = {};
  if (!(error instanceof ApiError)) return result;
  for (const e of error.errors) {
    const m = /^body\.fields\.(\d+)$/.exec(e.path);
    if (m && !result[Number(m[1])]) result[Number(m[1])] = e.message;
  }
  return result;
}

/** What a control holds, as text ('' for none). */
const toRaw = (value: MetadataValue | undefined): string =>
  value === null || value === undefined ? '' : String(value);

/** The wire value of a control's text for a field of this type. */
function toWire(type: TCategoryField['field']['type'], raw: string): MetadataValue {
  const text = raw.trim();
  if (text === '') return null;
  if (type === 'number' || type === 'select' || type === 'user') {
    const n = Number(text);
    return Number.isFinite(n) ? n : text;
  }
  if (type === 'boolean') return text === 'true';
  return type === 'text' ? raw : text;
}

function startValues(fields: TCategoryField[], initial: MetadataValues | undefined): Record<number, string> {
  return Object.fromEntries(
    fields.map((f) => [
      f.field.id,
      initial && f.field.id in initial ? toRaw(initial[f.field.id]) : (f.default_value ?? ''),
    ]),
  );
}

export function MetadataForm({
  fields,
  initialValues,
  onSubmit,
  errors = {},
  busy = false,
  submitLabel,
  busyLabel = 'Saving…',
  label,
  actions,
}: MetadataFormProps) {
  const [raw, setRaw] = useState(() => startValues(fields, initialValues));
  const [missing, setMissing] = useState<MetadataErrors>({});
  // Fields changed since the last submit: their server error is out of date.
  const [changed, setChanged] = useState<ReadonlySet<number>>(new Set());
  const formRef = useRef<HTMLFormElement>(null);
  const focusField = (id: number) =>
    formRef.current?.querySelector<HTMLElement>(`[name="field-${id}"]`)?.focus();
  // When other errors arrive, the first field with one gets the focus (by content, so that an
  // errors object rebuilt on each render does not take the focus back while the person types).
  const errorKey = JSON.stringify(errors);
  // biome-ignore lint/correctness/useExhaustiveDependencies: when other errors arrive only
  useEffect(() => {
    const first = fields.find((f) => errors[f.field.id]);
    if (first) focusField(first.field.id);
  }, [errorKey]);
  const set = (id: number, value: string) => {
    setRaw((r) => ({ ...r, [id]: value }));
    setChanged((c) => (c.has(id) ? c : new Set([...c, id])));
    setMissing((m) => {
      if (!m[id]) return m;
      const { [id]: _gone, ...rest } = m;
      return rest;
    });
  };

  function submit() {
    const empty: MetadataErrors = {};
    for (const f of fields)
      if (f.required && (raw[f.field.id] ?? '').trim() === '') empty[f.field.id] = `Enter ${f.field.name}`;
    setMissing(empty);
    setChanged(new Set());
    const first = fields.find((f) => empty[f.field.id]);
    if (first) {
      focusField(first.field.id);
      return;
    }
    onSubmit(
      fields.map((f) => ({ field_id: f.field.id, value: toWire(f.field.type, raw[f.field.id] ?? '') })),
    );
  }

  return (
    <form
      ref={formRef}
      className="form metadata-form"
      aria-label={label}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (!busy) submit();
      }}
    >
      {fields.length === 0 ? <p className="muted">This category asks for no values.</p> : null}
      {fields.map((f) => (
        <MetadataInput
          key={f.field.id}
          field={f}
          value={raw[f.field.id] ?? ''}
          onChange={(v) => set(f.field.id, v)}
          error={missing[f.field.id] ?? (changed.has(f.field.id) ? undefined : errors[f.field.id])}
          disabled={busy}
        />
      ))}
      <div className="form-actions form-actions--start">
        <PendingButton pending={busy} pendingLabel={busyLabel}>
          {submitLabel}
        </PendingButton>
        {actions}
      </div>
    </form>
  );
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
function MetadataInput({
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
  const isList = field.field.type === 'select';
  const items = useValueListItems(isList ? (field.field.value_list?.id ?? null) : null);
  const users = useFieldUsers(!isList);
  const options = isList
    ? (items.data ?? []).map((i) => ({ id: i.key, label: i.label }))
    : (users.data ?? []).map((u) => ({ id: u.id, label: `${u.name} (${u.username})` }));
  return (
    <SinglePicker
      label={<FieldLabel field={field} />}
      toggleLabel={`Show all: ${field.field.name}`}
      options={options}
      value={value === '' ? null : Number(value)}
      onChange={(id) => onChange(id === null ? '' : String(id))}
      loading={isList ? items.isPending : users.isPending}
      name={name}
      disabled={disabled}
      required={field.required}
      error={error}
      hint={field.field.help_text || undefined}
    />
  );
}
