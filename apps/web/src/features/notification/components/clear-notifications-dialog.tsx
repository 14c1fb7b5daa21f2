import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useNotify } from '../../../components/notifications/notification-context';
import { useClearNotifications } from '../api/notifications';

/**
 * Asks before clearing every notification (the bell's and the page's Clear all), then clears
 * them: `onCleared` hears how many went and the dialog closes; a failure toasts.
 */
export function ClearNotificationsDialog({
  onClose,
  onCleared,
}: {
  onClose: () => void;
  onCleared?: (cleared: number) => void;
}) {
  const notify = useNotify();
  const clear = useClearNotifications();
  return (
    <ConfirmDialog
      title="Clear all notifications?"
      confirmLabel="Clear all"
      pendingLabel="Clearing…"
      tone="danger"
      pending={clear.isPending}
      onCancel={onClose}
      onConfirm={() =>
        clear.mutate(undefined, {
          onSuccess: ({ data }) => {
            onCleared?.(data.cleared);
            onClose();
          },
          onError: (error) => notify.notifyFailure('Failed to clear notifications!', error),
        })
      }
    >
      Every notification is removed, read or not. This cannot be undone.
    </ConfirmDialog>
  );
}
