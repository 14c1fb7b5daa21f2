import { type ComponentType, lazy, Suspense, useEffect } from 'react';
import { matchRoutes, Outlet, type RouteObject, useLocation, useRoutes } from 'react-router';
import { useNotify } from '../components/notifications/notification-context';
import type { Notifier } from '../components/notifications/notification-store';
import { PageLoader } from '../components/page-loader';
import { listenForChunkErrors, reportingImport } from './chunk-errors';
import { ErrorBoundary } from './error-page';
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
      <Suspense fallback={<PageLoader />}>
        <Outlet />
      </Suspense>
    </ErrorBoundary>
  );
}

/**
 * The routes. Every page is its own chunk, loaded when it is first opened (with a loading
 * indicator while it loads, and a notice if it fails to arrive): the public pages (sign-in,
 * 2FA, reset, registration) load without the signed-in area, and each signed-in page loads
 * inside the signed-in frame, itself a chunk of its own.
 */
interface RouteHandle {
  preload: () => Promise<unknown>;
}
type RouteParts = Pick<RouteObject, 'element' | 'handle'>;

/** A thenable that answers at once: React.lazy then renders without suspending. */
function syncThenable<T>(value: T): PromiseLike<T> {
  // biome-ignore lint/suspicious/noThenProperty: a synchronous thenable on purpose (see above)
  return { then: (resolve) => (resolve ? resolve(value) : value) as never };
}

/**
 * Loads the chunks of the page at `pathname` (and of its frame), so that the first render
 * shows the page itself rather than a loading indicator first.
 */
export async function preloadRoute(routes: RouteObject[], pathname: string): Promise<void> {
  const matches = matchRoutes(routes, pathname) ?? [];
  await Promise.all(
    matches.map((m) => (m.route.handle as RouteHandle | undefined)?.preload().catch(() => undefined)),
  );
}

export function createRoutes(notify: Notifier): RouteObject[] {
  /** `<Page />` for a route module's named export, imported when first rendered (or preloaded). */
  const page = <M,>(load: () => Promise<M>, pick: (module: M) => ComponentType): RouteParts => {
    let loaded: ComponentType | undefined;
    const importPage = reportingImport(notify, () =>
      load().then((module) => {
        loaded = pick(module);
        return { default: loaded };
      }),
    );
    // Once loaded, the page renders at once (a thenable that answers synchronously), with no
    // loading indicator in between.
    const Page = lazy(() =>
      loaded ? (syncThenable({ default: loaded }) as Promise<{ default: ComponentType }>) : importPage(),
    );
    return { element: <Page />, handle: { preload: importPage } satisfies RouteHandle };
  };

  return [
    {
      element: <Root />,
      children: [
        // Public pages.
        {
          path: '/',
          ...page(
            () => import('../features/landing/routes/home'),
            (m) => m.HomePage,
          ),
        },
        {
          path: '/login',
          ...page(
            () => import('../features/auth/routes/login'),
            (m) => m.LoginPage,
          ),
        },
        {
          path: '/auth/setup-2fa',
          ...page(
            () => import('../features/auth/routes/setup-2fa'),
            (m) => m.SetupTwoFactorPage,
          ),
        },
        {
          path: '/auth/verify-2fa',
          ...page(
            () => import('../features/auth/routes/verify-2fa'),
            (m) => m.VerifyTwoFactorPage,
          ),
        },
        {
          path: '/forgot-password',
          ...page(
            () => import('../features/auth/routes/forgot-password'),
            (m) => m.ForgotPasswordPage,
          ),
        },
        {
          path: '/reset-password',
          ...page(
            () => import('../features/auth/routes/reset-password'),
            (m) => m.ResetPasswordPage,
          ),
        },
        {
          path: '/register',
          ...page(
            () => import('../features/auth/routes/register'),
            (m) => m.RegisterPage,
          ),
        },
        {
          path: '/verify-email',
          ...page(
            () => import('../features/auth/routes/verify-email'),
            (m) => m.VerifyEmailPage,
          ),
        },
        {
          path: '/preview-file/:token',
          ...page(
            () => import('../features/files/routes/public-preview'),
            (m) => m.PublicPreviewPage,
          ),
        },
        // The signed-in area: its frame (guard, navigation, session check), then each page.
        {
          ...page(
            () => import('./signed-in-layout'),
            (m) => m.SignedInLayout,
          ),
          children: [
            {
              path: '/dashboard',
              ...page(
                () => import('./routes/dashboard'),
                (m) => m.Dashboard,
              ),
            },
            {
              path: '/search',
              ...page(
                () => import('./routes/search'),
                (m) => m.Search,
              ),
            },
            {
              path: '/admin/audit',
              ...page(
                () => import('../features/audit/routes/audit-trail'),
                (m) => m.AuditTrailPage,
              ),
            },
            {
              path: '/profile',
              ...page(
                () => import('../features/auth/routes/profile'),
                (m) => m.ProfilePage,
              ),
            },
            {
              path: '/admin/dashboard',
              ...page(
                () => import('../features/user/routes/admin-dashboard'),
                (m) => m.AdminDashboardPage,
              ),
            },
            {
              path: '/admin/users',
              ...page(
                () => import('../features/user/routes/users'),
                (m) => m.UsersPage,
              ),
            },
            {
              path: '/admin/users/import',
              ...page(
                () => import('../features/user/routes/import-users'),
                (m) => m.ImportUsersPage,
              ),
            },
            {
              path: '/admin/logged-in-users',
              ...page(
                () => import('../features/user/routes/logged-in-users'),
                (m) => m.LoggedInUsersPage,
              ),
            },
            {
              path: '/admin/groups',
              ...page(
                () => import('../features/group/routes/groups'),
                (m) => m.GroupsPage,
              ),
            },
            {
              path: '/admin/email',
              ...page(
                () => import('../features/email/routes/email'),
                (m) => m.EmailPage,
              ),
            },
            {
              path: '/admin/sign-in-security',
              ...page(
                () => import('../features/auth/routes/sign-in-security'),
                (m) => m.SignInSecurityPage,
              ),
            },
            {
              path: '/admin/client-errors',
              ...page(
                () => import('../features/auth/routes/client-errors'),
                (m) => m.ClientErrorsPage,
              ),
            },
            {
              path: '/admin/workflows',
              ...page(
                () => import('../features/workflow/routes/workflows'),
                (m) => m.WorkflowsPage,
              ),
            },
            {
              path: '/admin/workflows/:id',
              ...page(
                () => import('../features/workflow/routes/workflow-designer'),
                (m) => m.WorkflowDesignerPage,
              ),
            },
            {
              path: '/assigned',
              ...page(
                () => import('../features/workflow/routes/assigned'),
                (m) => m.AssignedPage,
              ),
            },
            {
              path: '/admin/assigned',
              ...page(
                () => import('../features/workflow/routes/assigned'),
                (m) => m.AssignedPage,
              ),
            },
            {
              path: '/admin/backups',
              ...page(
                () => import('../features/backup/routes/backups'),
                (m) => m.BackupsPage,
              ),
            },
            {
              path: '/admin/authentication',
              ...page(
                () => import('../features/settings/routes/authentication'),
                (m) => m.AuthenticationPage,
              ),
            },
            {
              path: '/categories',
              ...page(
                () => import('../features/category/routes/category-home'),
                (m) => m.CategoriesPage,
              ),
            },
            {
              path: '/admin/category',
              ...page(
                () => import('../features/category/routes/category-home'),
                (m) => m.CategoriesPage,
              ),
            },
            {
              path: '/unindexed-files',
              ...page(
                () => import('../features/files/routes/unindexed-files'),
                (m) => m.UnindexedFilesPage,
              ),
            },
            {
              path: '/files/checked-out',
              ...page(
                () => import('../features/files/routes/personal-lists'),
                (m) => m.CheckedOutPage,
              ),
            },
            {
              path: '/files/favourites',
              ...page(
                () => import('../features/files/routes/personal-lists'),
                (m) => m.FavouritesPage,
              ),
            },
            {
              path: '/files/my-deleted',
              ...page(
                () => import('../features/trash/routes/my-deleted-files'),
                (m) => m.MyDeletedFilesPage,
              ),
            },
            {
              path: '/notifications',
              ...page(
                () => import('../features/notification/routes/notifications'),
                (m) => m.NotificationsPage,
              ),
            },
            {
              path: '/files/category/:id',
              ...page(
                () => import('../features/files/routes/category-files'),
                (m) => m.CategoryFilesPage,
              ),
            },
            {
              path: '/files/upload/:id',
              ...page(
                () => import('../features/files/routes/upload'),
                (m) => m.UploadPage,
              ),
            },
            {
              path: '/files/:id',
              ...page(
                () => import('./routes/file-detail'),
                (m) => m.FileDetailPage,
              ),
            },
            {
              path: '/admin/trash',
              ...page(
                () => import('../features/trash/routes/trash'),
                (m) => m.TrashPage,
              ),
            },
            {
              path: '/admin/category/:id',
              ...page(
                () => import('../features/category/routes/category-settings'),
                (m) => m.CategorySettingsPage,
              ),
            },
            {
              path: '/admin/category-groups',
              ...page(
                () => import('../features/category/routes/category-groups'),
                (m) => m.CategoryGroupsPage,
              ),
            },
            {
              path: '/admin/metadata-fields',
              ...page(
                () => import('../features/metadata/routes/metadata-fields'),
                (m) => m.MetadataFieldsPage,
              ),
            },
            {
              path: '/admin/value-lists',
              ...page(
                () => import('../features/value-list/routes/value-lists'),
                (m) => m.ValueListsPage,
              ),
            },
            {
              path: '/admin/value-lists/import',
              ...page(
                () => import('../features/value-list/routes/import-value-list'),
                (m) => m.ImportValueListPage,
              ),
            },
            {
              path: '/admin/value-lists/:id',
              ...page(
                () => import('../features/value-list/routes/value-list'),
                (m) => m.ValueListPage,
              ),
            },
            {
              path: '/admin/value-lists/:id/import',
              ...page(
                () => import('../features/value-list/routes/import-value-list'),
                (m) => m.ImportValueListPage,
              ),
            },
            {
              path: '/admin/company-setup',
              ...page(
                () => import('../features/setup/routes/company-setup'),
                (m) => m.CompanySetupPage,
              ),
            },
            {
              path: '/admin/license-management',
              ...page(
                () => import('../features/licence/routes/license-management'),
                (m) => m.LicenseManagementPage,
              ),
            },
          ],
        },
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ];
}

/**
 * The app's routes, for a `<BrowserRouter>` (or a `<MemoryRouter>` in tests). Declarative
 * routing rather than a data router: the pages load their data with TanStack Query, and the
 * data router's extra weight (about 16 kB gzip) would sit in the first chunk.
 */
export function AppRoutes({ routes }: { routes: RouteObject[] }) {
  return useRoutes(routes);
}
