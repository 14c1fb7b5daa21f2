import { LandingPage } from '../../../components/landing-page';

export function LicenseManagementPage() {
  return <LandingPage title="Licence management">The licence of each company that uses Quire.</LandingPage>;
}
