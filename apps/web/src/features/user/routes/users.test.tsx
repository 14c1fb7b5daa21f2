import type { TAdminUser } from '@quire/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aUser, signIn } from '../../../testing/fixtures';
import { mockApi, type RecordedCall, type Reply } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

function anAdminUser(overrides: Partial<TAdminUser> = {}): TAdminUser {
  return {
    ...aUser({
      id: 20,
      username: 'asmith',
      email: 'alice@example.test',
      first_name: 'Alice',
      last_name: 'Smith',
    }),
    name: 'Alice Smith',
    role: 'user',
    access_type: 'General staff',
    groups: [],
    has_signature: false,
    deleted_at: null,
    ...overrides,
  };
}

const ALICE = anAdminUser();
const BOB = anAdminUser({
  id: 21,
  username: 'bjones',
  email: 'bob@example.test',
  first_name: 'Bob',
  last_name: 'Jones',
  name: 'Bob Jones',
  role: 'admin',
  access_type: 'COMPANY ADMIN',
  status: 'deactivated',
});
// The signed-in admin (fixtures: id 7, jdoe).
const ME = anAdminUser({
  id: 7,
  username: 'jdoe',
  email: 'jdoe@example.test',
  name: 'Jane Doe',
  role: 'admin',
});

const page = (
  users: TAdminUser[],
  extra: Partial<{ page: number; total: number; last_page: number }> = {},
) => ({
  body: { data: { users, page: 1, quantity: 20, total: users.length, last_page: 1, ...extra } },
});

function server(
  routes: Record<string, Reply | ((call: RecordedCall) => Reply)> = {},
  as = 'COMPANY ADMIN' as const,
) {
  const data = signIn('admin', as);
  return mockApi({
    'GET /api/user/current': { body: { data: data.user } },
    'GET /api/users/all': page([ME, ALICE, BOB]),
    'GET /api/all_group': { body: { data: [] } },
    ...routes,
  });
}

const usersCalls = (calls: RecordedCall[]) => calls.filter((c) => c.path === '/api/users/all');
const rowOf = (name: string) => screen.getByRole('row', { name: new RegExp(name) });

describe('the users page', () => {
  it('lists users with their access type, status and creation date, and the page count', async () => {
    const { calls } = server();
    renderApp('/admin/users');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Users' }, { timeout: 5_000 }),
    ).toBeInTheDocument();
    const alice = await screen.findByRole('row', { name: /Alice Smith/ });
    expect(alice).toHaveTextContent('asmith');
    expect(alice).toHaveTextContent('alice@example.test');
    expect(alice).toHaveTextContent('General Staff');
    expect(alice).toHaveTextContent('Active');
    expect(rowOf('Bob Jones')).toHaveTextContent('Company Admin');
    expect(rowOf('Bob Jones')).toHaveTextContent('Deactivated');
    expect(screen.getByText('1–3 of 3 users')).toBeInTheDocument();
    expect(usersCalls(calls)[0]?.search).toBe('?page=1&quantity=20');
  });

  it('searches once the typing stops, and filters by status', async () => {
    const { calls } = server({
      'GET /api/users/all': (call) =>
        call.search.includes('search=ali') ? page([ALICE]) : page([ME, ALICE, BOB]),
    });
    const { user } = renderApp('/admin/users');
    await screen.findByRole('row', { name: /Bob Jones/ });
    await user.type(screen.getByLabelText('Search'), 'ali');
    await waitFor(() => expect(screen.queryByRole('row', { name: /Bob Jones/ })).not.toBeInTheDocument());
    const searches = usersCalls(calls).map((c) => c.search);
    // Debounced: no request per keystroke.
    expect(searches).not.toContain('?page=1&quantity=20&search=a');
    expect(searches).toContain('?page=1&quantity=20&search=ali');

    await user.selectOptions(screen.getByLabelText('Status'), 'deactivated');
    await waitFor(() =>
      expect(usersCalls(calls).at(-1)?.search).toBe('?page=1&quantity=20&search=ali&status=deactivated'),
    );
  });

  it('says when nothing matches, and clears the filters', async () => {
    server({
      'GET /api/users/all': (call) => (call.search.includes('status=deleted') ? page([]) : page([ALICE])),
    });
    const { user } = renderApp('/admin/users?status=deleted');
    expect(await screen.findByRole('heading', { name: 'No users match' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear the filters' }));
    expect(await screen.findByRole('row', { name: /Alice Smith/ })).toBeInTheDocument();
  });

  it('pages through the users', async () => {
    const { calls } = server({
      'GET /api/users/all': (call) =>
        call.search.includes('page=2')
          ? page([BOB], { page: 2, total: 21, last_page: 2 })
          : page([ALICE], { total: 21, last_page: 2 }),
    });
    const { user } = renderApp('/admin/users');
    expect(await screen.findByText('1–20 of 21 users')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('21–21 of 21 users')).toBeInTheDocument();
    expect(screen.getByRole('row', { name: /Bob Jones/ })).toBeInTheDocument();
    expect(usersCalls(calls).at(-1)?.search).toBe('?page=2&quantity=20');
  });

  it('shows an empty state when there are no users', async () => {
    server({ 'GET /api/users/all': page([]) });
    renderApp('/admin/users');
    expect(await screen.findByRole('heading', { name: 'No users yet' })).toBeInTheDocument();
  });

  it('toasts "Failed to load users" when the list fails', async () => {
    server({ 'GET /api/users/all': { status: 500, body: { message: 'Database is down' } } });
    const { notifications } = renderApp('/admin/users');
    expect(await screen.findByRole('heading', { name: 'The users could not be loaded' })).toBeInTheDocument();
    expect(notifications.current()).toMatchObject({
      title: 'Failed to load users',
      message: 'Database is down',
    });
  });

  it('creates a user through the form, with the password policy shown as it is typed', async () => {
    const { calls } = server({
      'GET /api/all_group': {
        body: {
          data: [
            {
              id: 3,
              name: 'Finance',
              description: '',
              member_count: 0,
              members: [],
              created_at: '2025-01-01T00:00:00Z',
            },
          ],
        },
      },
      'POST /api/users/createUser': (call) => ({
        body: {
          data: anAdminUser({
            id: 30,
            name: 'Carol King',
            username: String((call.body as { username: string }).username),
          }),
        },
      }),
    });
    const { user, notifications } = renderApp('/admin/users');
    await user.click(await screen.findByRole('button', { name: 'New user' }));
    const dialog = screen.getByRole('dialog', { name: 'New user' });
    expect(within(dialog).getByLabelText('Username')).toHaveFocus();

    await user.type(within(dialog).getByLabelText('Username'), 'cking');
    await user.type(within(dialog).getByLabelText('E-mail'), 'carol@example.test');
    await user.type(within(dialog).getByLabelText('First name'), 'Carol');
    await user.type(within(dialog).getByLabelText('Last name'), 'King');
    // General staff sign in as users only.
    expect(within(dialog).getByRole('option', { name: 'Admin' })).toBeDisabled();
    expect(within(dialog).queryByRole('option', { name: 'Vendor Admin' })).not.toBeInTheDocument();
    await user.click(await within(dialog).findByRole('checkbox', { name: 'Finance' }));

    await user.type(within(dialog).getByLabelText('Password'), 'short');
    expect(within(dialog).getByText(/10 to 256 characters/)).toHaveClass('is-unmet');
    await user.clear(within(dialog).getByLabelText('Password'));
    await user.type(within(dialog).getByLabelText('Password'), 'Quiet-River-Stone-42');
    expect(within(dialog).getByText(/10 to 256 characters/)).toHaveClass('is-met');

    await user.click(within(dialog).getByRole('button', { name: 'Create user' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.find((c) => c.path === '/api/users/createUser')?.body).toEqual({
      username: 'cking',
      email: 'carol@example.test',
      first_name: 'Carol',
      last_name: 'King',
      role: 'user',
      access_type: 'General staff',
      group_ids: [3],
      password: 'Quiet-River-Stone-42',
    });
    expect(notifications.current()).toMatchObject({ title: 'User created' });
    // The list is loaded again.
    await waitFor(() => expect(usersCalls(calls).length).toBeGreaterThan(1));
  });

  it('does not send a password the policy refuses', async () => {
    const { calls } = server();
    const { user } = renderApp('/admin/users');
    await user.click(await screen.findByRole('button', { name: 'New user' }));
    const dialog = screen.getByRole('dialog', { name: 'New user' });
    await user.type(within(dialog).getByLabelText('Username'), 'cking');
    await user.type(within(dialog).getByLabelText('E-mail'), 'carol@example.test');
    await user.type(within(dialog).getByLabelText('Password'), 'cking-password-1{Enter}');
    expect(within(dialog).getByLabelText('Password')).toHaveAccessibleDescription(
      expect.stringContaining('Do not use your username or e-mail in the password'),
    );
    expect(within(dialog).getByLabelText('Password')).toHaveFocus();
    expect(calls.some((c) => c.path === '/api/users/createUser')).toBe(false);
  });

  it('shows the API field errors next to the fields and toasts "Failed to create user!"', async () => {
    server({
      'POST /api/users/createUser': {
        status: 400,
        body: {
          message: 'username: This username is taken',
          code: 'invalid_input',
          errors: [{ path: 'body.username', message: 'This username is taken' }],
        },
      },
    });
    const { user, notifications } = renderApp('/admin/users');
    await user.click(await screen.findByRole('button', { name: 'New user' }));
    const dialog = screen.getByRole('dialog', { name: 'New user' });
    await user.type(within(dialog).getByLabelText('Username'), 'asmith');
    await user.type(within(dialog).getByLabelText('E-mail'), 'new@example.test');
    await user.type(within(dialog).getByLabelText('Password'), 'Quiet-River-Stone-42{Enter}');
    await waitFor(() =>
      expect(within(dialog).getByLabelText('Username')).toHaveAccessibleDescription('This username is taken'),
    );
    expect(within(dialog).getByLabelText('Username')).toHaveFocus();
    expect(notifications.current()).toMatchObject({
      kind: 'error',
      title: 'Failed to create user!',
      message: 'username: This username is taken',
    });
  });

  it('edits a user; on your own row the access type and role cannot change', async () => {
    const { calls } = server({ 'PUT /api/editUser/20': { body: { data: ALICE } } });
    const { user } = renderApp('/admin/users');
    await user.click(await screen.findByRole('button', { name: 'Edit Jane Doe' }));
    let dialog = screen.getByRole('dialog', { name: 'Edit Jane Doe' });
    expect(within(dialog).getByLabelText('Access type')).toBeDisabled();
    expect(within(dialog).getByLabelText('Role')).toBeDisabled();
    expect(within(dialog).queryByLabelText('Password')).not.toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Edit Alice Smith' }));
    dialog = screen.getByRole('dialog', { name: 'Edit Alice Smith' });
    await user.clear(within(dialog).getByLabelText('First name'));
    await user.type(within(dialog).getByLabelText('First name'), 'Alicia');
    await user.selectOptions(within(dialog).getByLabelText('Access type'), 'Auditor');
    await user.selectOptions(within(dialog).getByLabelText('Role'), 'admin');
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.find((c) => c.path === '/api/editUser/20')).toMatchObject({
      method: 'PUT',
      body: { first_name: 'Alicia', access_type: 'Auditor', role: 'admin', group_ids: [] },
    });
  });

  it('hides deactivate and delete on your own row', async () => {
    server();
    renderApp('/admin/users');
    const me = await screen.findByRole('row', { name: /Jane Doe/ });
    expect(within(me).queryByRole('button', { name: /Deactivate/ })).not.toBeInTheDocument();
    expect(within(me).queryByRole('button', { name: /Delete/ })).not.toBeInTheDocument();
    expect(
      within(rowOf('Alice Smith')).getByRole('button', { name: 'Deactivate Alice Smith' }),
    ).toBeInTheDocument();
    expect(
      within(rowOf('Bob Jones')).getByRole('button', { name: 'Activate Bob Jones' }),
    ).toBeInTheDocument();
  });

  it('asks before deleting, explains the delete is soft, and Esc cancels', async () => {
    const { calls } = server({ 'PUT /api/delete_user': { body: { data: { ...ALICE, status: 'deleted' } } } });
    const { user, notifications } = renderApp('/admin/users');
    await user.click(await screen.findByRole('button', { name: 'Delete Alice Smith' }));
    let dialog = screen.getByRole('dialog', { name: 'Delete Alice Smith (asmith)?' });
    expect(dialog).toHaveTextContent(/history, files and audit trail are kept/);
    expect(within(dialog).getByRole('button', { name: 'Delete user' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete Alice Smith' })).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Delete Alice Smith' }));
    dialog = screen.getByRole('dialog', { name: 'Delete Alice Smith (asmith)?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete user' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.find((c) => c.path === '/api/delete_user')).toMatchObject({
      method: 'PUT',
      body: { id: 20 },
    });
    expect(notifications.current()).toMatchObject({ title: 'User deleted' });
  });

  it('toasts "Failed to deactivate user!" with the server message', async () => {
    server({
      'PUT /api/deactivate_user': { status: 403, body: { message: 'Vendor Admin accounts are protected' } },
    });
    const { user, notifications } = renderApp('/admin/users');
    await user.click(await screen.findByRole('button', { name: 'Deactivate Alice Smith' }));
    await user.click(screen.getByRole('button', { name: 'Deactivate' }));
    await waitFor(() =>
      expect(notifications.current()).toMatchObject({
        title: 'Failed to deactivate user!',
        message: 'Vendor Admin accounts are protected',
      }),
    );
    // The dialog stays, so the person can try again or cancel.
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it("resets a user's password, with the policy checked first", async () => {
    const { calls } = server({ 'POST /api/reset-password': { body: { data: null } } });
    const { user, notifications } = renderApp('/admin/users');
    await user.click(await screen.findByRole('button', { name: 'Reset password Alice Smith' }));
    const dialog = screen.getByRole('dialog', { name: 'Reset password for Alice Smith' });
    await user.type(within(dialog).getByLabelText('New password'), '1234567890{Enter}');
    expect(within(dialog).getByLabelText('New password')).toHaveAccessibleDescription(
      expect.stringContaining('This password is too common'),
    );
    await user.clear(within(dialog).getByLabelText('New password'));
    await user.type(within(dialog).getByLabelText('New password'), 'Quiet-River-Stone-42{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.find((c) => c.path === '/api/reset-password')?.body).toEqual({
      user_id: 20,
      password: 'Quiet-River-Stone-42',
    });
    expect(notifications.current()).toMatchObject({ title: 'Password reset' });
  });

  it('is read only for an Auditor: no create, import or row actions', async () => {
    server({}, 'Auditor' as never);
    renderApp('/admin/users');
    await screen.findByRole('row', { name: /Alice Smith/ });
    expect(screen.getByText('Read only')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New user' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Import from Excel' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^(Edit|Delete|Deactivate)/ })).not.toBeInTheDocument();
  });

  it('is not open to a File Control Admin', async () => {
    server({}, 'File Control Admin' as never);
    const { location } = renderApp('/admin/users');
    await screen.findByRole('heading', { level: 1, name: 'Categories' });
    expect(location()).toBe('/admin/category');
  });
});
