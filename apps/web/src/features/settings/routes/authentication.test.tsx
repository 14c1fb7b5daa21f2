import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { signedInApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

describe('external authentication', () => {
  it('tests the form as typed and shows what was found, or the exact reason it failed', async () => {
    let fail = true;
    const { calls } = signedInApi('admin', 'COMPANY ADMIN', {
      'GET /api/settings/authentication': { body: { data: null } },
      'GET /api/all_group': { body: { data: [] } },
      'POST /api/settings/authentication/test': () =>
        fail
          ? {
              status: 502,
              body: {
                message:
                  'Bind as cn=reader,dc=x: the directory refused the DN or password (invalid credentials)',
                code: 'settings.directory_failed',
              },
            }
          : {
              body: {
                data: {
                  bound_as: 'cn=reader,dc=x',
                  user: {
                    dn: 'uid=alice,dc=x',
                    username: 'alice',
                    email: 'alice@x.test',
                    first_name: 'Alice',
                    last_name: 'Archer',
                    groups: ['cn=admins,dc=x'],
                    access_type: 'COMPANY ADMIN',
                    quire_groups: [],
                  },
                },
              },
            },
    });
    const { user } = renderApp('/admin/authentication');
    const url = await screen.findByLabelText('Server URL', {}, { timeout: 5000 });
    await user.clear(url);
    await user.type(url, 'ldap://127.0.0.1:389');
    await user.type(screen.getByLabelText('Bind DN'), 'cn=reader,dc=x');
    await user.type(screen.getByLabelText('Search base'), 'dc=x');
    await user.type(screen.getByLabelText('Look up this username'), 'alice');
    await user.click(screen.getByRole('button', { name: 'Test' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('invalid credentials');
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Test' }));
    const found = await screen.findByRole('status');
    await waitFor(() => expect(found).toHaveTextContent('found uid=alice,dc=x'));
    expect(within(found).getByText('Company Admin')).toBeInTheDocument();
    const body = calls.find((c) => c.path === '/api/settings/authentication/test')?.body as {
      settings: Record<string, unknown>;
      username: string;
    };
    expect(body.username).toBe('alice');
    expect(body.settings).toMatchObject({
      url: 'ldap://127.0.0.1:389',
      base_dn: 'dc=x',
      verify_certificate: true,
    });
    expect(body.settings).not.toHaveProperty('bind_password');
  });

  it('starts a new connection turned off, and a Save after a failed test cannot turn it on: the form says why', async () => {
    const { calls } = signedInApi('admin', 'COMPANY ADMIN', {
      'GET /api/settings/authentication': { body: { data: null } },
      'GET /api/all_group': { body: { data: [] } },
      'POST /api/settings/authentication/test': {
        status: 502,
        body: { message: 'Connect to ldap://127.0.0.1:389: refused', code: 'settings.directory_failed' },
      },
    });
    const { user } = renderApp('/admin/authentication');
    const url = await screen.findByLabelText('Server URL', {}, { timeout: 5000 });
    const enabled = screen.getByRole('checkbox', { name: 'Let directory accounts sign in' });
    expect(enabled).not.toBeChecked();
    await user.clear(url);
    await user.type(url, 'ldap://127.0.0.1:389');
    await user.type(screen.getByLabelText('Search base'), 'dc=x');
    await user.type(screen.getByLabelText('Look up this username'), 'alice');
    await user.click(screen.getByRole('button', { name: 'Test' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('refused');

    await user.click(enabled);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(enabled).toHaveFocus());
    expect(enabled).toHaveAccessibleDescription(/The last test failed/);
    expect(calls.some((c) => c.path === '/api/settings/authentication/create')).toBe(false);

    // Turned off, the settings can be kept for later.
    await user.click(enabled);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(calls.find((c) => c.path === '/api/settings/authentication/create')?.body).toMatchObject({
        enabled: false,
        url: 'ldap://127.0.0.1:389',
      }),
    );
  });
});
