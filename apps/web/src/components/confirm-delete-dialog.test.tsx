import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeMutation, renderWithNotifications } from '../testing/notifications';
import { ConfirmDeleteDialog } from './confirm-delete-dialog';

function renderDialog(outcome: 'ok' | Error) {
  const onClose = vi.fn();
  const remove = fakeMutation<number, unknown>(outcome === 'ok' ? null : outcome);
  const { store } = renderWithNotifications(
    <ConfirmDeleteDialog
      noun="trigger"
      remove={remove}
      value={12}
      detail="On entry"
      closeOnFailure
      onClose={onClose}
    >
      <p>When a file enters the step</p>
    </ConfirmDeleteDialog>,
  );
  return { store, onClose, remove };
}

function renderNamed(outcome: 'ok' | Error) {
  const onClose = vi.fn();
  const onDone = vi.fn();
  const remove = fakeMutation<number, unknown>(outcome === 'ok' ? null : outcome);
  const { store } = renderWithNotifications(
    <ConfirmDeleteDialog
      noun="value list"
      name="Statuses"
      remove={remove}
      value={7}
      onDone={onDone}
      onClose={onClose}
    >
      <p>The list and its 3 items go.</p>
    </ConfirmDeleteDialog>,
  );
  return { store, onClose, onDone, remove };
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

describe('deleting a named thing after a confirmation', () => {
  it('names it in the title, deletes it, says "<name> was deleted." and closes', async () => {
    const { store, onClose, onDone, remove } = renderNamed('ok');
    expect(screen.getByRole('dialog', { name: 'Delete the value list Statuses?' })).toHaveTextContent(
      'The list and its 3 items go.',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Delete value list' }));
    expect(remove.mutate).toHaveBeenCalledWith(7, expect.anything());
    await waitFor(() =>
      expect(store.current()).toMatchObject({
        kind: 'success',
        title: 'Value list deleted',
        message: 'Statuses was deleted.',
      }),
    );
    expect(onDone).toHaveBeenCalledOnce();
    expect(onClose).toHaveBeenCalledOnce();
  });

  it('toasts a failure and stays open, so the person can try again', async () => {
    const { store, onClose, onDone } = renderNamed(new Error('In use'));
    await userEvent.click(screen.getByRole('button', { name: 'Delete value list' }));
    await waitFor(() =>
      expect(store.current()).toMatchObject({ kind: 'error', title: 'Failed to delete value list!' }),
    );
    expect(onDone).not.toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: 'Delete the value list Statuses?' })).toBeInTheDocument();
  });
});
