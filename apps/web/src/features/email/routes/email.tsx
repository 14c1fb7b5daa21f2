import { Button } from '../../../components/button';
import { CardSection } from '../../../components/card-section';
import { PageHeader } from '../../../components/page-header';
import { useCurrentUser } from '../../../lib/current-user';
import { useAreaAccess } from '../../../lib/permissions';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { useEmailSetup } from '../api/get-email-setup';
import { MailQueue } from '../components/mail-queue';
import { SmtpSettingsForm } from '../components/smtp-settings-form';
import { TestEmailForm } from '../components/test-email-form';

export function EmailPage() {
  const { canWrite } = useAreaAccess('settings');
  const { user } = useCurrentUser();
  const setup = useEmailSetup();
  useFailureToast(setup.error, setup.errorUpdatedAt, 'Failed to load e-mail settings');

  return (
    <>
      <PageHeader title="E-mail">
        How Quire sends mail (password resets, notifications), and the messages waiting to go out.
      </PageHeader>
      {canWrite ? null : (
        <div className="section-header">
          <span className="badge badge--neutral">Read only</span>
        </div>
      )}

      <CardSection
        headingId="smtp-heading"
        title="SMTP settings"
        aside={
          setup.isSuccess ? (
            <span className={`badge ${setup.data ? 'badge--success' : 'badge--warning'}`}>
              {setup.data ? 'Configured' : 'Not configured'}
            </span>
          ) : null
        }
      >
        {setup.isPending ? (
          <div className="empty-state" role="status">
            <span className="spinner" aria-hidden="true" />
            <p className="muted">Loading the settings…</p>
          </div>
        ) : setup.isError ? (
          <div className="empty-state" role="alert">
            <p>The settings could not be loaded.</p>
            <Button variant="ghost" onClick={() => setup.refetch()}>
              Try again
            </Button>
          </div>
        ) : (
          <>
            {setup.data ? null : (
              <p className="muted">
                E-mail is not set up yet: nothing is sent until these settings are saved.
              </p>
            )}
            <SmtpSettingsForm setup={setup.data} readOnly={!canWrite} />
          </>
        )}
      </CardSection>

      {canWrite ? (
        <section className="card" aria-labelledby="test-heading">
          <h2 id="test-heading">Send a test e-mail</h2>
          <p className="muted">
            Sends one message now through the saved settings and shows the server's answer.
          </p>
          <TestEmailForm
            configured={Boolean(setup.data)}
            defaultTo={user?.email ?? ''}
            target={{ host: setup.data?.host, port: setup.data?.port }}
          />
        </section>
      ) : null}

      <section className="card" aria-labelledby="queue-heading">
        <h2 id="queue-heading">Outgoing queue</h2>
        <MailQueue readOnly={!canWrite} target={{ host: setup.data?.host, port: setup.data?.port }} />
      </section>
    </>
  );
}
