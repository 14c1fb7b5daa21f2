import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { NotificationArea } from '../components/notifications/notification-area';
import { NotificationProvider } from '../components/notifications/notification-context';
import type { NotificationStore } from '../components/notifications/notification-store';

type Router = Parameters<typeof RouterProvider>[0]['router'];

/** The global notification area sits above the router (spec §2). */
export function App({
  router,
  queryClient,
  notifications,
}: {
  router: Router;
  queryClient: QueryClient;
  notifications: NotificationStore;
}) {
  return (
    <QueryClientProvider client={queryClient}>
      <NotificationProvider store={notifications}>
        <NotificationArea />
        <RouterProvider router={router} />
      </NotificationProvider>
    </QueryClientProvider>
  );
}
