import { AccessSummary } from '../../../components/access-summary';
import { PageHeader } from '../../../components/page-header';
import { useCurrentUser } from '../../../lib/current-user';

export function AdminDashboardPage() {
  const { user } = useCurrentUser();
  return (
    <>
      <PageHeader title="Administration">
        Settings: users, groups and the rules of your company's workspace.
      </PageHeader>
      {user ? (
        <>
          <p className="welcome">Welcome, {user.first_name || user.name}.</p>
          <AccessSummary accessType={user.access_type} />
        </>
      ) : null}
    </>
  );
}
