import { useId, useMemo, useState } from 'react';

export interface MultiSelectOption {
  id: number;
  label: string;
  /** A second line: a username, a description. */
  detail?: string;
}

export interface MultiSelectProps {
  label: string;
  options: MultiSelectOption[];
  selected: number[];
  onChange: (ids: number[]) => void;
  /** Placeholder of the search box. */
  searchLabel?: string;
  emptyText?: string;
  loading?: boolean;
  disabled?: boolean;
  error?: string;
  /** Show the search box; default: when there are more than 6 options. */
  searchable?: boolean;
}

/** Names in the order a person expects: case-insensitive, "Staff2" before "Staff10". */
const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** A labelled list of checkboxes with a search box and a count: keyboard-usable, no popover. */
export function MultiSelect({
  label,
  options,
  selected,
  onChange,
  searchLabel = 'Search',
  emptyText = 'Nothing to choose from yet.',
  loading = false,
  disabled = false,
  error,
  searchable,
}: MultiSelectProps) {
  const id = useId();
  const [search, setSearch] = useState('');
  const chosen = useMemo(() => new Set(selected), [selected]);
  const term = search.trim().toLowerCase();
  const sorted = useMemo(
    () =>
      [...options].sort(
        (a, b) => collator.compare(a.label, b.label) || collator.compare(a.detail ?? '', b.detail ?? ''),
      ),
    [options],
  );
  const visible = term
    ? sorted.filter((o) => `${o.label} ${o.detail ?? ''}`.toLowerCase().includes(term))
    : sorted;

  const toggle = (optionId: number) =>
    onChange(chosen.has(optionId) ? selected.filter((s) => s !== optionId) : [...selected, optionId]);

  return (
    <fieldset
      className="multi-select"
      disabled={disabled}
      aria-describedby={error ? `${id}-error` : undefined}
      aria-invalid={error ? true : undefined}
    >
      <legend>
        {label} <span className="muted">({selected.length} selected)</span>
      </legend>
      {(searchable ?? options.length > 6) ? (
        <input
          type="search"
          className="multi-select__search"
          aria-label={`${searchLabel}: ${label}`}
          placeholder={searchLabel}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          onKeyDown={(e) => {
            // Enter in the filter box must not submit the surrounding form.
            if (e.key === 'Enter') e.preventDefault();
          }}
        />
      ) : null}
      <div className="multi-select__list">
        {loading ? (
          <p className="muted">Loading…</p>
        ) : options.length === 0 ? (
          <p className="muted">{emptyText}</p>
        ) : visible.length === 0 ? (
          <p className="muted">No match for “{search.trim()}”.</p>
        ) : (
          visible.map((o) => (
            <label key={o.id} className="multi-select__option">
              <input type="checkbox" checked={chosen.has(o.id)} onChange={() => toggle(o.id)} />
              <span>
                {o.label}
                {o.detail ? <span className="muted multi-select__detail"> {o.detail}</span> : null}
              </span>
            </label>
          ))
        )}
      </div>
      {error ? (
        <p className="field__error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
