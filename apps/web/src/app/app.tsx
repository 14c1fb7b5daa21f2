import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { NotificationArea } from '../components/notifications/notification-area';
import { NotificationProvider } from '../components/notifications/notification-context';
import type { NotificationStore } from '../components/notifications/notification-store';

/**
 * The global notification area sits above the router (spec §2); `children` is the router.
 * Without `queryClient` (the browser, the build's prerender), each page gets the app's client
 * as it loads (app/lazy-page.tsx); tests give theirs here.
 */
export function App({
  queryClient,
  notifications,
  children,
}: {
  queryClient?: QueryClient;
  notifications: NotificationStore;
  children: ReactNode;
}) {
  const app = (
    <NotificationProvider store={notifications}>
      <NotificationArea />
      {children}
    </NotificationProvider>
  );
  return queryClient ? <QueryClientProvider client={queryClient}>{app}</QueryClientProvider> : app;
}
