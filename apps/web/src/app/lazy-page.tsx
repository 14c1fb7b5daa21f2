import { QueryClientContext } from '@tanstack/react-query';
import { type ComponentType, lazy } from 'react';
import { matchRoutes, type RouteObject } from 'react-router';
import type { Notifier } from '../components/notifications/notification-store';
import { loadedQueryClient, loadQueryClient } from '../lib/query-client-store';
import { reportingImport } from './chunk-errors';

// Hand-written lazy pages, rather than react-router's own `lazy` route property: that property
// works in data mode only (createBrowserRouter + RouterProvider), which puts the data router in
// the first chunk. Measured on this app (`vite build`, 26 Nov 2026): /login's first load went
// from 106.3 kB to 122.8 kB gzip, over its 108 kB budget (build/budget.ts). Declarative routing
// (`useRoutes`) ignores `lazy`, so React.lazy does the loading here.

interface RouteHandle {
  preload: () => Promise<unknown>;
}

/** A thenable that answers at once: React.lazy then renders without suspending. */
function syncThenable<T>(value: T): PromiseLike<T> {
  // biome-ignore lint/suspicious/noThenProperty: a synchronous thenable on purpose (see above)
  return { then: (resolve) => (resolve ? resolve(value) : value) as never };
}

const wrapped = new WeakMap<ComponentType, ComponentType>();

/** `Page` inside the app's query client (loaded by then: see `lazyPage`); one wrapper per page. */
function withQueries(Page: ComponentType): ComponentType {
  let PageWithQueries = wrapped.get(Page);
  if (!PageWithQueries) {
    PageWithQueries = function PageWithQueries() {
      return (
        <QueryClientContext.Provider value={loadedQueryClient()}>
          <Page />
        </QueryClientContext.Provider>
      );
    };
    wrapped.set(Page, PageWithQueries);
  }
  return PageWithQueries;
}

/**
 * A route's `element` for a page loaded when first rendered (or preloaded), and its `handle`
 * for `preloadRoute`. A chunk that fails to arrive is reported to the notification area.
 * The page's chunk and the app's query client load together, and the page renders inside
 * that client; `queries: false` (the sign-in page) loads the page alone.
 */
export function lazyPage(
  notify: Notifier,
  load: () => Promise<ComponentType>,
  { queries = true }: { queries?: boolean } = {},
): Pick<RouteObject, 'element' | 'handle'> {
  let loaded: ComponentType | undefined;
  const importPage = reportingImport(notify, () =>
    (queries ? Promise.all([load(), loadQueryClient()]).then(([page]) => withQueries(page)) : load()).then(
      (page) => {
        loaded = page;
        return { default: page };
      },
    ),
  );
  // Once loaded, the page renders at once (a thenable that answers synchronously), with no
  // loading indicator in between.
  const Page = lazy(() =>
    loaded ? (syncThenable({ default: loaded }) as Promise<{ default: ComponentType }>) : importPage(),
  );
  return { element: <Page />, handle: { preload: importPage } satisfies RouteHandle };
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
