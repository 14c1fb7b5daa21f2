import { useId, useState } from 'react';
import { ResendVerificationButton } from './resend-verification-button';

/** "Send the link again" for an address the person confirms or types. */
export function ResendVerificationForm({ email }: { email: string }) {
  const id = useId();
  const [value, setValue] = useState(email);
  return (
    <div className="resend-verification">
      <div className="field">
        <label htmlFor={`${id}-email`}>Your e-mail address</label>
        <input
          id={`${id}-email`}
          type="email"
          autoComplete="email"
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
      </div>
      <ResendVerificationButton email={value.trim()} disabled={value.trim() === ''} />
    </div>
  );
}
