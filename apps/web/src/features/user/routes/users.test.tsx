import type { TAdminUser } from '@quire/contract';
import { notifyManager } from '@tanstack/react-query';
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { aUser } from '../../../testing/fixtures';
import { type MockRoutes, type RecordedCall, signedInApi } from '../../../testing/mock-api';
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

function server(routes: MockRoutes = {}, as = 'COMPANY ADMIN' as const) {
  return signedInApi('admin', as, {
    'GET /api/users/all': page([ME, ALICE, BOB]),
    'GET /api/all_group': { body: { data: [] } },
    ...routes,
  });
}

const usersCalls = (calls: RecordedCall[]) => calls.filter((c) => c.path === '/api/users/all');
const rowOf = (name: string) => screen.getByRole('row', { name: new RegExp(name) });

/** The names of the actions in a row's "More actions" menu, left open. */
async function openMenu(user: ReturnType<typeof renderApp>['user'], name: string) {
  await user.click(await screen.findByRole('button', { name: `More actions for ${name}` }));
  return screen.getByRole('menu', { name: `More actions for ${name}` });
}

/** Chooses an action from a row's "More actions" menu: `choose(user, 'Alice Smith', 'Delete')`. */
async function choose(user: ReturnType<typeof renderApp>['user'], name: string, action: string) {
  const menu = await openMenu(user, name);
  await user.click(within(menu).getByRole('menuitem', { name: `${action} ${name}` }));
}

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
    // The debounce on a fake clock: no waiting on real time, and no flake when the machine is slow.
    // (TanStack Query hands its results over on a timer of its own: a microtask instead here.)
    // Testing Library's waits see the fake clock and move it on through `jest`.
    notifyManager.setScheduler(queueMicrotask);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    vi.stubGlobal('jest', { advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms) });
    try {
      const { user } = renderApp('/admin/users', undefined, {
        advanceTimers: (ms) => vi.advanceTimersByTime(ms),
      });
      await screen.findByRole('row', { name: /Bob Jones/ });
      const before = usersCalls(calls).length;
      await user.type(screen.getByLabelText('Search'), 'ali');
      await act(async () => vi.advanceTimersByTime(299));
      // Debounced: nothing asked while the typing goes on.
      expect(usersCalls(calls)).toHaveLength(before);
      await act(async () => vi.advanceTimersByTime(1));
      await waitFor(() => expect(screen.queryByRole('row', { name: /Bob Jones/ })).not.toBeInTheDocument());
      expect(
        usersCalls(calls)
          .slice(before)
          .map((c) => c.search),
      ).toEqual(['?page=1&quantity=20&search=ali']);

      await user.selectOptions(screen.getByLabelText('Status'), 'deactivated');
      await waitFor(() =>
        expect(usersCalls(calls).at(-1)?.search).toBe('?page=1&quantity=20&search=ali&status=deactivated'),
      );
    } finally {
      vi.useRealTimers();
      notifyManager.setScheduler((callback) => setTimeout(callback, 0));
    }
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
    await user.type(within(dialog).getByRole('combobox', { name: 'Groups' }), 'fin');
    await user.click(await screen.findByRole('option', { name: /Finance/ }));
    await user.keyboard('{Escape}');
    expect(within(dialog).getByRole('row', { name: 'Finance' })).toBeInTheDocument();

    await user.type(within(dialog).getByLabelText('Password'), 'short');
    expect(within(dialog).getByText('Use at least 10 characters')).toHaveClass('is-unmet');
    await user.clear(within(dialog).getByLabelText('Password'));
    await user.type(within(dialog).getByLabelText('Password'), 'Quiet-River-Stone-42');
    expect(within(dialog).getByText('Use at least 10 characters')).toHaveClass('is-met');

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
    // The field says what is wrong; the toast does not repeat it, nor name the field's key.
    expect(notifications.current()).toMatchObject({
      kind: 'error',
      title: 'Failed to create user!',
      message: 'Check the fields marked in the form.',
    });
  });

  it('edits a user; on your own row the access type and role cannot change', async () => {
    const { calls } = server({ 'PUT /api/editUser/20': { body: { data: ALICE } } });
    const { user } = renderApp('/admin/users');
    await user.click(await screen.findByRole('button', { name: 'Edit Jane Doe' }));
    let dialog = screen.getByRole('dialog', { name: 'Edit Jane Doe' });
    expect(within(dialog).getByLabelText('Access type')).toBeDisabled();
    expect(within(dialog).getByLabelText('Usual sign-in role')).toBeDisabled();
    expect(within(dialog).queryByLabelText('Password')).not.toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Edit Alice Smith' }));
    dialog = screen.getByRole('dialog', { name: 'Edit Alice Smith' });
    await user.clear(within(dialog).getByLabelText('First name'));
    await user.type(within(dialog).getByLabelText('First name'), 'Alicia');
    await user.selectOptions(within(dialog).getByLabelText('Access type'), 'Auditor');
    // The access type says what it opens; the role says it opens nothing by itself.
    expect(within(dialog).getByLabelText('Access type')).toHaveAccessibleDescription(
      'Signed in as Admin, they open File Control (read only) and Settings (read only); as User, their files.',
    );
    expect(within(dialog).getByLabelText('Usual sign-in role')).toHaveAccessibleDescription(
      /it opens nothing by itself\. The access type decides the areas/,
    );
    await user.selectOptions(within(dialog).getByLabelText('Usual sign-in role'), 'admin');
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.find((c) => c.path === '/api/editUser/20')).toMatchObject({
      method: 'PUT',
      body: { first_name: 'Alicia', access_type: 'Auditor', role: 'admin', group_ids: [] },
    });
  });

  it('hides deactivate and delete on your own row', async () => {
    server();
    const { user } = renderApp('/admin/users');
    await screen.findByRole('row', { name: /Jane Doe/ });
    const items = async (name: string) =>
      within(await openMenu(user, name))
        .getAllByRole('menuitem')
        .map((item) => item.textContent);
    expect(await items('Jane Doe')).toEqual(['Reset password']);
    await user.keyboard('{Escape}');
    expect(await items('Alice Smith')).toEqual(['Reset password', 'Deactivate', 'Delete']);
    await user.keyboard('{Escape}');
    expect(await items('Bob Jones')).toEqual(['Reset password', 'Activate', 'Delete']);
  });

  it('asks before deleting, explains the delete is soft, and Esc cancels', async () => {
    const { calls } = server({ 'PUT /api/delete_user': { body: { data: { ...ALICE, status: 'deleted' } } } });
    const { user, notifications } = renderApp('/admin/users');
    await choose(user, 'Alice Smith', 'Delete');
    let dialog = screen.getByRole('dialog', { name: 'Delete Alice Smith (asmith)?' });
    expect(dialog).toHaveTextContent(/history, files and audit trail are kept/);
    // The focus starts on Cancel: Enter does not delete.
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'More actions for Alice Smith' })).toHaveFocus(),
    );

    await choose(user, 'Alice Smith', 'Delete');
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
    await choose(user, 'Alice Smith', 'Deactivate');
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
    await choose(user, 'Alice Smith', 'Reset password');
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

  it('keeps Edit in sight and the other actions in a keyboard menu: Enter opens, arrows move, Esc closes', async () => {
    server();
    const { user } = renderApp('/admin/users');
    await screen.findByRole('row', { name: /Alice Smith/ });
    const row = rowOf('Alice Smith');
    expect(within(row).getByRole('button', { name: 'Edit Alice Smith' })).toBeVisible();
    expect(within(row).queryByRole('button', { name: 'Delete Alice Smith' })).not.toBeInTheDocument();
    const more = within(row).getByRole('button', { name: 'More actions for Alice Smith' });
    expect(more.getAttribute('aria-haspopup')).toMatch(/^(true|menu)$/);
    expect(more).toHaveAttribute('aria-expanded', 'false');

    more.focus();
    await user.keyboard('{Enter}');
    expect(more).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('menuitem', { name: 'Reset password Alice Smith' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Deactivate Alice Smith' })).toHaveFocus();
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Reset password Alice Smith' })).toHaveFocus();
    await user.keyboard('{ArrowUp}');
    expect(screen.getByRole('menuitem', { name: 'Delete Alice Smith' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    await waitFor(() => expect(more).toHaveFocus());

    await user.keyboard(' ');
    expect(screen.getByRole('menu', { name: 'More actions for Alice Smith' })).toBeInTheDocument();
    await user.keyboard('{ArrowDown}{Enter}');
    expect(screen.getByRole('dialog', { name: /Deactivate Alice Smith/ })).toBeInTheDocument();
  });

  it('keeps the page, search and status in the address, and scrolls to the table on a new page', async () => {
    const scrolled = vi.fn();
    Element.prototype.scrollIntoView = scrolled;
    const { calls } = server({
      'GET /api/users/all': (call) =>
        call.search.includes('page=2')
          ? page([BOB], { page: 2, total: 21, last_page: 2 })
          : page([ALICE], { total: 21, last_page: 2 }),
    });
    const { user, location, go } = renderApp('/admin/users?page=2&search=o&status=active');
    expect(await screen.findByText('21–21 of 21 users')).toBeInTheDocument();
    expect(usersCalls(calls)[0]?.search).toBe('?page=2&quantity=20&search=o&status=active');
    expect(screen.getByLabelText('Search')).toHaveValue('o');
    expect(screen.getByLabelText('Status')).toHaveValue('active');

    await user.click(screen.getByRole('button', { name: 'Previous' }));
    await waitFor(() => expect(location()).toBe('/admin/users?search=o&status=active'));
    expect(await screen.findByText('1–20 of 21 users')).toBeInTheDocument();
    expect(scrolled).toHaveBeenCalled();

    await user.type(screen.getByLabelText('Search'), 'b');
    await waitFor(() => expect(location()).toBe('/admin/users?search=ob&status=active'));

    // Back goes to the page before.
    await act(async () => go(-1));
    await waitFor(() => expect(location()).toBe('/admin/users?page=2&search=o&status=active'));
    expect(await screen.findByText('21–21 of 21 users')).toBeInTheDocument();
    expect(screen.getByLabelText('Search')).toHaveValue('o');
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
