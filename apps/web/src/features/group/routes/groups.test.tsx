import type { AccessType, contract, Data, TGroup } from '@quire/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type MockRoutes, refusedAt, signedInApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

const FINANCE: TGroup = {
  id: 3,
  name: 'Finance',
  description: 'Invoices and budgets',
  member_count: 5,
  members: ['Ann', 'Ben', 'Cat', 'Dan', 'Eve'].map((name, i) => ({ id: 40 + i, name })),
  created_at: '2025-01-01T00:00:00Z',
};

const USERS: Data<typeof contract.user.allUsers> = [
  {
    id: 20,
    name: 'Alice Smith',
    username: 'asmith',
    email: 'a@x.test',
    access_type: 'General staff' as const,
    status: 'active' as const,
  },
  {
    id: 21,
    name: 'Bob Jones',
    username: 'bjones',
    email: 'b@x.test',
    access_type: 'Auditor',
    status: 'active' as const,
  },
];

function server(routes: MockRoutes = {}, as: AccessType = 'COMPANY ADMIN') {
  return signedInApi('admin', as, {
    'GET /api/all_group': { body: { data: [FINANCE] } },
    'GET /api/all_user': { body: { data: USERS } },
    ...routes,
  });
}

const heading = () => screen.findByRole('heading', { level: 1, name: 'Groups' }, { timeout: 5_000 });

describe('the groups page', () => {
  it('lists groups with their description and member count', async () => {
    server();
    renderApp('/admin/groups');
    await heading();
    const row = await screen.findByRole('row', { name: /Finance/ });
    expect(row).toHaveTextContent('Invoices and budgets');
    expect(row).toHaveTextContent('5');
    expect(row).toHaveTextContent('Ann, Ben, Cat and 2 more');
  });

  it('shows an empty state with a way to create the first group', async () => {
    server({ 'GET /api/all_group': { body: { data: [] } } });
    renderApp('/admin/groups');
    expect(
      await screen.findByRole('heading', { name: 'No groups yet' }, { timeout: 5_000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create the first group' })).toBeInTheDocument();
  });

  it('creates a group with members picked through a search', async () => {
    const { calls } = server({
      'POST /api/create_group': { body: { data: { ...FINANCE, id: 4, name: 'Legal', member_count: 1 } } },
    });
    const { user, notifications } = renderApp('/admin/groups');
    await user.click(await screen.findByRole('button', { name: 'New group' }, { timeout: 5_000 }));
    const dialog = screen.getByRole('dialog', { name: 'New group' });
    expect(within(dialog).getByLabelText('Name')).toHaveFocus();
    await user.type(within(dialog).getByLabelText('Name'), 'Legal');
    await user.type(within(dialog).getByLabelText(/Description/), 'Contracts');
    // Type-ahead: a few letters narrow the list; arrows and Enter choose.
    await user.type(within(dialog).getByRole('combobox', { name: 'Members' }), 'bob');
    const list = await screen.findByRole('listbox');
    expect(within(list).queryByRole('option', { name: /Alice Smith/ })).not.toBeInTheDocument();
    await user.keyboard('{ArrowDown}{Enter}{Escape}');
    const chosen = within(dialog).getByRole('grid', { name: 'Chosen: Members' });
    expect(within(chosen).getByRole('row', { name: 'Bob Jones' })).toBeInTheDocument();
    expect(within(dialog).getByText('1 chosen.')).toBeInTheDocument();
    expect(within(dialog).getByRole('combobox', { name: 'Members' })).toHaveValue('');
    await user.click(within(dialog).getByRole('button', { name: 'Create group' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.find((c) => c.path === '/api/create_group')?.body).toEqual({
      name: 'Legal',
      description: 'Contracts',
      user_ids: [21],
    });
    expect(notifications.current()).toMatchObject({ title: 'Group created' });
  });

  it('offers the members in natural order, without the vendor admin account', async () => {
    const person = (id: number, name: string, access_type: AccessType = 'General staff') => ({
      id,
      name,
      username: name.toLowerCase().replace(/\s/g, ''),
      email: `${id}@x.test`,
      access_type,
      status: 'active' as const,
    });
    server({
      'GET /api/all_user': {
        body: {
          data: [
            person(1, 'Staff10'),
            person(2, 'DATAMAX ADMIN', 'DATAMAX ADMIN'),
            person(3, 'staff2'),
            person(4, 'Staff1'),
          ],
        },
      },
    });
    const { user } = renderApp('/admin/groups');
    await user.click(await screen.findByRole('button', { name: 'New group' }, { timeout: 5_000 }));
    const dialog = screen.getByRole('dialog', { name: 'New group' });
    await user.click(within(dialog).getByRole('button', { name: /Show all/ }));
    const list = await screen.findByRole('listbox');
    await within(list).findByRole('option', { name: /Staff10/ });
    const names = within(list)
      .getAllByRole('option')
      .map((option) => option.textContent?.split(' ')[0]);
    expect(names).toEqual(['Staff1', 'staff2', 'Staff10']);
  });

  it('needs a name, and shows the API refusal beside the field', async () => {
    const { calls } = server({
      'POST /api/edit_group/3': refusedAt('body.name', 'This name is taken', {
        status: 409,
        message: 'A group with this name exists',
      }),
    });
    const { user, notifications } = renderApp('/admin/groups');
    await user.click(await screen.findByRole('button', { name: 'Edit Finance' }, { timeout: 5_000 }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Finance' });
    const name = within(dialog).getByLabelText('Name');
    await user.clear(name);
    await user.type(name, '{Enter}');
    expect(name).toHaveAccessibleDescription('Enter a name for the group');
    expect(calls.some((c) => c.path === '/api/edit_group/3')).toBe(false);
    await user.type(name, 'Legal{Enter}');
    await waitFor(() => expect(name).toHaveAccessibleDescription('This name is taken'));
    expect(calls.find((c) => c.path === '/api/edit_group/3')?.body).toMatchObject({
      name: 'Legal',
      user_ids: [40, 41, 42, 43, 44],
    });
    expect(notifications.current()).toMatchObject({ title: 'Failed to edit group!' });
  });

  it('asks before deleting a group, saying the users stay', async () => {
    const { calls } = server({ 'POST /api/group/delete/3': { body: { data: null } } });
    const { user, notifications } = renderApp('/admin/groups');
    await user.click(await screen.findByRole('button', { name: 'Delete Finance' }, { timeout: 5_000 }));
    const dialog = screen.getByRole('dialog', { name: 'Delete the group Finance?' });
    expect(dialog).toHaveTextContent('The group and its 5 memberships go; the users themselves stay.');
    // The focus starts on Cancel: Enter does not delete.
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.some((c) => c.path === '/api/group/delete/3')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Delete Finance' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Delete the group Finance?' })).getByRole('button', {
        name: 'Delete group',
      }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.find((c) => c.path === '/api/group/delete/3')?.method).toBe('POST');
    expect(notifications.current()).toMatchObject({ title: 'Group deleted' });
  });

  it('is read only for an Auditor', async () => {
    server({}, 'Auditor');
    renderApp('/admin/groups');
    await screen.findByRole('row', { name: /Finance/ }, { timeout: 5_000 });
    expect(screen.queryByRole('button', { name: 'New group' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Edit|Delete/ })).not.toBeInTheDocument();
  });
});
