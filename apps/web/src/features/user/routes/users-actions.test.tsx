import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { refusedAt } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';
import { ALICE, anAdminUser, choose, openMenu, rowOf, server, usersCalls } from '../testing/users-server';

// The users page (Settings): creating and editing a user through the form, and the row
// actions (deactivate, delete, reset the password) from the keyboard menu.

describe('the users page: the form and row actions', () => {
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
      'POST /api/users/createUser': refusedAt('body.username', 'This username is taken', {
        message: 'username: This username is taken',
        code: 'invalid_input',
      }),
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
});
