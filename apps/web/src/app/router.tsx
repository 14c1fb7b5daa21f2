import { type ComponentType, Suspense, useEffect } from 'react';
import { Outlet, type RouteObject, useLocation, useRoutes } from 'react-router';
import { useNotify } from '../components/notifications/notification-context';
import type { Notifier } from '../components/notifications/notification-store';
import { PageOnItsWay } from '../components/page-loader';
import { listenForChunkErrors } from './chunk-errors';
import { ErrorBoundary } from './error-page';
import { lazyPage } from './lazy-page';
import { NotFoundPage } from './not-found';

/**
 * Above every page: chunk-load failures reach the notification area, anything thrown while
 * rendering shows the error page (until the next navigation), and a page still loading shows
 * the loading indicator.
 */
function Root() {
  const notify = useNotify();
  const location = useLocation();
  useEffect(() => listenForChunkErrors(notify), [notify]);
  return (
    <ErrorBoundary resetKey={location.key}>
      <Suspense fallback={<PageOnItsWay />}>
        <Outlet />
      </Suspense>
    </ErrorBoundary>
  );
}

/** A page's path and its route module's page component, loaded as a chunk of its own. */
type Pages = readonly (readonly [path: string, load: () => Promise<ComponentType>])[];

/** Pages open to anyone: they load without the signed-in area. */
const PUBLIC_PAGES: Pages = [
  ['/', () => import('../features/landing/routes/home').then((m) => m.HomePage)],
  ['/login', () => import('../features/auth/routes/login').then((m) => m.LoginPage)],
  ['/auth/setup-2fa', () => import('../features/auth/routes/setup-2fa').then((m) => m.SetupTwoFactorPage)],
  ['/auth/verify-2fa', () => import('../features/auth/routes/verify-2fa').then((m) => m.VerifyTwoFactorPage)],
  [
    '/forgot-password',
    () => import('../features/auth/routes/forgot-password').then((m) => m.ForgotPasswordPage),
  ],
  [
    '/reset-password',
    () => import('../features/auth/routes/reset-password').then((m) => m.ResetPasswordPage),
  ],
  ['/register', () => import('../features/auth/routes/register').then((m) => m.RegisterPage)],
  ['/verify-email', () => import('../features/auth/routes/verify-email').then((m) => m.VerifyEmailPage)],
  [
    '/preview-file/:token',
    () => import('../features/file/routes/public-preview').then((m) => m.PublicPreviewPage),
  ],
];

/**
 * Pages that load without the app's query client (TanStack Query): the sign-in page, the first
 * load of most visits, whose JavaScript has a budget (build/budget.ts).
 */
const WITHOUT_QUERIES = new Set(['/login']);

/** Pages inside the signed-in frame (guard, navigation, session check). */
const SIGNED_IN_PAGES: Pages = [
  ['/dashboard', () => import('./routes/dashboard').then((m) => m.Dashboard)],
  ['/search', () => import('./routes/search').then((m) => m.Search)],
  ['/admin/audit', () => import('../features/audit/routes/audit-trail').then((m) => m.AuditTrailPage)],
  ['/profile', () => import('../features/auth/routes/profile').then((m) => m.ProfilePage)],
  [
    '/admin/dashboard',
    () => import('../features/user/routes/admin-dashboard').then((m) => m.AdminDashboardPage),
  ],
  ['/admin/users', () => import('../features/user/routes/users').then((m) => m.UsersPage)],
  [
    '/admin/users/import',
    () => import('../features/user/routes/import-users').then((m) => m.ImportUsersPage),
  ],
  [
    '/admin/logged-in-users',
    () => import('../features/user/routes/logged-in-users').then((m) => m.LoggedInUsersPage),
  ],
  ['/admin/groups', () => import('../features/group/routes/groups').then((m) => m.GroupsPage)],
  ['/admin/email', () => import('../features/email/routes/email').then((m) => m.EmailPage)],
  [
    '/admin/sign-in-security',
    () => import('../features/auth/routes/sign-in-security').then((m) => m.SignInSecurityPage),
  ],
  [
    '/admin/client-errors',
    () => import('../features/auth/routes/client-errors').then((m) => m.ClientErrorsPage),
  ],
  ['/admin/workflows', () => import('../features/workflow/routes/workflows').then((m) => m.WorkflowsPage)],
  [
    '/admin/workflows/:id',
    () => import('../features/workflow/routes/workflow-designer').then((m) => m.WorkflowDesignerPage),
  ],
  ['/assigned', () => import('../features/workflow/routes/assigned').then((m) => m.AssignedPage)],
  ['/admin/assigned', () => import('../features/workflow/routes/assigned').then((m) => m.AssignedPage)],
  ['/admin/backups', () => import('../features/backup/routes/backups').then((m) => m.BackupsPage)],
  [
    '/admin/authentication',
    () => import('../features/settings/routes/authentication').then((m) => m.AuthenticationPage),
  ],
  ['/categories', () => import('../features/category/routes/category-home').then((m) => m.CategoriesPage)],
  [
    '/admin/category',
    () => import('../features/category/routes/category-home').then((m) => m.CategoriesPage),
  ],
  [
    '/unindexed-files',
    () => import('../features/file/routes/unindexed-files').then((m) => m.UnindexedFilesPage),
  ],
  [
    '/files/checked-out',
    () => import('../features/file/routes/personal-lists').then((m) => m.CheckedOutPage),
  ],
  ['/files/favourites', () => import('../features/file/routes/personal-lists').then((m) => m.FavouritesPage)],
  [
    '/files/my-deleted',
    () => import('../features/trash/routes/my-deleted-files').then((m) => m.MyDeletedFilesPage),
  ],
  [
    '/notifications',
    () => import('../features/notification/routes/notifications').then((m) => m.NotificationsPage),
  ],
  [
    '/files/category/:id',
    () => import('../features/file/routes/category-files').then((m) => m.CategoryFilesPage),
  ],
  ['/files/upload/:id', () => import('../features/file/routes/upload').then((m) => m.UploadPage)],
  ['/files/:id', () => import('./routes/file-detail').then((m) => m.FileDetailPage)],
  ['/admin/trash', () => import('../features/trash/routes/trash').then((m) => m.TrashPage)],
  ['/admin/intake', () => import('../features/intake/routes/intake').then((m) => m.IntakePage)],
  [
    '/admin/retention',
    () => import('../features/retention/routes/retention-rules').then((m) => m.RetentionRulesPage),
  ],
  [
    '/admin/retention/holds',
    () => import('../features/retention/routes/legal-holds').then((m) => m.LegalHoldsPage),
  ],
  [
    '/admin/retention/dispositions',
    () => import('../features/retention/routes/dispositions').then((m) => m.DispositionsPage),
  ],
  [
    '/admin/category/:id',
    () => import('../features/category/routes/category-settings').then((m) => m.CategorySettingsPage),
  ],
  [
    '/admin/category-groups',
    () => import('../features/category/routes/category-groups').then((m) => m.CategoryGroupsPage),
  ],
  [
    '/admin/metadata-fields',
    () => import('../features/metadata/routes/metadata-fields').then((m) => m.MetadataFieldsPage),
  ],
  [
    '/admin/value-lists',
    () => import('../features/value-list/routes/value-lists').then((m) => m.ValueListsPage),
  ],
  [
    '/admin/value-lists/import',
    () => import('../features/value-list/routes/import-value-list').then((m) => m.ImportValueListPage),
  ],
  [
    '/admin/value-lists/:id',
    () => import('../features/value-list/routes/value-list').then((m) => m.ValueListPage),
  ],
  [
    '/admin/value-lists/:id/import',
    () => import('../features/value-list/routes/import-value-list').then((m) => m.ImportValueListPage),
  ],
  [
    '/admin/company-setup',
    () => import('../features/setup/routes/company-setup').then((m) => m.CompanySetupPage),
  ],
  [
    '/admin/license-management',
    () => import('../features/licence/routes/license-management').then((m) => m.LicenseManagementPage),
  ],
];

/**
 * The routes. Every page is its own chunk, loaded when it is first opened (with a loading
 * indicator while it loads, and a notice if it fails to arrive): the public pages (sign-in,
 * 2FA, reset, registration) load without the signed-in area, and each signed-in page loads
 * inside the signed-in frame, itself a chunk of its own.
 */
export function createRoutes(notify: Notifier): RouteObject[] {
  const routes = (pages: Pages): RouteObject[] =>
    pages.map(([path, load]) => ({
      path,
      ...lazyPage(notify, load, { queries: !WITHOUT_QUERIES.has(path) }),
    }));
  return [
    {
      element: <Root />,
      children: [
        ...routes(PUBLIC_PAGES),
        {
          ...lazyPage(notify, () => import('./signed-in-layout').then((m) => m.SignedInLayout)),
          children: routes(SIGNED_IN_PAGES),
        },
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ];
}

/**
 * The app's routes, for a `<BrowserRouter>` (or a `<MemoryRouter>` in tests). Declarative
 * routing rather than a data router: the pages load their data with TanStack Query, and the
 * data router's extra weight (16.5 kB gzip, see lazy-page.tsx) would sit in the first chunk.
 */
export function AppRoutes({ routes }: { routes: RouteObject[] }) {
  return useRoutes(routes);
}
