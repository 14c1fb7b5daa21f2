import { LandingPage } from '../../../components/landing-page';

export function CategoriesPage() {
  return (
    <LandingPage title="Categories">
      File Control: the categories files are uploaded into and indexed by.
    </LandingPage>
  );
}
