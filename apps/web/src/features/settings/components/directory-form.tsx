import type { TAuthProvider } from '@quire/contract';
import { useId, useState } from 'react';
import { Button } from '../../../components/button';
import { useNotify } from '../../../components/notifications/notification-context';
import { ApiError } from '../../../lib/api-error';
import { errorMessage } from '../../../lib/error-message';
import { focusField } from '../../../lib/focus-field';
import { useGroupOptions } from '../api/get-group-options';
import { useSaveAuthentication } from '../api/save-authentication';
import { useTestAuthentication } from '../api/test-authentication';
import {
  type DirectoryValues,
  initialForm,
  TEST_FAILED,
  TEXT_FIELDS,
  toBody,
} from '../lib/directory-settings';
import { DirectoryTestResult, type TestOutcome } from './directory-test-result';
import { DirectoryAccessOptions, GroupMappings } from './group-mappings';

/** The LDAP / Active Directory connection: edit, test against the server, save. */
export function DirectoryForm({ provider, readOnly }: { provider: TAuthProvider | null; readOnly: boolean }) {
  const id = useId();
  const notify = useNotify();
  const save = useSaveAuthentication();
  const test = useTestAuthentication();
  const groups = useGroupOptions();
  const [form, setForm] = useState<DirectoryValues>(() => initialForm(provider));
  const [passwordTouched, setPasswordTouched] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [testUser, setTestUser] = useState('');
  const [result, setResult] = useState<TestOutcome | null>(null);
  const set = <K extends keyof DirectoryValues>(key: K, value: DirectoryValues[K]) =>
    setForm((f) => ({ ...f, [key]: value }));

  const fieldErrors = (error: unknown, prefix: string) => {
    const found: Record<string, string> = {};
    if (error instanceof ApiError)
      for (const e of error.errors) found[e.path.replace(/^body\./, '').replace(prefix, '')] = e.message;
    setErrors(found);
    return Object.keys(found).length > 0;
  };

  const onSave = (event: React.FormEvent) => {
    event.preventDefault();
    setErrors({});
    if (form.enabled && result?.ok === false) {
      // Saving would let people sign in through settings the server just failed with.
      setErrors({ enabled: TEST_FAILED });
      focusField('enabled');
      return;
    }
    save.mutate(toBody(form, passwordTouched), {
      onSuccess: () => {
        setPasswordTouched(false);
        setForm((f) => ({ ...f, bind_password: '' }));
        notify.success(
          'External authentication saved',
          form.enabled ? 'Directory accounts can sign in.' : 'It is off.',
        );
      },
      onError: (error) => {
        if (!fieldErrors(error, '')) notify.notifyFailure('Failed to save external authentication!', error);
      },
    });
  };

  const onTest = () => {
    setResult(null);
    setErrors({});
    test.mutate(
      { settings: toBody(form, passwordTouched), username: testUser },
      {
        onSuccess: (data) => setResult({ ok: true, data }),
        onError: (error) => {
          if (error instanceof ApiError && error.status === 400 && fieldErrors(error, 'settings.')) return;
          setResult({ ok: false, text: errorMessage(error) });
        },
      },
    );
  };

  /** A setting that is on or off, ticked as the form holds it. */
  const checkbox = (key: 'start_tls' | 'verify_certificate', label: string) => (
    <label className="checkbox">
      <input type="checkbox" checked={form[key]} onChange={(e) => set(key, e.target.checked)} /> {label}
    </label>
  );
  const input = (key: keyof DirectoryValues, label: string, hint?: string, type = 'text') => (
    <div className="field field--wide" key={key}>
      <label htmlFor={`${id}-${key}`}>{label}</label>
      <input
        id={`${id}-${key}`}
        name={key}
        type={type}
        value={String(form[key] ?? '')}
        onChange={(e) => {
          if (key === 'bind_password') setPasswordTouched(true);
          set(key, e.target.value as never);
        }}
        aria-invalid={errors[key] ? true : undefined}
        aria-describedby={
          [errors[key] ? `${id}-${key}-error` : '', hint ? `${id}-${key}-hint` : ''].join(' ').trim() ||
          undefined
        }
      />
      {hint ? (
        <div className="field__hint" id={`${id}-${key}-hint`}>
          {hint}
        </div>
      ) : null}
      {errors[key] ? (
        <p className="field__error" id={`${id}-${key}-error`}>
          {errors[key]}
        </p>
      ) : null}
    </div>
  );

  return (
    <form className="form" onSubmit={onSave} noValidate aria-busy={save.isPending}>
      <fieldset className="form" disabled={readOnly || save.isPending}>
        <div className="field field--wide">
          <label className="checkbox">
            <input
              type="checkbox"
              name="enabled"
              checked={form.enabled}
              onChange={(e) => {
                set('enabled', e.target.checked);
                if (!e.target.checked) setErrors(({ enabled: _, ...rest }) => rest);
              }}
              aria-invalid={errors.enabled ? true : undefined}
              aria-describedby={errors.enabled ? `${id}-enabled-error` : `${id}-enabled-hint`}
            />{' '}
            Let directory accounts sign in
          </label>
          {errors.enabled ? (
            <p className="field__error" id={`${id}-enabled-error`}>
              {errors.enabled}
            </p>
          ) : (
            <div className="field__hint" id={`${id}-enabled-hint`}>
              Test the connection below before turning it on.
            </div>
          )}
        </div>
        {TEXT_FIELDS.slice(0, 2).map(([k, l, h]) => input(k, l, h))}
        {input(
          'bind_password',
          'Bind password',
          provider?.has_bind_password ? 'A password is stored: leave empty to keep it.' : undefined,
          'password',
        )}
        {checkbox('start_tls', 'Use StartTLS (ldap:// URLs)')}
        {checkbox('verify_certificate', "Check the server's certificate")}
        {form.verify_certificate ? null : (
          <p className="alert alert--warning">
            Without the check, anyone between Quire and the server can read passwords.
          </p>
        )}
        {errors.start_tls ? <p className="field__error">{errors.start_tls}</p> : null}
        <div className="field field--wide">
          <label htmlFor={`${id}-ca`}>CA certificate (PEM), when the server's is not publicly signed</label>
          <textarea
            id={`${id}-ca`}
            name="ca_certificate"
            rows={3}
            value={form.ca_certificate}
            onChange={(e) => set('ca_certificate', e.target.value)}
            aria-invalid={errors.ca_certificate ? true : undefined}
          />
          {errors.ca_certificate ? <p className="field__error">{errors.ca_certificate}</p> : null}
        </div>
        {TEXT_FIELDS.slice(2).map(([k, l, h]) => input(k, l, h))}
        <div className="field">
          <label htmlFor={`${id}-default`}>Access type of new directory accounts</label>
          <select
            id={`${id}-default`}
            value={form.default_access_type}
            onChange={(e) =>
              set('default_access_type', e.target.value as DirectoryValues['default_access_type'])
            }
          >
            <DirectoryAccessOptions />
          </select>
        </div>

        <GroupMappings
          mappings={form.group_mappings}
          onChange={(mappings) => set('group_mappings', mappings)}
          groups={groups.data ?? []}
          errors={errors}
        />

        {readOnly ? null : (
          <section className="card" aria-labelledby={`${id}-test`}>
            <h3 id={`${id}-test`}>Test the connection</h3>
            <div className="toolbar">
              <div className="field field--grow">
                <label htmlFor={`${id}-test-user`}>Look up this username</label>
                <input
                  id={`${id}-test-user`}
                  value={testUser}
                  onChange={(e) => setTestUser(e.target.value)}
                />
              </div>
              <Button variant="ghost" onClick={onTest} disabled={test.isPending || !testUser.trim()}>
                {test.isPending ? 'Testing…' : 'Test'}
              </Button>
            </div>
            {result ? <DirectoryTestResult result={result} /> : null}
          </section>
        )}

        {readOnly ? null : (
          <div>
            <button type="submit" className="button button--primary">
              {save.isPending ? 'Saving…' : 'Save'}
            </button>
          </div>
        )}
      </fieldset>
    </form>
  );
}
