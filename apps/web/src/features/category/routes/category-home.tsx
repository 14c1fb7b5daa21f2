import { AccessSummary } from '../../../components/access-summary';
import { PageHeader } from '../../../components/page-header';
import { useCurrentUser } from '../../../lib/current-user';

export function CategoriesPage() {
  const { user } = useCurrentUser();
  return (
    <>
      <PageHeader title="Categories">
        File Control: the categories files are uploaded into and indexed by.
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
