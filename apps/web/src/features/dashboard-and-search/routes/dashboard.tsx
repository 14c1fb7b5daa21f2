import { LandingPage } from '../../../components/landing-page';

export function DashboardPage() {
  return <LandingPage title="Dashboard">Your files, categories and tasks live here.</LandingPage>;
}
