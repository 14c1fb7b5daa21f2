import {
  accessTypeLabel,
  DIRECTORY_ACCESS_TYPES,
  type TAuthProvider,
  type TAuthProviderBody,
  type TAuthTestResult,
} from '@quire/contract';
import { useId, useState } from 'react';
import { useNotify } from '../../../components/notifications/notification-context';
import { ApiError } from '../../../lib/api-error';
import { errorMessage } from '../../../lib/error-message';
import { focusField } from '../../../lib/form';
import { useGroupOptions } from '../api/get-group-options';
import { useSaveAuthentication } from '../api/save-authentication';
import { useTestAuthentication } from '../api/test-authentication';

/** Why a Save that turns sign-in on is refused after a failed test. */
export const TEST_FAILED =
  'The last test failed, so directory accounts cannot sign in with these settings. Fix them and test again, or untick this to save them turned off.';

type Mapping = { directory_group: string; group_id: number | null; access_type: string | null };
type Form = Omit<Required<TAuthProviderBody>, 'group_mappings'> & { group_mappings: Mapping[] };

function initial(p: TAuthProvider | null): Form {
  return {
    name: p?.name ?? 'Directory',
    // A new connection starts off: it is turned on once it has been tested.
    enabled: p?.enabled ?? false,
    url: p?.url ?? 'ldaps://',
    start_tls: p?.start_tls ?? false,
    verify_certificate: p?.verify_certificate ?? true,
    ca_certificate: p?.ca_certificate ?? '',
    bind_dn: p?.bind_dn ?? '',
    bind_password: '',
    base_dn: p?.base_dn ?? '',
    user_filter: p?.user_filter ?? '(&(objectClass=person)(uid={username}))',
    username_attribute: p?.username_attribute ?? 'uid',
    email_attribute: p?.email_attribute ?? 'mail',
    first_name_attribute: p?.first_name_attribute ?? 'givenName',
    last_name_attribute: p?.last_name_attribute ?? 'sn',
    group_attribute: p?.group_attribute ?? '',
    default_access_type: p?.default_access_type ?? 'General staff',
    group_mappings:
      p?.group_mappings.map((m) => ({
        directory_group: m.directory_group,
        group_id: m.group_id,
        access_type: m.access_type,
      })) ?? [],
  };
}

/** The form as the API takes it: an untouched password field keeps the stored one. */
function toBody(f: Form, passwordTouched: boolean): TAuthProviderBody {
  const { bind_password, ...rest } = f;
  return {
    ...rest,
    ...(passwordTouched ? { bind_password } : {}),
    group_mappings: f.group_mappings.map((m) => ({
      directory_group: m.directory_group,
      group_id: m.group_id,
      access_type: (m.access_type || null) as TAuthProviderBody['default_access_type'] | null,
    })),
  };
}

const TEXT_FIELDS: Array<[keyof Form, string, string?]> = [
  ['url', 'Server URL', 'ldaps://ldap.example.com:636, or ldap://…:389 with StartTLS'],
  [
    'bind_dn',
    'Bind DN',
    'The account that searches, e.g. cn=quire,ou=services,dc=example,dc=com; empty: anonymous',
  ],
  ['base_dn', 'Search base', 'Where users are looked for, e.g. ou=people,dc=example,dc=com'],
  [
    'user_filter',
    'User filter',
    'With {username} where the typed username goes; Active Directory: (sAMAccountName={username})',
  ],
  ['username_attribute', 'Username attribute'],
  ['email_attribute', 'E-mail attribute'],
  ['first_name_attribute', 'First name attribute'],
  ['last_name_attribute', 'Last name attribute'],
  [
    'group_attribute',
    'Group attribute',
    'memberOf on Active Directory; empty: groups that list the user as member',
  ],
];

/** The LDAP / Active Directory connection: edit, test against the server, save. */
export function DirectoryForm({ provider, readOnly }: { provider: TAuthProvider | null; readOnly: boolean }) {
  const id = useId();
  const notify = useNotify();
  const save = useSaveAuthentication();
  const test = useTestAuthentication();
  const groups = useGroupOptions();
  const [form, setForm] = useState<Form>(() => initial(provider));
  const [passwordTouched, setPasswordTouched] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [testUser, setTestUser] = useState('');
  const [result, setResult] = useState<
    { ok: true; data: TAuthTestResult } | { ok: false; text: string } | null
  >(null);
  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((f) => ({ ...f, [key]: value }));

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

  const input = (key: keyof Form, label: string, hint?: string, type = 'text') => (
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
        <label className="checkbox">
          <input
            type="checkbox"
            checked={form.start_tls}
            onChange={(e) => set('start_tls', e.target.checked)}
          />{' '}
          Use StartTLS (ldap:// URLs)
        </label>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={form.verify_certificate}
            onChange={(e) => set('verify_certificate', e.target.checked)}
          />{' '}
          Check the server's certificate
        </label>
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
            onChange={(e) => set('default_access_type', e.target.value as Form['default_access_type'])}
          >
            {DIRECTORY_ACCESS_TYPES.map((t) => (
              <option key={t} value={t}>
                {accessTypeLabel(t)}
              </option>
            ))}
          </select>
        </div>

        <fieldset className="form">
          <legend>Group mapping</legend>
          <p className="muted">Members of a directory group join a Quire group, and may get more access.</p>
          {form.group_mappings.map((m, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place
            <div className="toolbar" key={i}>
              <div className="field field--grow">
                <label htmlFor={`${id}-map-${i}`}>Directory group DN</label>
                <input
                  id={`${id}-map-${i}`}
                  value={m.directory_group}
                  onChange={(e) =>
                    set(
                      'group_mappings',
                      form.group_mappings.map((x, j) =>
                        j === i ? { ...x, directory_group: e.target.value } : x,
                      ),
                    )
                  }
                  aria-invalid={errors[`group_mappings.${i}.directory_group`] ? true : undefined}
                />
                {errors[`group_mappings.${i}.directory_group`] ? (
                  <p className="field__error">{errors[`group_mappings.${i}.directory_group`]}</p>
                ) : null}
              </div>
              <div className="field">
                <label htmlFor={`${id}-mapg-${i}`}>Quire group</label>
                <select
                  id={`${id}-mapg-${i}`}
                  value={m.group_id ?? ''}
                  onChange={(e) =>
                    set(
                      'group_mappings',
                      form.group_mappings.map((x, j) =>
                        j === i ? { ...x, group_id: e.target.value ? Number(e.target.value) : null } : x,
                      ),
                    )
                  }
                >
                  <option value="">None</option>
                  {(groups.data ?? []).map((g) => (
                    <option key={g.id} value={g.id}>
                      {g.name}
                    </option>
                  ))}
                </select>
              </div>
              <div className="field">
                <label htmlFor={`${id}-mapa-${i}`}>Access type</label>
                <select
                  id={`${id}-mapa-${i}`}
                  value={m.access_type ?? ''}
                  onChange={(e) =>
                    set(
                      'group_mappings',
                      form.group_mappings.map((x, j) =>
                        j === i ? { ...x, access_type: e.target.value || null } : x,
                      ),
                    )
                  }
                >
                  <option value="">Unchanged</option>
                  {DIRECTORY_ACCESS_TYPES.map((t) => (
                    <option key={t} value={t}>
                      {accessTypeLabel(t)}
                    </option>
                  ))}
                </select>
              </div>
              <button
                type="button"
                className="button button--ghost button--small"
                aria-label={`Remove the mapping of ${m.directory_group || 'this group'}`}
                onClick={() =>
                  set(
                    'group_mappings',
                    form.group_mappings.filter((_, j) => j !== i),
                  )
                }
              >
                Remove
              </button>
            </div>
          ))}
          <div>
            <button
              type="button"
              className="button button--ghost button--small"
              onClick={() =>
                set('group_mappings', [
                  ...form.group_mappings,
                  { directory_group: '', group_id: null, access_type: null },
                ])
              }
            >
              Add a group mapping
            </button>
          </div>
        </fieldset>

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
              <button
                type="button"
                className="button button--ghost"
                onClick={onTest}
                disabled={test.isPending || !testUser.trim()}
              >
                {test.isPending ? 'Testing…' : 'Test'}
              </button>
            </div>
            {result ? (
              result.ok ? (
                <div className="alert alert--success" role="status">
                  <p>
                    Bound as {result.data.bound_as} and found <strong>{result.data.user.dn}</strong>.
                  </p>
                  <dl className="details">
                    <dt>Username</dt>
                    <dd>{result.data.user.username}</dd>
                    <dt>E-mail</dt>
                    <dd>{result.data.user.email ?? '—'}</dd>
                    <dt>Name</dt>
                    <dd>
                      {[result.data.user.first_name, result.data.user.last_name].filter(Boolean).join(' ') ||
                        '—'}
                    </dd>
                    <dt>Directory groups</dt>
                    <dd>{result.data.user.groups.join('; ') || 'none'}</dd>
                    <dt>In Quire</dt>
                    <dd>
                      {accessTypeLabel(result.data.user.access_type)}
                      {result.data.user.quire_groups.length
                        ? `, in ${result.data.user.quire_groups.join(', ')}`
                        : ''}
                    </dd>
                  </dl>
                </div>
              ) : (
                <div className="alert alert--error" role="alert">
                  {result.text}
                </div>
              )
            ) : null}
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
