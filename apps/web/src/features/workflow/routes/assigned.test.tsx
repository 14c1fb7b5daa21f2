import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { onePage } from '../../../testing/fixtures';
import { type MockRoutes, refusedAt, signedInApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';
import { aStage } from '../testing/fixtures';

const TASK = {
  task_id: 501,
  file_id: 9,
  file_name: 'invoice-9.pdf',
  category: { id: 5, name: 'Finance' },
  instance_id: 70,
  workflow: { id: 1, name: 'Invoices' },
  step: { id: 12, name: 'Sign' },
  assigned_at: '2025-05-01T11:00:00Z',
  due_at: '2025-05-02T11:00:00Z',
  overdue: true,
  started_by: 'Owen Owner',
};

function server(routes: MockRoutes = {}) {
  return signedInApi('user', 'General staff', {
    'GET /api/assigned-files': {
      body: { data: onePage([TASK]) },
    },
    'GET /api/folder-workflow-stage/9': { body: { data: aStage() } },
    ...routes,
  });
}

describe('assigned to me', () => {
  it('lists the files waiting on me, overdue ones marked', async () => {
    server();
    renderApp('/assigned');
    const row = await screen.findByRole('row', { name: /invoice-9\.pdf/ }, { timeout: 5_000 });
    expect(row).toHaveTextContent('Invoices');
    expect(row).toHaveTextContent('Sign');
    expect(row).toHaveTextContent('Overdue');
    expect(within(row).getByRole('link', { name: /invoice-9\.pdf/ })).toHaveAttribute('href', '/files/9');
  });

  it("approves with the step's form filled in", async () => {
    const { calls } = server({
      'POST /api/manual-triger': {
        body: { data: aStage({ run: { ...aStage().run!, status: 'completed', current_step: null } }) },
      },
    });
    const { user, notifications } = renderApp('/assigned');
    await user.click(
      await screen.findByRole('button', { name: 'Approve invoice-9.pdf' }, { timeout: 5_000 }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Approve Sign' });
    await user.type(within(dialog).getByLabelText('Signed amount'), '480');
    await user.type(within(dialog).getByLabelText(/Comment/), 'Signed');
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(notifications.current()).toMatchObject({ title: 'Step approved' }));
    expect(calls.find((c) => c.path === '/api/manual-triger')?.body).toEqual({
      file_id: 9,
      workflow_step_id: 12,
      action: 'approve',
      comment: 'Signed',
      values: [{ field_id: 41, value: 480 }],
    });
  });

  it('needs a reason to reject, and shows a refusal beside its field', async () => {
    const { calls } = server({
      'POST /api/manual-triger': refusedAt('body.values.0.value', 'Signed amount: Enter a number', {
        message: 'Signed amount is required',
      }),
    });
    const { user, notifications } = renderApp('/assigned');
    await user.click(await screen.findByRole('button', { name: 'Reject invoice-9.pdf' }, { timeout: 5_000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject Sign' });
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(within(dialog).getByText('Say why you reject it')).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/api/manual-triger')).toBe(false);
    await user.type(within(dialog).getByLabelText(/Comment/), 'Wrong total');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await within(dialog).findByText('Signed amount: Enter a number')).toBeInTheDocument();
    expect(notifications.current()).toMatchObject({ title: 'Failed to reject step!' });
  });

  it('says when nothing waits', async () => {
    server({
      'GET /api/assigned-files': {
        body: { data: onePage([]) },
      },
    });
    renderApp('/assigned');
    expect(
      await screen.findByRole('heading', { name: 'Nothing waits on you' }, { timeout: 5_000 }),
    ).toBeInTheDocument();
  });
});
