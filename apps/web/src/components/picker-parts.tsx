import type { ReactNode } from 'react';
import { Button, Input, type Key, ListBox, ListBoxItem, Popover } from 'react-aria-components';

/** One choice of a picker: its key and the text it is found and shown by. */
export interface PickerOption {
  id: number;
  label: string;
  /** A second line: a username, a description. */
  detail?: string | undefined;
}

/**
 * The props of a combo box that keeps no choice: picking an item empties the text, ready for
 * the next, and hands the item's id to `onPick` (a picker adds it, the header search opens it).
 */
export function pickAndClear(text: string, setText: (text: string) => void, onPick: (id: number) => void) {
  return {
    inputValue: text,
    onInputChange: setText,
    selectedKey: null,
    onSelectionChange: (key: Key | null) => {
      if (key === null) return;
      setText('');
      onPick(Number(key));
    },
  };
}

/** A picker's text field and its "show all" toggle, inside a React Aria `ComboBox`. */
export function PickerInput({
  toggleLabel,
  placeholder,
  name,
  autoFocus = false,
}: {
  /** The toggle's accessible name: "Show all: Members". */
  toggleLabel: string;
  placeholder: string;
  name?: string | undefined;
  /** Takes the focus when its dialog opens (`data-autofocus`). */
  autoFocus?: boolean;
}) {
  return (
    <div className="picker__field">
      <Input
        className="control picker__input"
        placeholder={placeholder}
        name={name}
        data-autofocus={autoFocus || undefined}
      />
      <Button className="picker__toggle" aria-label={toggleLabel}>
        <span aria-hidden="true">▾</span>
      </Button>
    </div>
  );
}

/** A picker's list of matches (the `ComboBox`'s items), or `empty` when there is none. */
export function PickerList({ empty }: { empty: ReactNode }) {
  return (
    <Popover className="picker__popover" offset={4}>
      <ListBox
        className="picker__list"
        renderEmptyState={() => <p className="picker__empty muted">{empty}</p>}
      >
        {(o: PickerOption) => (
          <ListBoxItem id={o.id} textValue={o.label} className="picker__option">
            <span>{o.label}</span>
            {o.detail ? <span className="muted picker__detail"> {o.detail}</span> : null}
          </ListBoxItem>
        )}
      </ListBox>
    </Popover>
  );
}
