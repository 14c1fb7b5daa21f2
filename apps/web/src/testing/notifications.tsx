import { render } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { vi } from 'vitest';
import { NotificationProvider } from '../components/notifications/notification-context';
import {
  createNotificationStore,
  type NotificationStore,
} from '../components/notifications/notification-store';

// For tests of one piece that toasts, without the whole app: its own notification store,
// and a mutation that answers as the test says.

/** `ui` rendered inside a notification provider of its own; `store` holds what it toasted. */
export function renderWithNotifications(ui: ReactElement) {
  const store = createNotificationStore();
  const result = render(<NotificationProvider store={store}>{ui}</NotificationProvider>);
  return { store, ...result };
}

/** A `wrapper` for `renderHook` that provides `store`. */
export const notificationsWrapper =
  (store: NotificationStore) =>
  ({ children }: { children: ReactNode }) => (
    <NotificationProvider store={store}>{children}</NotificationProvider>
  );

/** A mutation as the shared pieces take it, answering every call with `outcome` (an Error: a failure). */
export function fakeMutation<V, R>(outcome: R | Error) {
  return {
    isPending: false,
    mutate: vi.fn((_value: V, o: { onSuccess: (result: R) => void; onError: (error: Error) => void }) =>
      outcome instanceof Error ? o.onError(outcome) : o.onSuccess(outcome),
    ),
  };
}
