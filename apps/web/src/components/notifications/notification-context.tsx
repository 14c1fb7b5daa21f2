import { createContext, type ReactNode, useContext } from 'react';
import type { NotificationStore, Notifier } from './notification-store';

const NotificationContext = createContext<NotificationStore | null>(null);

export function NotificationProvider({ store, children }: { store: NotificationStore; children: ReactNode }) {
  return <NotificationContext value={store}>{children}</NotificationContext>;
}

export function useNotificationStore(): NotificationStore {
  const store = useContext(NotificationContext);
  if (!store) throw new Error('useNotify() needs a <NotificationProvider> above it');
  return store;
}

/** `success/warning/error/info(title, message?)` and `notifyFailure(title, error)`. */
export function useNotify(): Notifier {
  return useNotificationStore();
}
