import { useState } from 'react';
import { Button } from '../../../components/button';
import { CardSection } from '../../../components/card-section';
import { ConfirmMutationDialog } from '../../../components/confirm-mutation-dialog';
import { QueryState } from '../../../components/data-table';
import { PageHeader } from '../../../components/page-header';
import { useCurrentUser } from '../../../lib/current-user';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { useDeleteAuthentication } from '../api/delete-authentication';
import { useAuthentication } from '../api/get-authentication';
import { DirectoryForm } from '../components/directory-form';

/** External authentication: the LDAP / Active Directory connection. */
export function AuthenticationPage() {
  const { user } = useCurrentUser();
  const canManage = user?.access_type === 'COMPANY ADMIN';
  const provider = useAuthentication();
  const remove = useDeleteAuthentication();
  const [confirming, setConfirming] = useState(false);
  useFailureToast(provider.error, provider.errorUpdatedAt, 'Failed to load authentication settings');

  return (
    <>
      <PageHeader title="External authentication">
        Let people sign in with their LDAP or Active Directory account. Local accounts, and the first admin,
        keep signing in with their Quire password.
      </PageHeader>
      <QueryState
        query={provider}
        loadingText="Loading the settings…"
        failedText="The settings could not be loaded"
      >
        <CardSection
          headingId="directory-heading"
          title="Directory"
          aside={
            provider.data ? (
              <span className={`badge ${provider.data.enabled ? 'badge--success' : 'badge--neutral'}`}>
                {provider.data.enabled ? 'On' : 'Off'} · {provider.data.user_count} account
                {provider.data.user_count === 1 ? '' : 's'}
              </span>
            ) : (
              <span className="badge badge--neutral">Not set up</span>
            )
          }
        >
          <DirectoryForm
            key={provider.data?.updated_at ?? 'new'}
            provider={provider.data ?? null}
            readOnly={!canManage}
          />
          {provider.data && canManage ? (
            <div>
              <Button variant="danger" onClick={() => setConfirming(true)}>
                Remove the directory
              </Button>
            </div>
          ) : null}
        </CardSection>
      </QueryState>
      {confirming && provider.data ? (
        <ConfirmMutationDialog
          title="Remove the directory?"
          confirmLabel="Remove"
          pendingLabel="Removing…"
          tone="danger"
          mutation={remove}
          value={provider.data.id}
          success={['External authentication removed']}
          failure="Failed to remove external authentication!"
          closeOnFailure
          onClose={() => setConfirming(false)}
        >
          Its {provider.data.user_count} account(s) stay, but cannot sign in until an admin gives them a
          password.
        </ConfirmMutationDialog>
      ) : null}
    </>
  );
}
