import { useId, useMemo, useState } from 'react';
import { Button, ComboBox, Label, Tag, TagGroup, TagList } from 'react-aria-components';
import { FieldNotes } from './form-field';
import { PickerInput, PickerList, type PickerOption, pickAndClear } from './picker-parts';

export type { PickerOption };

export interface MultiPickerProps {
  /** "Members", "Groups". */
  label: string;
  options: PickerOption[];
  selected: number[];
  onChange: (ids: number[]) => void;
  placeholder?: string;
  /** Shown when there is nothing to choose from at all. */
  emptyText?: string;
  loading?: boolean;
  disabled?: boolean;
  error?: string | undefined;
  /** The text field's `name`, so that a form can focus it on an error. */
  name?: string;
}

/** Names in the order a person expects: case-insensitive, "Staff2" before "Staff10". */
const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
const byName = (a: PickerOption, b: PickerOption) =>
  collator.compare(a.label, b.label) || collator.compare(a.detail ?? '', b.detail ?? '');

/**
 * Picks several people or groups by typing (React Aria combo box): type a few letters, arrows
 * and Enter (or a click) add the match; the chosen ones are listed as tags with a remove
 * button each (Backspace or Delete removes the focused one). Shared by the user and group
 * pickers of every screen.
 */
export function MultiPicker({
  label,
  options,
  selected,
  onChange,
  placeholder = 'Type to search',
  emptyText = 'Nothing to choose from yet.',
  loading = false,
  disabled = false,
  error,
  name,
}: MultiPickerProps) {
  const id = useId();
  const [input, setInput] = useState('');
  const chosenIds = useMemo(() => new Set(selected), [selected]);
  const sorted = useMemo(() => [...options].sort(byName), [options]);
  const term = input.trim().toLowerCase();
  const available = sorted.filter(
    (o) => !chosenIds.has(o.id) && (!term || `${o.label} ${o.detail ?? ''}`.toLowerCase().includes(term)),
  );
  const chosen = sorted.filter((o) => chosenIds.has(o.id));
  const countId = `${id}-count`;
  const errorId = `${id}-error`;

  return (
    <div className="picker">
      <ComboBox
        className="picker__combo"
        items={available}
        {...pickAndClear(input, setInput, (id) => onChange([...selected, id]))}
        menuTrigger="focus"
        allowsEmptyCollection
        isDisabled={disabled}
        isInvalid={Boolean(error)}
        aria-describedby={[countId, error ? errorId : ''].filter(Boolean).join(' ')}
      >
        <Label className="picker__label">{label}</Label>
        <PickerInput toggleLabel={`Show all: ${label}`} placeholder={placeholder} name={name} />
        <PickerList
          empty={
            loading
              ? 'Loading…'
              : options.length === 0
                ? emptyText
                : term
                  ? `No match for “${input.trim()}”.`
                  : 'All chosen.'
          }
        />
      </ComboBox>
      <p className="field__hint" id={countId} aria-live="polite">
        {selected.length === 0 ? 'None chosen.' : `${selected.length} chosen.`}
      </p>
      {chosen.length > 0 ? (
        <TagGroup
          className="picker__tags"
          aria-label={`Chosen: ${label}`}
          onRemove={disabled ? undefined : (keys) => onChange(selected.filter((s) => !keys.has(s)))}
        >
          <TagList items={chosen} className="picker__tag-list">
            {(o: PickerOption) => (
              <Tag id={o.id} textValue={o.label} className="picker__tag">
                {o.label}
                <Button slot="remove" className="picker__remove" aria-label="Remove">
                  ×
                </Button>
              </Tag>
            )}
          </TagList>
        </TagGroup>
      ) : null}
      <FieldNotes error={error} errorId={errorId} />
    </div>
  );
}
