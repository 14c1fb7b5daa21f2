import { ConfirmMutationDialog } from '../../../components/confirm-mutation-dialog';
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
  return (
    <ConfirmMutationDialog
      title="Clear all notifications?"
      confirmLabel="Clear all"
      pendingLabel="Clearing…"
      tone="danger"
      mutation={useClearNotifications()}
      value={undefined}
      failure="Failed to clear notifications!"
      onDone={({ data }) => onCleared?.(data.cleared)}
      onClose={onClose}
    >
      Every notification is removed, read or not. This cannot be undone.
    </ConfirmMutationDialog>
  );
}
