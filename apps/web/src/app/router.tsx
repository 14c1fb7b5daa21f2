import { lazy, Suspense, useEffect } from 'react';
import { createBrowserRouter, Outlet, type RouteObject } from 'react-router';
import { useNotify } from '../components/notifications/notification-context';
import type { Notifier } from '../components/notifications/notification-store';
import { PageLoader } from '../components/page-loader';
import { listenForChunkErrors, reportingImport } from './chunk-errors';
import { ErrorPage } from './error-page';

function Root() {
  const notify = useNotify();
  useEffect(() => listenForChunkErrors(notify), [notify]);
  return <Outlet />;
}

/**
 * One data router around one lazily loaded main area, with a loading indicator while it
 * loads and the 'Unexpected Application Error!' page for anything thrown while rendering.
 */
export function createRoutes(notify: Notifier): RouteObject[] {
  const MainArea = lazy(reportingImport(notify, () => import('./main-area')));
  return [
    {
      element: <Root />,
      errorElement: <ErrorPage />,
      children: [
        {
          path: '*',
          element: (
            <Suspense fallback={<PageLoader />}>
              <MainArea />
            </Suspense>
          ),
        },
      ],
    },
  ];
}

export const createAppRouter = (notify: Notifier) => createBrowserRouter(createRoutes(notify));
