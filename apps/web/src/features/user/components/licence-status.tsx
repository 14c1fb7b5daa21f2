import type { TLicenceState } from '@quire/contract';
import { formatDate } from '../../../lib/format';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { useLicenceStatus } from '../api/get-licence-status';

const days = (n: number) => `${n} day${n === 1 ? '' : 's'}`;

function expiry(state: TLicenceState): string {
  const left = state.days_left;
  if (left === null) return '';
  return left >= 0 ? ` (${days(left)} left)` : ` (expired ${days(-left)} ago)`;
}

/** The licence as the company's administrators see it: read only; the vendor admin installs it. */
export function LicenceStatus() {
  const status = useLicenceStatus();
  useFailureToast(status.error, status.errorUpdatedAt, 'Failed to load the licence status');
  const state = status.data;
  const licence = state?.licence;
  return (
    <section className="card" aria-labelledby="licence-heading">
      <h2 id="licence-heading">Licence</h2>
      {status.isPending ? (
        <p className="muted">Loading the licence…</p>
      ) : !state ? (
        <p className="muted">The licence status could not be loaded.</p>
      ) : !licence ? (
        <p>
          No licence installed: no limits. {state.seats_used} active account
          {state.seats_used === 1 ? '' : 's'}.
        </p>
      ) : (
        <dl className="details">
          <dt>Licensed to</dt>
          <dd>{licence.licensee}</dd>
          <dt>Seats</dt>
          <dd>
            {state.seats_used} of {licence.seats} used
          </dd>
          <dt>Expires</dt>
          <dd>
            {formatDate(licence.expires_at)}
            {expiry(state)}
          </dd>
        </dl>
      )}
      {state?.read_only ? (
        <p className="alert alert--warning">
          {state.problem ??
            'The licence has expired: Quire is read only until the vendor installs a new one.'}
        </p>
      ) : null}
    </section>
  );
}
