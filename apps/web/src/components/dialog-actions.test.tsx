import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { DialogActions } from './dialog-actions';

describe('a dialog footer', () => {
  it('cancels with Cancel and submits its form with the labelled button', async () => {
    const onCancel = vi.fn();
    const onSubmit = vi.fn((e: React.FormEvent) => e.preventDefault());
    render(
      <form onSubmit={onSubmit}>
        <DialogActions onCancel={onCancel} pending={false} pendingLabel="Saving…">
          Save
        </DialogActions>
      </form>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledOnce();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).toHaveBeenCalledOnce();
  });

  it('while pending, says so on the submit button and lets neither button be pressed', () => {
    render(
      <DialogActions onCancel={() => {}} pending pendingLabel="Saving…">
        Save
      </DialogActions>,
    );
    expect(screen.getByRole('button', { name: 'Saving…' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeDisabled();
  });

  it('shows no Cancel without onCancel, and a disabled submit leaves Cancel usable', () => {
    const { rerender } = render(
      <DialogActions pending={false} pendingLabel="Starting…">
        Start
      </DialogActions>,
    );
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
    rerender(
      <DialogActions onCancel={() => {}} pending={false} pendingLabel="Starting…" disabled>
        Start
      </DialogActions>,
    );
    expect(screen.getByRole('button', { name: 'Start' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeEnabled();
  });
});
