import type { TFieldType, TWorkflowValue } from '@quire/contract';
import type { FieldControl } from '../../../components/form-field';

export interface FieldShape {
  name: string;
  type: TFieldType;
  options: Array<{ key: number; label: string }>;
}

/** The wire value of what a control holds, for a field of this type ('' is no value). */
export function parseValue(type: TFieldType, raw: string): TWorkflowValue {
  if (raw === '') return null;
  if (type === 'number' || type === 'select' || type === 'user') {
    const n = Number(raw);
    return Number.isFinite(n) ? n : raw;
  }
  if (type === 'boolean') return raw === 'true';
  return raw;
}

export const showValue = (value: TWorkflowValue | undefined): string =>
  value === null || value === undefined ? '' : String(value);

/**
 * The control for one metadata value: a list of the value list's items, yes/no, a date, a
 * number, or text. `value` and `onChange` are the control's text ('' for none).
 */
export function ValueInput({
  field,
  control,
  value,
  onChange,
  disabled = false,
}: {
  field: FieldShape;
  control: FieldControl;
  value: string;
  onChange: (raw: string) => void;
  disabled?: boolean;
}) {
  if (field.type === 'select')
    return (
      <select {...control} value={value} onChange={(e) => onChange(e.target.value)} disabled={disabled}>
        <option value="">—</option>
        {field.options.map((o) => (
          <option key={o.key} value={String(o.key)}>
            {o.label}
          </option>
        ))}
      </select>
    );
  if (field.type === 'boolean')
    return (
      <select {...control} value={value} onChange={(e) => onChange(e.target.value)} disabled={disabled}>
        <option value="">—</option>
        <option value="true">Yes</option>
        <option value="false">No</option>
      </select>
    );
  return (
    <input
      {...control}
      type={field.type === 'date' ? 'date' : field.type === 'number' ? 'number' : 'text'}
      inputMode={field.type === 'number' || field.type === 'user' ? 'decimal' : undefined}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      disabled={disabled}
      autoComplete="off"
    />
  );
}
