import { type TEmailSetup, type TEmailSetupBody, ZEmailSetupBody } from '@quire/contract';
import { useForm } from 'react-hook-form';
import { Field, FormField, type FormFieldProps } from '../../../components/form-field';
import { useNotify } from '../../../components/notifications/notification-context';
import { PendingButton } from '../../../components/pending-button';
import { fieldErrorsFrom } from '../../../lib/field-errors';
import { checkResolver, fieldMessages, focusFirstInvalid, setServerErrors } from '../../../lib/form';
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
const FIELDS = ['host', 'port', 'security', 'username', 'password', 'from_address', 'from_name'] as const;

interface SmtpValues {
  host: string;
  port: string;
  security: Security;
  username: string;
  from_address: string;
  from_name: string;
  password: string;
  clear_password: boolean;
}

/** What the form says, as the call's body: a password left empty keeps the stored one. */
function toBody(values: SmtpValues) {
  const { clear_password, password, port, ...rest } = values;
  return {
    ...rest,
    port: port.trim() === '' ? Number.NaN : Number(port),
    // Absent: keep the stored one; empty: clear it.
    password: clear_password ? '' : password === '' ? undefined : password,
  };
}

/** The SMTP settings. The stored password is never shown: left empty it stays as it is. */
export function SmtpSettingsForm({ setup, readOnly }: { setup: TEmailSetup | null; readOnly: boolean }) {
  const notify = useNotify();
  const save = useSaveEmailSetup();
  const form = useForm<SmtpValues>({
    defaultValues: {
      host: setup?.host ?? '',
      port: String(setup?.port ?? 587),
      security: setup?.security ?? ('starttls' as Security),
      username: setup?.username ?? '',
      from_address: setup?.from_address ?? '',
      from_name: setup?.from_name ?? '',
      password: '',
      clear_password: false,
    },
    // The contract's ZEmailSetupBody, and a host that is a host name or address.
    resolver: checkResolver((values) => {
      const parsed = ZEmailSetupBody.safeParse(toBody(values));
      const host = values.host.trim();
      return {
        ...(parsed.success ? {} : fieldErrorsFrom(parsed.error.issues)),
        ...(host !== '' && !isSmtpHost(host) ? { host: BAD_HOST } : {}),
      };
    }),
  });
  const values = form.watch();
  const errors = fieldMessages(form.formState.errors);
  const hasPassword = setup?.has_password ?? false;
  const clearPassword = values.clear_password;

  const set = (field: keyof SmtpValues, value: string) => {
    // A port still at a default follows the security choice.
    if (field === 'security' && DEFAULT_PORTS.has(form.getValues('port')))
      form.setValue('port', String(SECURITY.find((s) => s.value === value)?.port ?? form.getValues('port')));
    form.setValue(field, value as never);
    form.clearErrors(field);
  };

  const onSubmit = form.handleSubmit((raw) => {
    if (save.isPending || readOnly) return;
    save.mutate(ZEmailSetupBody.parse(toBody(raw)), {
      onSuccess: (saved) => {
        form.reset({
          ...form.getValues(),
          password: '',
          clear_password: false,
          port: String(saved.port),
          username: saved.username ?? '',
          from_name: saved.from_name,
        });
        notify.success('E-mail settings saved', `Mail now goes out through ${saved.host}.`);
      },
      onError: (error) => {
        setServerErrors(form, error, FIELDS);
        notify.notifyFailure('Failed to save e-mail settings', error);
      },
    });
  }, focusFirstInvalid(FIELDS));

  const input = (
    field: 'host' | 'port' | 'username' | 'from_address' | 'from_name',
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
    <form className="form" onSubmit={onSubmit} noValidate aria-busy={save.isPending}>
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
                  value={values.password}
                  placeholder={hasPassword && !clearPassword ? '•••••••• (unchanged)' : ''}
                  disabled={clearPassword}
                  onChange={(e) => set('password', e.target.value)}
                />
                {hasPassword && !readOnly ? (
                  <label className="checkbox">
                    <input
                      type="checkbox"
                      checked={clearPassword}
                      onChange={(e) => {
                        form.setValue('clear_password', e.target.checked);
                        if (e.target.checked) form.setValue('password', '');
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
