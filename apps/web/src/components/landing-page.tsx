import type { ReactNode } from 'react';
import { useCurrentUser } from '../lib/current-user';
import { AccessSummary } from './access-summary';
import { PageHeader } from './page-header';

/** A landing page (spec §2): its header, a welcome and what the person's access lets them do. */
export function LandingPage({ title, children }: { title: string; children: ReactNode }) {
  const { user } = useCurrentUser();
  return (
    <>
      <PageHeader title={title}>{children}</PageHeader>
      {user ? (
        <>
          <p className="welcome">Welcome, {user.first_name || user.name}.</p>
          <AccessSummary accessType={user.access_type} />
        </>
      ) : null}
    </>
  );
}
