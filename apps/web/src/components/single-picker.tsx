import { type ReactNode, useId, useState } from 'react';
import { ComboBox, Label } from 'react-aria-components';
import { FieldNotes } from './form-field';
import { PickerInput, PickerList, type PickerOption } from './picker-parts';

export interface SinglePickerProps {
  label: ReactNode;
  /** The "show all" toggle's accessible name. */
  toggleLabel: string;
  options: PickerOption[];
  /** The chosen option's id, or null for none. */
  value: number | null;
  /** Called with the chosen id, or null once the text is cleared. */
  onChange: (id: number | null) => void;
  loading?: boolean;
  /** The list's text when nothing matches what was typed (`term`, trimmed). */
  noMatch?: (term: string) => string;
  /** The list's text when there is nothing to choose from at all. */
  emptyText?: string;
  placeholder?: string;
  name?: string | undefined;
  disabled?: boolean;
  required?: boolean;
  error?: string | undefined;
  hint?: ReactNode;
  /** Takes the focus when its dialog opens. */
  autoFocus?: boolean;
}

/**
 * Picks one option by typing part of its label (React Aria combo box): the field shows the
 * chosen label, typing filters the list, clearing the text clears the choice, and leaving
 * the field puts the chosen label back.
 */
export function SinglePicker({
  label,
  toggleLabel,
  options,
  value,
  onChange,
  loading = false,
  noMatch = (term) => `No match for “${term}”.`,
  emptyText = 'Nothing to choose from.',
  placeholder = 'Type to search',
  name,
  disabled = false,
  required = false,
  error,
  hint,
  autoFocus = false,
}: SinglePickerProps) {
  const uid = useId();
  const [input, setInput] = useState<string | null>(null);
  const chosen = options.find((o) => o.id === value);
  const term = input?.trim().toLowerCase() ?? '';
  const matches = term ? options.filter((o) => o.label.toLowerCase().includes(term)) : options;
  const errorId = error ? `${uid}-error` : undefined;
  const hintId = hint ? `${uid}-hint` : undefined;
  return (
    <div className="field">
      <ComboBox
        className="picker__combo"
        items={matches}
        inputValue={input ?? chosen?.label ?? ''}
        onInputChange={(text) => {
          setInput(text);
          if (text.trim() === '') onChange(null);
        }}
        selectedKey={value}
        onSelectionChange={(key) => {
          if (key === null) return;
          onChange(Number(key));
          setInput(null);
        }}
        onBlur={() => setInput(null)}
        allowsEmptyCollection
        isDisabled={disabled}
        isInvalid={Boolean(error)}
        isRequired={required}
        aria-describedby={[errorId, hintId].filter(Boolean).join(' ') || undefined}
      >
        <Label>{label}</Label>
        <PickerInput toggleLabel={toggleLabel} placeholder={placeholder} name={name} autoFocus={autoFocus} />
        <PickerList
          empty={loading ? 'Loading…' : options.length === 0 ? emptyText : noMatch((input ?? '').trim())}
        />
      </ComboBox>
      <FieldNotes error={error} errorId={errorId} hint={hint} hintId={hintId} />
    </div>
  );
}
