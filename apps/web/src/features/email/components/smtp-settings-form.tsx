import { type TEmailSetup, type TEmailSetupBody, ZEmailSetupBody } from '@quire/contract';
import { type FormEvent, useRef, useState } from 'react';
import { Field, FormField, type FormFieldProps } from '../../../components/form-field';
import { useNotify } from '../../../components/notifications/notification-context';
import { PendingButton } from '../../../components/pending-button';
import {
  apiFieldErrors,
  type FieldErrors,
  fieldErrorsFrom,
  focusFirstError,
} from '../../../lib/field-errors';
import { formatDateTime } from '../../../lib/format';
import { useSaveEmailSetup } from '../api/save-email-setup';
import { isSmtpHost } from '../lib/smtp-error';

export const BAD_HOST = 'Enter a host name or IP address with no spaces, such as smtp.example.com';

type Security = TEmailSetupBody['security'];

const SECURITY: Array<{ value: Security; label: string; port: number }> = [
  { value: 'starttls', label: 'STARTTLS (usually port 587)', port: 587 },
  { value: 'tls', label: 'TLS from the start (usually port 465)', port: 465 },
  { value: 'none', label: 'None: unencrypted (usually port 25)', port: 25 },
];
const DEFAULT_PORTS = new Set(SECURITY.map((s) => String(s.port)));
const FIELDS = ['host', 'port', 'security', 'username', 'password', 'from_address', 'from_name'];

/** The SMTP settings. The stored password is never shown: left empty it stays as it is. */
export function SmtpSettingsForm({ setup, readOnly }: { setup: TEmailSetup | null; readOnly: boolean }) {
  const notify = useNotify();
  const save = useSaveEmailSetup();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState({
    host: setup?.host ?? '',
    port: String(setup?.port ?? 587),
    security: setup?.security ?? ('starttls' as Security),
    username: setup?.username ?? '',
    from_address: setup?.from_address ?? '',
    from_name: setup?.from_name ?? '',
  });
  const [password, setPassword] = useState('');
  const [clearPassword, setClearPassword] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const hasPassword = setup?.has_password ?? false;

  const set = (field: keyof typeof values, value: string) => {
    setValues((v) => {
      const next = { ...v, [field]: value };
      // A port still at a default follows the security choice.
      if (field === 'security' && DEFAULT_PORTS.has(v.port))
        next.port = String(SECURITY.find((s) => s.value === value)?.port ?? v.port);
      return next;
    });
    setErrors((e) => (e[field] ? { ...e, [field]: '' } : e));
  };

  const showErrors = (found: FieldErrors) => {
    setErrors(found);
    focusFirstError(formRef.current, found, FIELDS);
  };

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (save.isPending || readOnly) return;
    const port = values.port.trim() === '' ? Number.NaN : Number(values.port);
    const parsed = ZEmailSetupBody.safeParse({
      ...values,
      port,
      // Absent: keep the stored one; empty: clear it.
      password: clearPassword ? '' : password === '' ? undefined : password,
    });
    const host = values.host.trim();
    const found = {
      ...(parsed.success ? {} : fieldErrorsFrom(parsed.error.issues)),
      ...(host !== '' && !isSmtpHost(host) ? { host: BAD_HOST } : {}),
    };
    if (!parsed.success || Object.keys(found).length > 0) return showErrors(found);
    save.mutate(parsed.data, {
      onSuccess: (saved) => {
        setPassword('');
        setClearPassword(false);
        setErrors({});
        setValues((v) => ({
          ...v,
          port: String(saved.port),
          username: saved.username ?? '',
          from_name: saved.from_name,
        }));
        notify.success('E-mail settings saved', `Mail now goes out through ${saved.host}.`);
      },
      onError: (error) => {
        showErrors(apiFieldErrors(error));
        notify.notifyFailure('Failed to save e-mail settings', error);
      },
    });
  }

  const input = (
    field: keyof typeof values,
    label: string,
    extra: Partial<FormFieldProps> = {},
    hint?: string,
  ) => (
    <FormField
      label={label}
      name={field}
      value={values[field]}
      onChange={(e) => set(field, e.target.value)}
      error={errors[field]}
      hint={hint}
      autoComplete="off"
      {...extra}
    />
  );

  const passwordHint = readOnly
    ? hasPassword
      ? 'A password is stored.'
      : 'No password stored.'
    : clearPassword
      ? 'The stored password is removed when you save.'
      : hasPassword
        ? 'Unchanged: a password is stored. Type a new one to replace it.'
        : 'No password stored.';

  return (
    <form ref={formRef} className="form" onSubmit={onSubmit} noValidate aria-busy={save.isPending}>
      <fieldset className="multi-select" disabled={readOnly}>
        <legend className="sr-only">SMTP settings</legend>
        <div className="form-grid">
          {input('host', 'SMTP host', {
            spellCheck: false,
            autoCapitalize: 'none',
            placeholder: 'smtp.example.com',
          })}
          {input('port', 'Port', { type: 'number', inputMode: 'numeric', min: 1, max: 65535 })}
          <Field label="Security" error={errors.security} className="field--wide">
            {(control) => (
              <select
                {...control}
                name="security"
                value={values.security}
                onChange={(e) => set('security', e.target.value)}
              >
                {SECURITY.map((s) => (
                  <option key={s.value} value={s.value}>
                    {s.label}
                  </option>
                ))}
              </select>
            )}
          </Field>
          {input(
            'username',
            'Username',
            { spellCheck: false, autoCapitalize: 'none' },
            'Leave empty when the server needs no sign-in.',
          )}
          <Field label="Password" error={errors.password} hint={passwordHint}>
            {(control) => (
              <>
                <input
                  {...control}
                  name="password"
                  type="password"
                  autoComplete="new-password"
                  value={password}
                  placeholder={hasPassword && !clearPassword ? '•••••••• (unchanged)' : ''}
                  disabled={clearPassword}
                  onChange={(e) => {
                    setPassword(e.target.value);
                    setErrors((x) => ({ ...x, password: '' }));
                  }}
                />
                {hasPassword && !readOnly ? (
                  <label className="checkbox">
                    <input
                      type="checkbox"
                      checked={clearPassword}
                      onChange={(e) => {
                        setClearPassword(e.target.checked);
                        if (e.target.checked) setPassword('');
                      }}
                    />
                    <span>Clear the stored password</span>
                  </label>
                ) : null}
              </>
            )}
          </Field>
          {input('from_address', 'From address', {
            type: 'email',
            spellCheck: false,
            placeholder: 'quire@example.com',
          })}
          {input('from_name', 'From name', { placeholder: 'Quire' }, 'Empty: “Quire”.')}
        </div>
      </fieldset>
      <div className="form-actions">
        {setup ? <p className="field__hint">Last saved {formatDateTime(setup.updated_at)}</p> : null}
        {readOnly ? null : (
          <PendingButton pending={save.isPending} pendingLabel="Saving…">
            Save settings
          </PendingButton>
        )}
      </div>
    </form>
  );
}
