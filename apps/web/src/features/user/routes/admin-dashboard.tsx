import type { AccessType } from '@quire/contract';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { AccessSummary } from '../../../components/access-summary';
import { PageHeader } from '../../../components/page-header';
import { useCurrentUser } from '../../../lib/current-user';
import { useAreaAccess } from '../../../lib/permissions';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { useEmailSetupStatus, useFailedMailCount } from '../api/get-email-status';
import { useGroups } from '../api/get-groups';
import { useLoggedInUsers } from '../api/get-logged-in-users';
import { useUsers } from '../api/get-users';
import { LicenceStatus } from '../components/licence-status';

function Stat({ label, value, to, hint }: { label: string; value: ReactNode; to: string; hint?: string }) {
  return (
    <Link to={to} className="stat stat--link">
      <span className="muted">{label}</span>
      <span className="stat__value">{value ?? '—'}</span>
      {hint ? <span className="field__hint">{hint}</span> : null}
    </Link>
  );
}

/** The Settings landing page (User Administration Admin): the numbers, and the way to each screen. */
export function AdminDashboardPage() {
  const { user } = useCurrentUser();
  const { canWrite } = useAreaAccess('settings');
  const active = useUsers({ status: 'active', quantity: 1 });
  const deactivated = useUsers({ status: 'deactivated', quantity: 1 });
  const deleted = useUsers({ status: 'deleted', quantity: 1 });
  const sessions = useLoggedInUsers();
  const groups = useGroups();
  const setup = useEmailSetupStatus();
  const failed = useFailedMailCount();

  const firstError = [active, deactivated, deleted, sessions, groups, setup, failed].find((q) => q.error);
  useFailureToast(firstError?.error, firstError?.errorUpdatedAt ?? 0, 'Failed to load the overview');

  const mail = setup.isPending ? undefined : setup.data ? 'Configured' : 'Not set up';

  return (
    <>
      <PageHeader title="Administration">
        Settings: users, groups and the rules of your company's workspace.
      </PageHeader>
      {user ? <p className="welcome">Welcome, {user.first_name || user.name}.</p> : null}

      <section aria-labelledby="overview-heading">
        <h2 id="overview-heading" className="sr-only">
          Overview
        </h2>
        <div className="stat-grid">
          <Stat label="Active users" value={active.data?.total} to="/admin/users?status=active" />
          <Stat
            label="Deactivated users"
            value={deactivated.data?.total}
            to="/admin/users?status=deactivated"
            hint="Cannot sign in until activated"
          />
          <Stat
            label="Deleted users"
            value={deleted.data?.total}
            to="/admin/users?status=deleted"
            hint="History kept"
          />
          <Stat
            label="Signed in now"
            value={sessions.data?.length}
            to="/admin/logged-in-users"
            hint="Live sessions"
          />
          <Stat label="Groups" value={groups.data?.length} to="/admin/groups" />
          <Stat
            label="Outgoing e-mail"
            value={mail}
            to="/admin/email"
            hint={failed.data && failed.data.total > 0 ? `${failed.data.total} failed to send` : undefined}
          />
        </div>
      </section>

      <section className="card" aria-labelledby="screens-heading">
        <h2 id="screens-heading">Settings</h2>
        <ul className="link-list">
          <li>
            <Link to="/admin/users">
              <strong>Users</strong>
              <span className="muted">
                {canWrite ? 'Create, edit, deactivate and reset passwords' : 'Everyone who can sign in'}
              </span>
            </Link>
          </li>
          {canWrite ? (
            <li>
              <Link to="/admin/users/import">
                <strong>Import users</strong>
                <span className="muted">Many accounts at once from Excel</span>
              </Link>
            </li>
          ) : null}
          <li>
            <Link to="/admin/logged-in-users">
              <strong>Signed-in users</strong>
              <span className="muted">Who is signed in, from where</span>
            </Link>
          </li>
          <li>
            <Link to="/admin/groups">
              <strong>Groups</strong>
              <span className="muted">Teams of users</span>
            </Link>
          </li>
          <li>
            <Link to="/admin/email">
              <strong>E-mail</strong>
              <span className="muted">SMTP settings and the outgoing queue</span>
            </Link>
          </li>
        </ul>
      </section>

      <LicenceStatus />

      {user ? <AccessSummary accessType={user.access_type as AccessType} /> : null}
    </>
  );
}
