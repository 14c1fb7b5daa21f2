import type { SelectHTMLAttributes } from 'react';
import { SelectField } from '../../../components/form-field';
import { useRecipients } from '../api/get-recipients';

/** A select of the users (shown with their user name) or of the groups a step can name. */
export function RecipientSelect({
  kind,
  label,
  none,
  error,
  ...select
}: {
  kind: 'user' | 'group';
  label: string;
  /** The empty choice's words ("Choose a user", "Nobody"). */
  none: string;
  error?: string | undefined;
  name: string;
} & Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'className'>) {
  const recipients = useRecipients();
  return (
    <SelectField label={label} error={error} {...select}>
      <option value="">{none}</option>
      {kind === 'user'
        ? (recipients.data?.users ?? []).map((u) => (
            <option key={u.id} value={u.id}>
              {u.name} ({u.username})
            </option>
          ))
        : (recipients.data?.groups ?? []).map((g) => (
            <option key={g.id} value={g.id}>
              {g.name}
            </option>
          ))}
    </SelectField>
  );
}
