import { useEffect, useEffectEvent } from 'react';
import { useNotify } from '../components/notifications/notification-context';

/** An error toast titled `title` each time a query fails (a cancelled one stays silent). */
export function useFailureToast(error: unknown, errorUpdatedAt: number, title: string) {
  const notify = useNotify();
  const raise = useEffectEvent((e: unknown) => notify.notifyFailure(title, e));
  useEffect(() => {
    if (error && errorUpdatedAt) raise(error);
  }, [error, errorUpdatedAt]);
}
