import type { TFileWorkflowStage } from '@quire/contract';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { App } from '../../../app/app';
import { createNotificationStore } from '../../../components/notifications/notification-store';
import { createQueryClient } from '../../../lib/query-client';
import { aWorkflow, signIn } from '../../../testing/fixtures';
import { type MockRoutes, mockApi } from '../../../testing/mock-api';
import { aRun, aStage } from '../testing/fixtures';
import { positionAfterDrop } from './step-list';
import { WorkflowPanel } from './workflow-panel';

function renderPanel(stage: TFileWorkflowStage, routes: MockRoutes = {}) {
  signIn('admin', 'File Control Admin');
  const api = mockApi({ 'GET /api/folder-workflow-stage/9': { body: { data: stage } }, ...routes });
  const notifications = createNotificationStore();
  const queryClient = createQueryClient({ retry: false });
  render(
    <App queryClient={queryClient} notifications={notifications}>
      <MemoryRouter>
        <WorkflowPanel fileId={9} />
      </MemoryRouter>
    </App>,
  );
  return { ...api, notifications, user: userEvent.setup() };
}

describe('the workflow panel of a file', () => {
  it('shows the step, who must act, and the history newest first', async () => {
    renderPanel(aStage({ run: aRun({ overdue: true, due_at: '2025-05-02T10:00:00Z', can_act: false }) }));
    expect(await screen.findByText(/step 2 of 2/)).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Who must act' })).toHaveTextContent('Jane Doe waiting');
    expect(screen.getByText('Overdue')).toBeInTheDocument();
    const history = screen.getByRole('list', { name: 'Workflow history, newest first' });
    const items = within(history).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('Approved from Check to Sign');
    expect(items[0]).toHaveTextContent('“Fine”');
    expect(items[1]).toHaveTextContent('Started into Check');
    expect(screen.queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
  });

  it('lets File Control move a stuck file', async () => {
    const { user, calls, notifications } = renderPanel(
      aStage({ run: aRun({ can_act: false, can_move: true }) }),
      {
        'POST /api/manual-triger': {
          body: {
            data: aStage({
              run: aRun({
                current_step: { id: 11, name: 'Check', position: 1, completion: 'any', quorum: null },
              }),
            }),
          },
        },
      },
    );
    await user.click(await screen.findByRole('button', { name: 'Move or cancel' }));
    const dialog = screen.getByRole('dialog', { name: 'Move a stuck file' });
    await user.selectOptions(within(dialog).getByLabelText('Move to'), '11');
    await user.click(within(dialog).getByRole('button', { name: 'Move file' }));
    await waitFor(() => expect(notifications.current()).toMatchObject({ title: 'File moved' }));
    expect(calls.find((c) => c.path === '/api/manual-triger')?.body).toEqual({
      file_id: 9,
      workflow_step_id: 12,
      action: 'move',
      comment: '',
      to_step_id: 11,
    });
  });

  it('offers to start a workflow on a file that runs none', async () => {
    const { user, calls } = renderPanel(aStage({ run: null, history: [] }), {
      'GET /api/workflows': {
        body: {
          data: [aWorkflow({ id: 1, name: 'Invoices', updated_at: '2025-05-01T10:00:00Z' })],
        },
      },
      'POST /api/initiate-workflow': {
        status: 409,
        body: {
          message: '"invoice-9.pdf" cannot enter "Check": Amount is greater than 100 (it is 50).',
          code: 'workflow.conditions_fail',
        },
      },
    });
    expect(await screen.findByText('This file has not been through a workflow.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Start a workflow' }));
    const dialog = screen.getByRole('dialog', { name: 'Start a workflow' });
    await user.selectOptions(within(dialog).getByLabelText('Workflow'), '1');
    await user.click(within(dialog).getByRole('button', { name: 'Start' }));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/initiate-workflow')).toBe(true));
    expect(calls.find((c) => c.path === '/api/initiate-workflow')?.body).toEqual({
      workflow_id: 1,
      file_ids: [9],
    });
  });
});

describe('reordering steps by drag', () => {
  it('puts the dragged step before or after the one it is dropped on', () => {
    expect(positionAfterDrop([1, 2, 3, 4], 4, 2, 'before')).toBe(2);
    expect(positionAfterDrop([1, 2, 3, 4], 1, 3, 'after')).toBe(3);
    expect(positionAfterDrop([1, 2, 3, 4], 2, 4, 'after')).toBe(4);
    expect(positionAfterDrop([1, 2, 3, 4], 3, 1, 'before')).toBe(1);
  });
});
