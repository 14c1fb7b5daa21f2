import { DashboardPage } from '../../features/dashboard-and-search/routes/dashboard';
import { PinnedViews } from '../../features/saved-view/components/pinned-views';

// The dashboard, with the person's pinned saved views first.
export function Dashboard() {
  return <DashboardPage first={<PinnedViews />} />;
}
