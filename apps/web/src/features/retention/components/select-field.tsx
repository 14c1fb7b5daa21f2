import type { Ref, SelectHTMLAttributes } from 'react';
import { Field } from '../../../components/form-field';

export interface SelectOption {
  value: string | number;
  label: string;
}

/** A labelled native select (keyboard as the browser gives it) whose error is its description. */
export function SelectField({
  label,
  options,
  placeholder,
  error,
  hint,
  ref,
  ...select
}: Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> & {
  label: string;
  options: readonly SelectOption[];
  /** The first, empty choice ("Choose a category"). */
  placeholder?: string;
  error?: string | undefined;
  hint?: string;
  ref?: Ref<HTMLSelectElement>;
}) {
  return (
    <Field label={label} error={error} hint={hint}>
      {(control) => (
        <select ref={ref} {...control} {...select}>
          {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
