// The lazily loaded main area (spec §2): every page of the app, behind one dynamic import.
import { Route, Routes } from 'react-router';
import { LoginPage } from '../features/auth/routes/login';
import { CategoriesPage } from '../features/category/routes/category-home';
import { DashboardPage } from '../features/dashboard-and-search/routes/dashboard';
import { HomePage } from '../features/landing/routes/home';
import { LicenseManagementPage } from '../features/licence/routes/license-management';
import { AdminDashboardPage } from '../features/user/routes/admin-dashboard';
import { NotFoundPage } from './not-found';
import { SignedInLayout } from './signed-in-layout';

export default function MainArea() {
  return (
    <Routes>
      <Route path="/" element={<HomePage />} />
      <Route path="/login" element={<LoginPage />} />
      <Route element={<SignedInLayout />}>
        <Route path="/dashboard" element={<DashboardPage />} />
        <Route path="/admin/dashboard" element={<AdminDashboardPage />} />
        <Route path="/admin/category" element={<CategoriesPage />} />
        <Route path="/admin/license-management" element={<LicenseManagementPage />} />
      </Route>
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
