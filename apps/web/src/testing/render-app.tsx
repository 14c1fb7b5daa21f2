import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter } from 'react-router';
import { App } from '../app/app';
import { createRoutes } from '../app/router';
import { createNotificationStore } from '../components/notifications/notification-store';

/** The whole app (notification area, router, lazily loaded main area) at `path`. */
export function renderApp(path: string, state?: unknown) {
  const notifications = createNotificationStore();
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const router = createMemoryRouter(createRoutes(notifications), {
    initialEntries: [state === undefined ? path : { pathname: path, state }],
  });
  const user = userEvent.setup();
  render(<App router={router} queryClient={queryClient} notifications={notifications} />);
  const location = () => `${router.state.location.pathname}${router.state.location.search}`;
  return { router, notifications, queryClient, user, location };
}
