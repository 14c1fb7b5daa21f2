import type { TCategoryField, TFieldValue, TFieldValueInput } from '@quire/contract';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { MetadataInput, toRaw, toWire } from '../../../components/metadata-input';
import { PendingButton } from '../../../components/pending-button';
import { ApiError } from '../../../lib/api-error';

// One form for a file's metadata values, driven by its category's fields (GET
// /api/folderMeta/{id}): used to index an unindexed file and to correct a filed one. Each
// field's control is the shared MetadataInput (src/components/metadata-input.tsx).

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
