import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type Location, MemoryRouter, type NavigateFunction, useLocation, useNavigate } from 'react-router';
import { beforeAll } from 'vitest';
import { App } from '../app/app';
import { AppRoutes, createRoutes } from '../app/router';
import { createNotificationStore } from '../components/notifications/notification-store';
import { createQueryClient } from '../lib/query-client';
import { provideQueryClient } from '../lib/query-client-store';
import { preloadPages } from './preload-pages';

// Each page is a chunk of its own; compile them before a test's clock starts, so that the
// first findBy* of a file does not time out while Vite transforms the page.
beforeAll(preloadPages, 60_000);

interface Seen {
  location?: Location;
  navigate?: NavigateFunction;
}

/** Keeps the router's location and navigate where the test can read them. */
function Probe({ seen }: { seen: Seen }) {
  seen.location = useLocation();
  seen.navigate = useNavigate();
  return null;
}

/** The whole app (notification area, router, lazily loaded pages) at `path`. */
export function renderApp(
  path: string,
  state?: unknown,
  /** For a test on fake timers: how user-event lets time pass between keystrokes. */
  options: { advanceTimers?: (ms: number) => unknown } = {},
) {
  const notifications = createNotificationStore();
  const queryClient = createQueryClient({ retry: false });
  queryClient.setDefaultOptions({ queries: { retry: false, staleTime: 0 }, mutations: { retry: false } });
  // The pages get the app's client as they load (app/lazy-page.tsx): this test's one.
  provideQueryClient(queryClient);
  const seen: Seen = {};
  const user = userEvent.setup(options.advanceTimers ? { advanceTimers: options.advanceTimers } : {});
  render(
    <App queryClient={queryClient} notifications={notifications}>
      <MemoryRouter
        useTransitions={false}
        initialEntries={[state === undefined ? path : { pathname: path, state }]}
      >
        <Probe seen={seen} />
        <AppRoutes routes={createRoutes(notifications)} />
      </MemoryRouter>
    </App>,
  );
  const location = () => `${seen.location?.pathname ?? ''}${seen.location?.search ?? ''}`;
  /** Goes back or forward in the history, as the browser's buttons do. */
  const go = (delta: number) => seen.navigate?.(delta);
  /** The state the current location was reached with. */
  const locationState = () => seen.location?.state as unknown;
  return { notifications, queryClient, user, location, locationState, go };
}
