import { accessTypeLabel, type TAuthTestResult } from '@quire/contract';

/** What testing the directory connection found: the user looked up, or why it failed. */
export type TestOutcome = { ok: true; data: TAuthTestResult } | { ok: false; text: string };

/** A test's outcome: the bound account and the user found (as Quire would see them), or the error. */
export function DirectoryTestResult({ result }: { result: TestOutcome }) {
  return result.ok ? (
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
        <dd>{[result.data.user.first_name, result.data.user.last_name].filter(Boolean).join(' ') || '—'}</dd>
        <dt>Directory groups</dt>
        <dd>{result.data.user.groups.join('; ') || 'none'}</dd>
        <dt>In Quire</dt>
        <dd>
          {accessTypeLabel(result.data.user.access_type)}
          {result.data.user.quire_groups.length ? `, in ${result.data.user.quire_groups.join(', ')}` : ''}
        </dd>
      </dl>
    </div>
  ) : (
    <div className="alert alert--error" role="alert">
      {result.text}
    </div>
  );
}
