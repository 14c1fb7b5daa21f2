import { useState } from 'react';
import { CardSection } from '../../../components/card-section';
import { QueryState } from '../../../components/data-table';
import { FileDropZone } from '../../../components/drop-zone';
import { Field } from '../../../components/form-field';
import { useNotify } from '../../../components/notifications/notification-context';
import { PageHeader } from '../../../components/page-header';
import { ApiError } from '../../../lib/api-error';
import { errorMessage } from '../../../lib/error-message';
import { formatDate, formatDateTime } from '../../../lib/format';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { useLicence } from '../api/get-licence';
import { useInstallLicence } from '../api/install-licence';

/** The vendor admin's landing: the installed licence, seats used, expiry, and installing a new one. */
export function LicenseManagementPage() {
  const notify = useNotify();
  const state = useLicence();
  const install = useInstallLicence();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  useFailureToast(state.error, state.errorUpdatedAt, 'Failed to load the licence');
  const s = state.data;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!text.trim()) {
      setError('Paste the licence or choose its file');
      return;
    }
    install.mutate(text, {
      onSuccess: (next) => {
        setText('');
        notify.success('Licence installed', `${next.licence?.licensee}: ${next.licence?.seats} seats.`);
      },
      onError: (e) => {
        if (e instanceof ApiError && e.status < 500) setError(errorMessage(e));
        else notify.notifyFailure('Failed to install licence!', e);
      },
    });
  };

  return (
    <>
      <PageHeader title="Licence management">
        The licence of this Quire: who it is for, its seats and when it ends.
      </PageHeader>
      <QueryState
        query={state}
        loadingText="Loading the licence…"
        failedText="The licence could not be loaded"
      >
        <CardSection
          headingId="licence-heading"
          title="Current licence"
          aside={
            s?.licence ? (
              <span
                className={`badge ${s.read_only ? 'badge--error' : (s.days_left ?? 0) < 30 ? 'badge--warning' : 'badge--success'}`}
              >
                {s.read_only ? 'Expired: read-only' : `${s.days_left} days left`}
              </span>
            ) : (
              <span className="badge badge--neutral">None installed</span>
            )
          }
        >
          {s?.licence ? (
            <dl className="details">
              <dt>Licensed to</dt>
              <dd>{s.licence.licensee}</dd>
              <dt>Seats used</dt>
              <dd>
                {s.seats_used} of {s.licence.seats}
                <div>
                  <progress
                    max={s.licence.seats}
                    value={Math.min(s.seats_used, s.licence.seats)}
                    aria-label="Seats used"
                  />
                </div>
              </dd>
              <dt>Valid</dt>
              <dd>
                {formatDate(s.licence.starts_at)} to {formatDate(s.licence.expires_at)}
              </dd>
              <dt>Features</dt>
              <dd>{s.licence.features.join(', ') || '—'}</dd>
              <dt>Installed</dt>
              <dd>
                {formatDateTime(s.licence.installed_at)}
                {s.licence.installed_by ? ` by ${s.licence.installed_by}` : ''}
              </dd>
            </dl>
          ) : (
            <p className="muted">
              No licence is installed: there is no seat limit and no expiry. {s?.seats_used} accounts are
              active.
            </p>
          )}
          {s?.read_only ? (
            <div className="alert alert--error" role="alert">
              The licence has expired: people can sign in, view and download, but nothing can be changed until
              a new licence is installed. Nothing has been deleted.
            </div>
          ) : null}
        </CardSection>
      </QueryState>

      <section className="card" aria-labelledby="install-heading">
        <h2 id="install-heading">Install a licence</h2>
        <form className="form" onSubmit={submit} noValidate aria-busy={install.isPending}>
          <FileDropZone
            label="Drop the licence file here"
            multiple={false}
            maxBytes={20_000}
            onFiles={async ([file]) => {
              if (file) setText((await file.text()).trim());
            }}
          />
          <Field label="Licence" error={error ?? undefined} className="field--wide">
            {(control) => (
              <textarea
                {...control}
                name="licence"
                rows={5}
                value={text}
                placeholder="QUIRE1.…"
                onChange={(e) => setText(e.target.value)}
              />
            )}
          </Field>
          <div>
            <button type="submit" className="button button--primary" disabled={install.isPending}>
              {install.isPending ? 'Installing…' : 'Install licence'}
            </button>
          </div>
        </form>
      </section>
    </>
  );
}
