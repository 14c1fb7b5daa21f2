// The lazily loaded main area (spec §2): every page of the app, behind one dynamic import.
import { Route, Routes } from 'react-router';
import { ClientErrorsPage } from '../features/auth/routes/client-errors';
import { ForgotPasswordPage } from '../features/auth/routes/forgot-password';
import { LoginPage } from '../features/auth/routes/login';
import { ProfilePage } from '../features/auth/routes/profile';
import { RegisterPage } from '../features/auth/routes/register';
import { ResetPasswordPage } from '../features/auth/routes/reset-password';
import { SetupTwoFactorPage } from '../features/auth/routes/setup-2fa';
import { SignInSecurityPage } from '../features/auth/routes/sign-in-security';
import { VerifyTwoFactorPage } from '../features/auth/routes/verify-2fa';
import { VerifyEmailPage } from '../features/auth/routes/verify-email';
import { CategoriesPage } from '../features/category/routes/category-home';
import { DashboardPage } from '../features/dashboard-and-search/routes/dashboard';
import { EmailPage } from '../features/email/routes/email';
import { GroupsPage } from '../features/group/routes/groups';
import { HomePage } from '../features/landing/routes/home';
import { LicenseManagementPage } from '../features/licence/routes/license-management';
import { AdminDashboardPage } from '../features/user/routes/admin-dashboard';
import { ImportUsersPage } from '../features/user/routes/import-users';
import { LoggedInUsersPage } from '../features/user/routes/logged-in-users';
import { UsersPage } from '../features/user/routes/users';
import { NotFoundPage } from './not-found';
import { SignedInLayout } from './signed-in-layout';

export default function MainArea() {
  return (
    <Routes>
      <Route path="/" element={<HomePage />} />
      <Route path="/login" element={<LoginPage />} />
      <Route path="/auth/setup-2fa" element={<SetupTwoFactorPage />} />
      <Route path="/auth/verify-2fa" element={<VerifyTwoFactorPage />} />
      <Route path="/forgot-password" element={<ForgotPasswordPage />} />
      <Route path="/reset-password" element={<ResetPasswordPage />} />
      <Route path="/register" element={<RegisterPage />} />
      <Route path="/verify-email" element={<VerifyEmailPage />} />
      <Route element={<SignedInLayout />}>
        <Route path="/dashboard" element={<DashboardPage />} />
        <Route path="/profile" element={<ProfilePage />} />
        <Route path="/admin/dashboard" element={<AdminDashboardPage />} />
        <Route path="/admin/users" element={<UsersPage />} />
        <Route path="/admin/users/import" element={<ImportUsersPage />} />
        <Route path="/admin/logged-in-users" element={<LoggedInUsersPage />} />
        <Route path="/admin/groups" element={<GroupsPage />} />
        <Route path="/admin/email" element={<EmailPage />} />
        <Route path="/admin/sign-in-security" element={<SignInSecurityPage />} />
        <Route path="/admin/client-errors" element={<ClientErrorsPage />} />
        <Route path="/admin/category" element={<CategoriesPage />} />
        <Route path="/admin/license-management" element={<LicenseManagementPage />} />
      </Route>
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
