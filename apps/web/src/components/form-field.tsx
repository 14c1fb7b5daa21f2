import {
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useId,
} from 'react';

/** What the control inside a field needs: its id, and its error and hint as its description. */
export interface FieldControl {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

export interface FieldProps {
  label: ReactNode;
  /** Shown under the control in red, and announced with it. */
  error?: string | undefined;
  /** Marks the control invalid when its problem is told elsewhere (in the hint). */
  invalid?: boolean | undefined;
  /** Help or live feedback under the control. */
  hint?: ReactNode;
  /** Ids of further descriptions outside the field (a note shared by several fields). */
  describedBy?: string | undefined;
  /** Beside the label, such as a "Forgot password?" link. */
  labelAside?: ReactNode;
  /** Extra classes: `field--wide`. */
  className?: string | undefined;
}

/** A labelled control (input, select, textarea) whose error and hint are its description. */
export function Field({
  label,
  error,
  invalid = false,
  hint,
  describedBy,
  labelAside,
  className,
  children,
}: FieldProps & { children: (control: FieldControl) => ReactNode }) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const labelElement = <label htmlFor={id}>{label}</label>;
  return (
    <div className={className ? `field ${className}` : 'field'}>
      {labelAside ? (
        <div className="field__label-row">
          {labelElement}
          {labelAside}
        </div>
      ) : (
        labelElement
      )}
      {children({
        id,
        'aria-invalid': error || invalid ? true : undefined,
        'aria-describedby': [errorId, hintId, describedBy].filter(Boolean).join(' ') || undefined,
      })}
      <FieldNotes error={error} errorId={errorId} hint={hint} hintId={hintId} />
    </div>
  );
}

/** A field's error (in red) and hint under its control, with the ids that describe the control. */
export function FieldNotes({
  error,
  errorId,
  hint,
  hintId,
}: {
  error?: string | undefined;
  errorId?: string | undefined;
  hint?: ReactNode;
  hintId?: string | undefined;
}) {
  return (
    <>
      {error ? (
        <p className="field__error" id={errorId}>
          {error}
        </p>
      ) : null}
      {hint ? (
        <div className="field__hint" id={hintId}>
          {hint}
        </div>
      ) : null}
    </>
  );
}

export type FormFieldProps = FieldProps &
  Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className'> & {
    name: string;
    /** Classes of the input itself (`className` styles the whole field). */
    inputClassName?: string | undefined;
  };

/** A field's own props (for `Field`), apart from those of its control. */
function splitField<P extends FieldProps>({
  label,
  error,
  hint,
  describedBy,
  labelAside,
  className,
  ...control
}: P) {
  return [{ label, error, hint, describedBy, labelAside, className }, control] as const;
}

/** A labelled input whose error and hint are its accessible description. */
export function FormField(props: FormFieldProps) {
  const [field, { inputClassName, ...input }] = splitField(props);
  return (
    <Field {...field}>{(control) => <input {...control} {...input} className={inputClassName} />}</Field>
  );
}

export interface SelectOption {
  value: string | number;
  label: string;
}

export type SelectFieldProps = FieldProps &
  Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'className'> & {
    /** The first, empty choice ("Choose a category"). */
    placeholder?: string;
    /** The choices as values and labels; or the `<option>`s as children (`wordOptions(...)`). */
    options?: readonly SelectOption[];
    children?: ReactNode;
  };

/** A labelled native select (keyboard as the browser gives it) whose error and hint are its description. */
export function SelectField(props: SelectFieldProps) {
  const [field, { placeholder, options = [], children, ...select }] = splitField(props);
  return (
    <Field {...field}>
      {(control) => (
        <select {...control} {...select}>
          {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
          {children}
        </select>
      )}
    </Field>
  );
}

/** One `<option>` a value, shown by its word: `wordOptions(STEP_ROUTES, ROUTE_WORDS)`. */
export function wordOptions<V extends string>(values: readonly V[], words: Record<V, ReactNode>) {
  return values.map((value) => (
    <option key={value} value={value}>
      {words[value]}
    </option>
  ));
}

/** An optional description: a two-row text area labelled "Description (optional)". */
export function DescriptionField({
  error,
  ...textarea
}: { error?: string | undefined; ref?: Ref<HTMLTextAreaElement> } & Omit<
  TextareaHTMLAttributes<HTMLTextAreaElement>,
  'id' | 'className'
>) {
  return (
    <Field
      label={
        <>
          Description <span className="muted">(optional)</span>
        </>
      }
      error={error}
    >
      {(control) => <textarea {...control} rows={2} {...textarea} />}
    </Field>
  );
}

/** The props of a field typed exactly as written (a username, an e-mail address): no capitals, no spelling marks. */
export const TYPED_AS_IS = { autoCapitalize: 'none', spellCheck: false } as const;

/** An e-mail address, typed as written: labelled "E-mail", filled from the browser's address. */
export function EmailField(props: Omit<FormFieldProps, 'label' | 'type'>) {
  return <FormField label="E-mail" type="email" autoComplete="email" {...TYPED_AS_IS} {...props} />;
}
