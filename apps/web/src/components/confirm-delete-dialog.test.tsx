import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmDeleteDialog, type DeleteMutation } from './confirm-delete-dialog';
import { NotificationProvider } from './notifications/notification-context';
import { createNotificationStore } from './notifications/notification-store';

function renderDialog(outcome: 'ok' | Error) {
  const store = createNotificationStore();
  const onClose = vi.fn();
  const remove: DeleteMutation<number> & { mutate: ReturnType<typeof vi.fn> } = {
    isPending: false,
    mutate: vi.fn(
      (_value: number, options: { onSuccess: (result: unknown) => void; onError: (e: Error) => void }) =>
        outcome === 'ok' ? options.onSuccess(null) : options.onError(outcome),
    ),
  };
  render(
    <NotificationProvider store={store}>
      <ConfirmDeleteDialog noun="trigger" remove={remove} value={12} detail="On entry" onClose={onClose}>
        <p>When a file enters the step</p>
      </ConfirmDeleteDialog>
    </NotificationProvider>,
  );
  return { store, onClose, remove };
}

describe('deleting one row after a confirmation', () => {
  it('asks about the noun, deletes the value given, says so and closes', async () => {
    const { store, onClose, remove } = renderDialog('ok');
    expect(screen.getByRole('dialog', { name: 'Delete this trigger?' })).toHaveTextContent(
      'When a file enters the step',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Delete trigger' }));
    expect(remove.mutate).toHaveBeenCalledWith(12, expect.anything());
    await waitFor(() => expect(store.current()).toMatchObject({ kind: 'success', title: 'Trigger deleted' }));
    expect(store.current()?.message).toBe('On entry');
    expect(onClose).toHaveBeenCalledOnce();
  });

  it('toasts the failure in the spec words and closes too', async () => {
    const { store, onClose } = renderDialog(new Error('The step is gone'));
    await userEvent.click(screen.getByRole('button', { name: 'Delete trigger' }));
    await waitFor(() =>
      expect(store.current()).toMatchObject({ kind: 'error', title: 'Failed to delete trigger!' }),
    );
    expect(onClose).toHaveBeenCalledOnce();
  });

  it('Cancel deletes nothing', async () => {
    const { onClose, remove } = renderDialog('ok');
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(remove.mutate).not.toHaveBeenCalled();
    expect(onClose).toHaveBeenCalledOnce();
  });
});
