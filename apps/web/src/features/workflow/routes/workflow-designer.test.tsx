import type { AccessType, TStep, TWorkflow } from '@quire/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type MockRoutes, refusedAt, signedInApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';
import { aStep, aWorkflow } from '../testing/fixtures';

function server(
  routes: MockRoutes = {},
  as: AccessType = 'File Control Admin',
  workflow: TWorkflow = aWorkflow(),
) {
  return signedInApi('admin', as, {
    'GET /api/view_workflow/1': { body: { data: workflow } },
    'GET /api/get_recipient': {
      body: {
        data: {
          users: [
            { id: 20, name: 'Alice Smith', username: 'asmith', email: 'a@x.test' },
            { id: 21, name: 'Bob Jones', username: 'bjones', email: 'b@x.test' },
          ],
          groups: [{ id: 8, name: 'Signers', member_count: 2 }],
        },
      },
    },
    'GET /api/folders/workflow': { body: { data: [] } },
    ...routes,
  });
}

const open = async () => {
  const rendered = renderApp('/admin/workflows/1');
  await screen.findByRole('heading', { level: 1, name: 'Invoices' }, { timeout: 5_000 });
  return rendered;
};

describe('the workflow designer', () => {
  it('shows the steps in order, the first one open, and draws where approvals and rejections lead', async () => {
    server();
    await open();
    const steps = screen.getByRole('grid', { name: 'Steps, in order' });
    expect(
      within(steps)
        .getAllByRole('row')
        .map((r) => r.textContent),
    ).toEqual([expect.stringContaining('Check'), expect.stringContaining('Sign')]);
    expect(screen.getByRole('heading', { level: 2, name: '1. Check' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: "The workflow's steps and routes" })).toBeInTheDocument();
    const routes = screen.getByText(/Check: approved, to Sign; rejected, to End\./);
    expect(routes).toBeInTheDocument();
    expect(screen.getByText(/Sign: approved, to End; rejected, to Check\./)).toBeInTheDocument();
  });

  it('moves a step down: the step is saved at its new position', async () => {
    const { calls } = server({
      'POST /api/create_update_workflow_step': {
        body: { data: aStep({ id: 11, name: 'Check', position: 2 }) },
      },
    });
    const { user, notifications } = await open();
    await user.click(screen.getByRole('button', { name: 'Move Check down' }));
    await waitFor(() =>
      expect(calls.find((c) => c.path === '/api/create_update_workflow_step')?.body).toEqual({
        id: 11,
        workflow_id: 1,
        name: 'Check',
        position: 2,
      }),
    );
    await waitFor(() => expect(notifications.current()).toMatchObject({ title: 'Step moved' }));
  });

  it('adds a step with its completion and routes; the toast says its assignees will be told', async () => {
    const { calls } = server({
      'POST /api/create_update_workflow_step': {
        body: {
          data: aStep({
            id: 13,
            name: 'Pay',
            position: 3,
            notifications: [
              {
                id: 400,
                step_id: 13,
                event: 'entered',
                recipient: 'assignees',
                user_id: null,
                group_id: null,
                recipient_name: null,
                in_app: true,
                email: true,
                subject: '',
                body: '',
              },
            ],
          }),
        },
      },
    });
    const { user, notifications } = await open();
    await user.click(screen.getByRole('button', { name: 'Add step' }));
    const form = screen.getByRole('region', { name: 'New step' });
    await user.type(within(form).getByLabelText('Name'), 'Pay');
    await user.type(within(form).getByLabelText(/Hours allowed/), '24');
    await user.selectOptions(within(form).getByLabelText('Completed when'), 'quorum');
    await user.type(within(form).getByLabelText('Approvals needed'), '2');
    await user.selectOptions(within(form).getByLabelText('When rejected, go to'), 'step');
    await user.selectOptions(within(form).getByLabelText('Step after rejection'), '11');
    await user.click(within(form).getByRole('button', { name: 'Add step' }));
    await waitFor(() =>
      expect(calls.find((c) => c.path === '/api/create_update_workflow_step')?.body).toMatchObject({
        workflow_id: 1,
        name: 'Pay',
        due_hours: 24,
        completion: 'quorum',
        quorum: 2,
        on_approve: 'next',
        on_reject: 'step',
        on_reject_step_id: 11,
      }),
    );
    await waitFor(() =>
      expect(notifications.current()).toMatchObject({
        title: 'Step added',
        message: 'Pay was added. Its assignees are told, in the app and by e-mail, when a file enters it.',
      }),
    );
  });

  it('sets a step\'s assignees, and says "Failed to update assignees!" when refused', async () => {
    const { calls } = server({
      'POST /api/update_assignee': refusedAt('body.user_ids', 'Unknown or inactive users: 21', {
        message: 'Unknown or inactive users: 21',
      }),
    });
    const { user, notifications } = await open();
    await user.click(screen.getByRole('tab', { name: /Assignees/ }));
    await user.type(screen.getByRole('combobox', { name: 'Users' }), 'bob');
    await user.keyboard('{ArrowDown}{Enter}{Escape}');
    await user.click(screen.getByRole('button', { name: 'Save assignees' }));
    await waitFor(() =>
      expect(notifications.current()).toMatchObject({ title: 'Failed to update assignees!' }),
    );
    expect(calls.find((c) => c.path === '/api/update_assignee')?.body).toEqual({
      workflow_step_id: 11,
      user_ids: [20, 21],
      group_ids: [],
    });
  });

  it('adds a PRE condition on a value-list field', async () => {
    const { calls } = server({
      'POST /api/update_condition': {
        body: {
          data: {
            id: 201,
            step_id: 11,
            mode: 'PRE',
            field_id: 32,
            field_name: 'Kind',
            field_type: 'select',
            on_workflow_field: false,
            operator: 'in_list',
            value: ['2'],
            join: 'or',
            position: 2,
          },
        },
      },
    });
    const { user, notifications } = await open();
    await user.click(screen.getByRole('tab', { name: /Conditions/ }));
    expect(screen.getByRole('list', { name: 'To enter the step (PRE)' })).toHaveTextContent(
      'Amount is greater than 100',
    );
    await user.click(screen.getByRole('button', { name: 'Add condition to enter' }));
    const dialog = screen.getByRole('dialog', { name: 'New condition to enter' });
    await user.selectOptions(within(dialog).getByLabelText('Field'), '32');
    await user.selectOptions(within(dialog).getByLabelText('Comparison'), 'in_list');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Receipt' }));
    await user.selectOptions(within(dialog).getByLabelText(/Joined to the condition before/), 'or');
    await user.click(within(dialog).getByRole('button', { name: 'Save condition' }));
    await waitFor(() => expect(notifications.current()).toMatchObject({ title: 'Condition saved' }));
    expect(calls.find((c) => c.path === '/api/update_condition')?.body).toEqual({
      workflow_step_id: 11,
      mode: 'PRE',
      field_id: 32,
      on_workflow_field: false,
      operator: 'in_list',
      value: ['2'],
      join: 'or',
    });
  });

  it('says "Failed to create/update trigger!" with the field at fault', async () => {
    server({
      'POST /api/update_trigger': {
        status: 400,
        body: {
          message:
            'This schedule never comes due: check that its days exist in its months (there is no 30 February)',
          errors: [
            {
              path: 'body.cron',
              message:
                'This schedule never comes due: check that its days exist in its months (there is no 30 February)',
            },
          ],
        },
      },
    });
    const { user, notifications } = await open();
    await user.click(screen.getByRole('tab', { name: /Triggers/ }));
    await user.click(screen.getByRole('button', { name: 'Add trigger' }));
    const dialog = screen.getByRole('dialog', { name: 'New trigger' });
    await user.selectOptions(within(dialog).getByLabelText('When'), 'on_date');
    await user.type(within(dialog).getByLabelText('Schedule'), '0 9 30 2 *');
    await user.click(within(dialog).getByRole('button', { name: 'Save trigger' }));
    expect(
      await within(dialog).findByText(
        'This schedule never comes due: check that its days exist in its months (there is no 30 February)',
      ),
    ).toBeInTheDocument();
    expect(notifications.current()).toMatchObject({ title: 'Failed to create/update trigger!' });
  });

  it('deletes a condition after asking; a refused step deletion toasts and closes', async () => {
    const { calls } = server({
      'DELETE /api/del_condition/200': { body: { data: null } },
      'DELETE /api/workflow/del_step/11': {
        status: 409,
        body: { message: '2 files are in this step. Move them on first.', code: 'workflow.step_in_use' },
      },
    });
    const { user, notifications } = await open();
    await user.click(screen.getByRole('tab', { name: /Conditions/ }));
    await user.click(screen.getByRole('button', { name: /^Delete the condition Amount/ }));
    const confirm = screen.getByRole('dialog', { name: 'Delete this condition?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete condition' }));
    await waitFor(() => expect(notifications.current()).toMatchObject({ title: 'Condition deleted' }));
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/del_condition/200')).toBe(true);
    expect(confirm).not.toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Step' }));
    await user.click(screen.getByRole('button', { name: 'Delete step' }));
    const step = screen.getByRole('dialog', { name: 'Delete the step Check?' });
    await user.click(within(step).getByRole('button', { name: 'Delete step' }));
    await waitFor(() =>
      expect(notifications.current()).toMatchObject({
        title: 'Failed to delete step!',
        message: expect.stringContaining('2 files are in this step'),
      }),
    );
    expect(step).not.toBeInTheDocument();
  });

  it("says what is wrong with a trigger's schedule in a sentence, without calling the server", async () => {
    const { calls } = server();
    const { user } = await open();
    await user.click(screen.getByRole('tab', { name: /Triggers/ }));
    await user.click(screen.getByRole('button', { name: 'Add trigger' }));
    const dialog = screen.getByRole('dialog', { name: 'New trigger' });
    await user.selectOptions(within(dialog).getByLabelText('When'), 'on_date');
    const schedule = within(dialog).getByLabelText('Schedule');
    await user.type(schedule, 'every day');
    await user.click(within(dialog).getByRole('button', { name: 'Save trigger' }));
    expect(
      await within(dialog).findByText('Give five fields: minute hour day month weekday'),
    ).toBeInTheDocument();
    await user.clear(schedule);
    await user.type(schedule, '0 25 * * 1');
    await user.click(within(dialog).getByRole('button', { name: 'Save trigger' }));
    expect(await within(dialog).findByText('Hour must be 0-23')).toBeInTheDocument();
    expect(schedule).toHaveFocus();
    expect(calls.some((c) => c.path === '/api/update_trigger')).toBe(false);
  });

  it('tries a file in a dry run: the step it would enter and the conditions that fail', async () => {
    server({
      'GET /api/workflow/dry_run/files': {
        body: { data: [{ id: 9, name: 'invoice-9.pdf', category: { id: 5, name: 'Finance' } }] },
      },
      'POST /api/workflow/dry_run': {
        body: {
          data: {
            file_id: 9,
            workflow_id: 1,
            entry_step: { id: 11, name: 'Check' },
            would_start: false,
            reason: '"invoice-9.pdf" would not enter "Check": its PRE conditions fail.',
            steps: [
              {
                id: 11,
                name: 'Check',
                position: 1,
                pre: {
                  holds: false,
                  conditions: [
                    {
                      id: 200,
                      field_name: 'Amount',
                      on_workflow_field: false,
                      operator: 'gt',
                      expected: '100',
                      actual: '50',
                      join: 'and',
                      holds: false,
                    },
                  ],
                },
                post: { holds: true, conditions: [] },
              },
              {
                id: 12,
                name: 'Sign',
                position: 2,
                pre: { holds: true, conditions: [] },
                post: { holds: true, conditions: [] },
              },
            ],
          },
        },
      },
    });
    const { user } = await open();
    await user.click(screen.getByRole('button', { name: 'Dry run' }));
    const dialog = screen.getByRole('dialog', { name: 'Dry run' });
    await user.type(within(dialog).getByRole('combobox', { name: 'File' }), 'invoice');
    await user.click(await screen.findByRole('option', { name: /invoice-9\.pdf/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Try it' }));
    const result = await within(dialog).findByRole('region', { name: 'Dry run result' });
    expect(result).toHaveTextContent('"invoice-9.pdf" would not enter "Check": its PRE conditions fail.');
    expect(result).toHaveTextContent('Fails: Amount is greater than 100 — it is 50');
  });

  it('activates: the toast says what the workflow now starts on, from what the server answered', async () => {
    const active = aWorkflow({ status: 'active' });
    const [check, sign] = active.steps as [TStep, TStep];
    const { calls } = server({
      'POST /api/create_and_update_workflow': {
        body: {
          data: {
            ...active,
            steps: [
              {
                ...check,
                triggers: [
                  {
                    id: 300,
                    step_id: 11,
                    kind: 'on_index',
                    field_id: null,
                    field_name: null,
                    value: null,
                    cron: null,
                    target_step_id: null,
                    escalate_user_id: null,
                    escalate_group_id: null,
                    escalate_name: null,
                    active: true,
                  },
                ],
              },
              sign,
            ],
          },
        },
      },
    });
    const { user, notifications } = await open();
    await user.click(screen.getByRole('button', { name: 'Activate' }));
    await waitFor(() =>
      expect(notifications.current()).toMatchObject({
        title: 'Workflow activated',
        message: 'Invoices now starts on every file indexed into Finance, at the step "Check".',
      }),
    );
    expect(calls.find((c) => c.path === '/api/create_and_update_workflow')?.body).toEqual({
      id: 1,
      name: 'Invoices',
      status: 'active',
    });
  });

  it('activates a workflow that serves no category: the toast says it starts only by hand', async () => {
    server({
      'POST /api/create_and_update_workflow': {
        body: { data: aWorkflow({ status: 'active', categories: [] }) },
      },
    });
    const { user, notifications } = await open();
    await user.click(screen.getByRole('button', { name: 'Activate' }));
    await waitFor(() =>
      expect(notifications.current()?.message).toBe(
        'Invoices serves no category: it starts only when someone starts it on a file.',
      ),
    );
  });

  it('is read only for the Auditor', async () => {
    server({}, 'Auditor');
    await open();
    expect(screen.queryByRole('button', { name: 'Add step' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Activate' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Move Check down' })).not.toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toBeDisabled();
  });
});
