import type { AccessType } from '@quire/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type MockRoutes, signedInApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

const OWN_2FA_FIRST =
  'Turn on two-factor authentication for your own account before requiring it for everyone';

function server(routes: MockRoutes = {}, as: AccessType = 'COMPANY ADMIN') {
  return signedInApi('admin', as, {
    'GET /api/sign-in-settings': { body: { data: { require_2fa: false, self_registration: false } } },
    'PUT /api/sign-in-settings': (call) => ({
      body: { data: { require_2fa: false, self_registration: false, ...(call.body as object) } },
    }),
    ...routes,
  });
}

const require2fa = () =>
  screen.findByRole('switch', { name: 'Require two-factor authentication for everyone' }, { timeout: 5_000 });

describe('the sign-in security page', () => {
  it('shows both settings with what they do, and is listed under Settings', async () => {
    server({
      'GET /api/sign-in-settings': { body: { data: { require_2fa: true, self_registration: false } } },
    });
    renderApp('/admin/sign-in-security');
    expect(await require2fa()).toBeChecked();
    const selfRegistration = screen.getByRole('switch', { name: 'Allow self-registration' });
    expect(selfRegistration).not.toBeChecked();
    expect(selfRegistration).toHaveAccessibleDescription(expect.stringContaining('General staff'));
    expect(selfRegistration).toHaveAccessibleDescription(expect.stringContaining('verified'));
    expect(screen.getByRole('link', { name: 'Sign-in security' })).toHaveAttribute(
      'href',
      '/admin/sign-in-security',
    );
  });

  it('asks before requiring 2FA for everyone, and Cancel changes nothing', async () => {
    const { calls } = server();
    const { user } = renderApp('/admin/sign-in-security');
    await user.click(await require2fa());
    const dialog = screen.getByRole('dialog', { name: 'Require two-factor authentication for everyone?' });
    expect(dialog).toHaveTextContent('put on hold at once');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(await require2fa()).not.toBeChecked();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('requires 2FA once confirmed, with a success toast', async () => {
    const { calls } = server();
    const { user, notifications } = renderApp('/admin/sign-in-security');
    await user.click(await require2fa());
    await user.click(screen.getByRole('button', { name: 'Require two-factor authentication' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ require_2fa: true });
    expect(await require2fa()).toBeChecked();
    expect(notifications.current()).toMatchObject({ kind: 'success', title: 'Sign-in settings saved' });
  });

  it('checks the admin’s own 2FA before the confirmation, and asks for nothing then', async () => {
    const { calls } = server({
      'POST /api/users/is2faenabled': {
        body: { data: { isCompany2FAEnabled: false, isUser2FAEnabled: false } },
      },
    });
    const { user } = renderApp('/admin/sign-in-security');
    await waitFor(() => expect(calls.some((c) => c.path === '/api/users/is2faenabled')).toBe(true));
    await user.click(await require2fa());
    const alert = await within(screen.getByRole('region', { name: 'Sign-in settings' })).findByRole('alert');
    expect(alert).toHaveTextContent(OWN_2FA_FIRST);
    expect(within(alert).getByRole('link')).toHaveAttribute('href', '/profile');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    expect(await require2fa()).not.toBeChecked();
  });

  it('says to turn on 2FA on the profile first when the API refuses (409)', async () => {
    server({
      'PUT /api/sign-in-settings': { status: 409, body: { message: OWN_2FA_FIRST, code: 'conflict' } },
    });
    const { user, notifications } = renderApp('/admin/sign-in-security');
    await user.click(await require2fa());
    await user.click(screen.getByRole('button', { name: 'Require two-factor authentication' }));
    const alert = await within(screen.getByRole('region', { name: 'Sign-in settings' })).findByRole('alert');
    expect(alert).toHaveTextContent(OWN_2FA_FIRST);
    expect(within(alert).getByRole('link')).toHaveAttribute('href', '/profile');
    expect(await require2fa()).not.toBeChecked();
    expect(notifications.current()).toMatchObject({
      kind: 'error',
      title: 'Failed to save sign-in settings!',
    });
  });

  it('turns self-registration on without asking', async () => {
    const { calls } = server();
    const { user, notifications } = renderApp('/admin/sign-in-security');
    await require2fa();
    await user.click(screen.getByRole('switch', { name: 'Allow self-registration' }));
    await waitFor(() =>
      expect(screen.getByRole('switch', { name: 'Allow self-registration' })).toBeChecked(),
    );
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ self_registration: true });
    expect(notifications.current()).toMatchObject({ kind: 'success', title: 'Sign-in settings saved' });
  });

  it('toasts "Failed to save sign-in settings!" when saving fails', async () => {
    server({ 'PUT /api/sign-in-settings': { status: 500, body: { message: 'Database unavailable' } } });
    const { user, notifications } = renderApp('/admin/sign-in-security');
    await require2fa();
    await user.click(screen.getByRole('switch', { name: 'Allow self-registration' }));
    await waitFor(() =>
      expect(notifications.current()).toMatchObject({
        kind: 'error',
        title: 'Failed to save sign-in settings!',
      }),
    );
    expect(screen.getByRole('switch', { name: 'Allow self-registration' })).not.toBeChecked();
  });

  it('is read only for an Auditor', async () => {
    server({}, 'Auditor');
    renderApp('/admin/sign-in-security');
    expect(await require2fa()).toBeDisabled();
    expect(screen.getByRole('switch', { name: 'Allow self-registration' })).toBeDisabled();
    expect(screen.getByText('Read only')).toBeInTheDocument();
  });
});
