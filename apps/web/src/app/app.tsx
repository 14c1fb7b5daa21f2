import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { NotificationArea } from '../components/notifications/notification-area';
import { NotificationProvider } from '../components/notifications/notification-context';
import type { NotificationStore } from '../components/notifications/notification-store';

/** The global notification area sits above the router (spec §2); `children` is the router. */
export function App({
  queryClient,
  notifications,
  children,
}: {
  queryClient: QueryClient;
  notifications: NotificationStore;
  children: ReactNode;
}) {
  return (
    <QueryClientProvider client={queryClient}>
      <NotificationProvider store={notifications}>
        <NotificationArea />
        {children}
      </NotificationProvider>
    </QueryClientProvider>
  );
}
