import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeMutation, renderWithNotifications } from '../testing/notifications';
import { ConfirmMutationDialog } from './confirm-mutation-dialog';

type Answer = { removed: number };

function renderDialog(outcome: Answer | Error, closeOnFailure = false, quiet = false) {
  const onClose = vi.fn();
  const onDone = vi.fn();
  const mutation = fakeMutation<string, Answer>(outcome);
  const { store } = renderWithNotifications(
    <ConfirmMutationDialog
      title="Remove the directory?"
      confirmLabel="Remove"
      tone="danger"
      mutation={mutation}
      value="ldap"
      success={quiet ? undefined : ['Directory removed', 'Its accounts stay']}
      failure="Failed to remove directory!"
      closeOnFailure={closeOnFailure}
      onDone={onDone}
      onClose={onClose}
    >
      <p>Its accounts stay.</p>
    </ConfirmMutationDialog>,
  );
  return { store, onClose, onDone, mutation };
}

describe('an action after a confirmation', () => {
  it('runs with the value, toasts the success, hands on the answer and closes', async () => {
    const { store, onClose, onDone, mutation } = renderDialog({ removed: 3 });
    expect(screen.getByRole('dialog', { name: 'Remove the directory?' })).toHaveTextContent(
      'Its accounts stay.',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Remove' }));
    expect(mutation.mutate).toHaveBeenCalledWith('ldap', expect.anything());
    await waitFor(() =>
      expect(store.current()).toMatchObject({
        kind: 'success',
        title: 'Directory removed',
        message: 'Its accounts stay',
      }),
    );
    expect(onDone).toHaveBeenCalledWith({ removed: 3 });
    expect(onClose).toHaveBeenCalledOnce();
  });

  it('toasts a failure and stays open, so it can be tried again', async () => {
    const { store, onClose, onDone } = renderDialog(new Error('Database down'));
    await userEvent.click(screen.getByRole('button', { name: 'Remove' }));
    await waitFor(() =>
      expect(store.current()).toMatchObject({ kind: 'error', title: 'Failed to remove directory!' }),
    );
    expect(onDone).not.toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('toasts no success without one', async () => {
    const { store, onClose, onDone } = renderDialog({ removed: 3 }, false, true);
    await userEvent.click(screen.getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledOnce());
    expect(onDone).toHaveBeenCalledWith({ removed: 3 });
    expect(store.current()).toBeNull();
  });

  it('closes on a failure when asked to', async () => {
    const { onClose } = renderDialog(new Error('Database down'), true);
    await userEvent.click(screen.getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledOnce());
  });
});
