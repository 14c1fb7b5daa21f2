import type { AccessType } from '@quire/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { onePage } from '../../../testing/fixtures';
import { invalidInput, type MockRoutes, signedInApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';
import { aSummary, aWorkflow } from '../testing/fixtures';

function server(routes: MockRoutes = {}, as: AccessType = 'File Control Admin') {
  return signedInApi('admin', as, {
    'GET /api/workflow/index': {
      body: {
        data: onePage([
          aSummary(),
          aSummary({ id: 2, name: 'Contracts', status: 'active', running_count: 3, categories: [] }),
        ]),
      },
    },
    'GET /api/folders/workflow': {
      body: { data: [{ id: 5, name: 'Finance', parent_id: null, workflow: null }] },
    },
    ...routes,
  });
}

const heading = () => screen.findByRole('heading', { level: 1, name: 'Workflows' }, { timeout: 5_000 });

describe('the workflows page', () => {
  it('lists every workflow with its status, steps, categories and running files', async () => {
    server();
    renderApp('/admin/workflows');
    await heading();
    const row = await screen.findByRole('row', { name: /Invoices/ });
    expect(row).toHaveTextContent('Draft');
    expect(row).toHaveTextContent('Finance');
    expect(screen.getByRole('row', { name: /Contracts/ })).toHaveTextContent('Active');
    expect(within(row).getByRole('link', { name: /Invoices/ })).toHaveAttribute('href', '/admin/workflows/1');
  });

  it('creates a workflow for a category and opens its designer', async () => {
    const { calls } = server({
      'POST /api/create_and_update_workflow': {
        body: { data: aWorkflow({ id: 9, name: 'Leave requests', steps: [] }) },
      },
      'GET /api/view_workflow/9': { body: { data: aWorkflow({ id: 9, name: 'Leave requests', steps: [] }) } },
      'GET /api/get_recipient': { body: { data: { users: [], groups: [] } } },
    });
    const { user, location } = renderApp('/admin/workflows');
    await user.click(await screen.findByRole('button', { name: 'New workflow' }, { timeout: 5_000 }));
    const dialog = screen.getByRole('dialog', { name: 'New workflow' });
    await user.type(within(dialog).getByLabelText('Name'), 'Leave requests');
    await user.type(within(dialog).getByRole('combobox', { name: 'Categories it serves' }), 'fin');
    await user.keyboard('{ArrowDown}{Enter}{Escape}');
    await user.click(within(dialog).getByRole('button', { name: 'Create workflow' }));
    await waitFor(() => expect(location()).toBe('/admin/workflows/9'));
    expect(calls.find((c) => c.path === '/api/create_and_update_workflow')?.body).toEqual({
      name: 'Leave requests',
      description: '',
      status: 'draft',
      category_ids: [5],
    });
  });

  it('says "Failed to create/update workflow!" and shows the refusal at the field', async () => {
    server({
      'POST /api/create_and_update_workflow': invalidInput(
        'body.name',
        'A workflow with this name already exists',
        'A workflow named "Invoices" already exists',
      ),
    });
    const { user, notifications } = renderApp('/admin/workflows');
    await user.click(await screen.findByRole('button', { name: 'New workflow' }, { timeout: 5_000 }));
    const dialog = screen.getByRole('dialog', { name: 'New workflow' });
    await user.type(within(dialog).getByLabelText('Name'), 'Invoices');
    await user.click(within(dialog).getByRole('button', { name: 'Create workflow' }));
    expect(await within(dialog).findByText('A workflow with this name already exists')).toBeInTheDocument();
    expect(notifications.current()).toMatchObject({ title: 'Failed to create/update workflow!' });
  });

  it('tells how many files block a deletion', async () => {
    server({
      'DELETE /api/del_workflow/2': {
        status: 409,
        body: {
          message:
            '3 files are running through this workflow. Let them finish, or move them out, before deleting it.',
          code: 'workflow.in_use',
        },
      },
    });
    const { user, notifications } = renderApp('/admin/workflows');
    await user.click(await screen.findByRole('button', { name: 'Delete Contracts' }, { timeout: 5_000 }));
    await user.click(screen.getByRole('button', { name: 'Delete workflow' }));
    await waitFor(() =>
      expect(notifications.current()).toMatchObject({
        title: 'Failed to delete workflow!',
        message: expect.stringContaining('3 files are running through this workflow'),
      }),
    );
  });

  it('is read only for the Auditor', async () => {
    server({}, 'Auditor');
    renderApp('/admin/workflows');
    await heading();
    await screen.findByRole('row', { name: /Invoices/ });
    expect(screen.queryByRole('button', { name: 'New workflow' })).not.toBeInTheDocument();
    expect(screen.getByText('Read only')).toBeInTheDocument();
  });
});
