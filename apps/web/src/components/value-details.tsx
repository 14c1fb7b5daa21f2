/** A value of a metadata field, as the API shows it: the field's name and the value in words. */
export interface ShownValue {
  field_id: number;
  name: string;
  display: string;
}

/** Metadata values as a description list: each field's name, then its value, or "—" when empty. */
export function ValueDetails({ values, className }: { values: readonly ShownValue[]; className: string }) {
  return (
    <dl className={className}>
      {values.map((v) => (
        <div key={v.field_id}>
          <dt>{v.name}</dt>
          <dd>{v.display || '—'}</dd>
        </div>
      ))}
    </dl>
  );
}
