import { AccessSummary } from '../../../components/access-summary';
import { PageHeader } from '../../../components/page-header';
import { useCurrentUser } from '../../../lib/current-user';

export function LicenseManagementPage() {
  const { user } = useCurrentUser();
  return (
    <>
      <PageHeader title="Licence management">The licence of each company that uses Quire.</PageHeader>
      {user ? (
        <>
          <p className="welcome">Welcome, {user.first_name || user.name}.</p>
          <AccessSummary accessType={user.access_type} />
        </>
      ) : null}
    </>
  );
}
