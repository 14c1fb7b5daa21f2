import { useState } from 'react';
import { SelectField, type SelectOption } from '../../../components/form-field';

/** Which of a list's states is shown ("Due", "Holds in force"), and the page; a new state starts at page 1. */
export function useShownPage<S extends string>(initial: S) {
  const [status, setStatus] = useState<S>(initial);
  const [page, setPage] = useState(1);
  const show = (next: S) => {
    setStatus(next);
    setPage(1);
  };
  return { status, page, setPage, show };
}

/** The toolbar's "Show" select of a list's states. */
export function ShowSelect<S extends string>({
  value,
  onShow,
  options,
}: {
  value: S;
  onShow: (status: S) => void;
  options: readonly (SelectOption & { value: S })[];
}) {
  return (
    <SelectField label="Show" value={value} onChange={(e) => onShow(e.target.value as S)} options={options} />
  );
}
