import { AccessSummary } from '../../../components/access-summary';
import { PageHeader } from '../../../components/page-header';
import { useCurrentUser } from '../../../lib/current-user';

export function DashboardPage() {
  const { user } = useCurrentUser();
  return (
    <>
      <PageHeader title="Dashboard">Your files, categories and tasks live here.</PageHeader>
      {user ? (
        <>
          <p className="welcome">Welcome, {user.first_name || user.name}.</p>
          <AccessSummary accessType={user.access_type} />
        </>
      ) : null}
    </>
  );
}
