import { type AccessType, contract, type TLoginData } from '@quire/contract';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { captureTyped } from '../../../lib/prerendered';
import { aLogin } from '../../../testing/fixtures';
import { invalidInput, type MockRoutes, mockApi, type RecordedCall } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

const REGISTRATION_OPEN: MockRoutes = {
  'GET /account/registration': { body: { data: { open: true } } },
};

/** The guard of the contract entry a call was made to (undefined: no such entry). */
function guardOf(call: RecordedCall): unknown {
  const entries = Object.values(contract).flatMap((area) => Object.values(area)) as Array<{
    method: string;
    path: string;
    guard: unknown;
  }>;
  const entry = entries.find(
    (e) =>
      e.method === call.method && new RegExp(`^${e.path.replace(/\{[^}]+\}/g, '[^/]+')}/?$`).test(call.path),
  );
  return entry?.guard;
}
const loginCalls = (calls: RecordedCall[]) => calls.filter((c) => c.path === '/api/login');

function serverLogsIn(data: TLoginData, extra: MockRoutes = {}) {
  return mockApi({
    'POST /api/login': { body: { message: 'Login successful', data } },
    'GET /api/user/current': { body: { data: data.user } },
    ...extra,
  });
}

async function fillAndSubmit(
  user: ReturnType<typeof renderApp>['user'],
  { username = 'jdoe', password = 'secret-pass', role = 'admin' }: Partial<Record<string, string>> = {},
) {
  if (username) await user.type(await screen.findByLabelText('Username or e-mail'), username);
  if (password) await user.type(screen.getByLabelText('Password'), password);
  await user.selectOptions(screen.getByLabelText('Role'), role);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

const stored = (key: string) => JSON.parse(localStorage.getItem(key) ?? 'null');

describe('the login page', () => {
  it('keeps what was typed into the prerendered page before the script ran', async () => {
    const prerendered = document.createElement('div');
    prerendered.innerHTML =
      '<form><input name="username" value="jdoe"><input name="password" type="password" value="half-typ">' +
      '<select name="role"><option value="user">User</option><option value="admin" selected>Admin</option></select></form>';
    document.body.append(prerendered);
    captureTyped(prerendered);
    prerendered.remove();
    mockApi({});
    renderApp('/login');
    expect(await screen.findByLabelText('Username or e-mail')).toHaveValue('jdoe');
    expect(screen.getByLabelText('Role')).toHaveValue('admin');
    expect(screen.getByLabelText('Password')).toHaveValue('half-typ');
    captureTyped(document.createElement('div'));
  });

  it('is ready to type into: the username field has the focus', async () => {
    mockApi({});
    renderApp('/login');
    expect(await screen.findByLabelText('Username or e-mail')).toHaveFocus();
    expect(screen.getByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument();
    expect(screen.getByLabelText('Role')).toHaveAccessibleDescription(
      'Admin: the File Control and Settings areas; User: your files',
    );
  });

  it('tabs through Username, Password, Role and Sign in, then the links under the form', async () => {
    mockApi(REGISTRATION_OPEN);
    const { user } = renderApp('/login');
    expect(await screen.findByLabelText('Username or e-mail')).toHaveFocus();
    await user.tab();
    expect(screen.getByLabelText('Password')).toHaveFocus();
    await user.tab();
    expect(screen.getByLabelText('Role')).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Sign in' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveFocus();
    expect(await screen.findByRole('link', { name: 'Create an account' })).toBeInTheDocument();
  });

  it('offers "Create an account" only when registration is open', async () => {
    const { calls } = mockApi({ 'GET /account/registration': { body: { data: { open: false } } } });
    renderApp('/login');
    await screen.findByLabelText('Username or e-mail');
    await waitFor(() => expect(calls.some((c) => c.path === '/account/registration')).toBe(true));
    await waitFor(() => expect(screen.getByRole('link', { name: 'Forgot password?' })).toBeInTheDocument());
    expect(screen.queryByRole('link', { name: 'Create an account' })).toBeNull();
  });

  it('makes no call that could be refused: every call it makes is public (issue 22 point 12)', async () => {
    const { calls } = mockApi({
      ...REGISTRATION_OPEN,
      'GET /api/get_logo_and_expiry_date': {
        body: { data: { company_name: 'Acme', logo_url: null, background_url: null, expiry_date: null } },
      },
    });
    renderApp('/login');
    await screen.findByRole('link', { name: 'Create an account' });
    expect(calls.map((c) => `${c.method} ${c.path}`).sort()).toEqual([
      'GET /account/registration',
      'GET /api/get_logo_and_expiry_date',
    ]);
    for (const call of calls) expect(guardOf(call), `${call.method} ${call.path}`).toBe('public');
  });

  it.each<['admin' | 'user', AccessType, string, string]>([
    ['admin', 'Auditor', '/admin/category', 'Categories'],
    ['admin', 'User Administration Admin', '/admin/dashboard', 'Administration'],
    ['admin', 'DATAMAX ADMIN', '/admin/license-management', 'Licence management'],
    ['user', 'General staff', '/dashboard', 'Dashboard'],
  ])('signs a %s with %s in and lands on %s', async (role, accessType, path, heading) => {
    const data = aLogin(role, accessType);
    const { calls } = serverLogsIn(data);
    const { user, location } = renderApp('/login');

    await fillAndSubmit(user, { role });

    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
    expect(location()).toBe(path);
    // Signed in: the header's account menu names the person.
    expect(screen.getByRole('button', { name: 'Account: Jane Doe' })).toBeInTheDocument();
    expect(loginCalls(calls)[0]).toMatchObject({
      method: 'POST',
      path: '/api/login',
      body: { username: 'jdoe', password: 'secret-pass', role },
    });
    expect(stored('auth')).toEqual({ data, accountType: data.accountType });
    expect(stored('userData')).toEqual(data.user);
    expect(stored('isCompany2FAEnabled')).toBe(false);
  });

  it('submits with Enter from the password field', async () => {
    serverLogsIn(aLogin('user', 'General staff'));
    const { user } = renderApp('/login');
    await user.type(await screen.findByLabelText('Username or e-mail'), 'jdoe');
    await user.type(screen.getByLabelText('Password'), 'secret-pass{Enter}');
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
  });

  it('goes to the page it was sent from (?redirect=)', async () => {
    serverLogsIn(aLogin('admin', 'COMPANY ADMIN'));
    const { user, location } = renderApp('/login?redirect=%2Fadmin%2Fdashboard');
    await fillAndSubmit(user);
    expect(await screen.findByRole('heading', { level: 1, name: 'Administration' })).toBeInTheDocument();
    expect(location()).toBe('/admin/dashboard');
  });

  it('shows the server message when the login is refused, and stays on /login', async () => {
    mockApi({
      'POST /api/login': {
        status: 401,
        body: { message: 'Invalid username or password', code: 'auth.invalid' },
      },
    });
    const { user, location } = renderApp('/login');
    await fillAndSubmit(user, { password: 'wrong' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid username or password');
    expect(location()).toBe('/login');
    expect(localStorage.getItem('auth')).toBeNull();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeEnabled();
  });

  it('shows "An error occured" when the failure carries no message', async () => {
    mockApi({ 'POST /api/login': { status: 502, body: '<html>Bad gateway</html>' } });
    const { user } = renderApp('/login');
    await fillAndSubmit(user);
    expect(await screen.findByRole('alert')).toHaveTextContent(/^An error occured$/);
  });

  it("shows a 400's field errors beside their fields", async () => {
    mockApi({
      'POST /api/login': invalidInput('body.password', 'Too short', 'Some fields are not valid'),
    });
    const { user } = renderApp('/login');
    await fillAndSubmit(user, { password: 'x' });
    const password = screen.getByLabelText('Password');
    await waitFor(() => expect(password).toHaveAccessibleDescription('Too short'));
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(password).toHaveFocus();
    expect(screen.getByRole('alert')).toHaveTextContent('Some fields are not valid');
  });

  it('asks for the missing fields without calling the server', async () => {
    const { calls } = mockApi({});
    const { user } = renderApp('/login');
    await screen.findByLabelText('Username or e-mail');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Username or e-mail')).toHaveAccessibleDescription(
        'Enter your username or e-mail',
      ),
    );
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Enter your password');
    expect(screen.getByLabelText('Username or e-mail')).toHaveFocus();
    expect(loginCalls(calls)).toHaveLength(0);
  });

  it('refuses a role that leads nowhere and stores nothing', async () => {
    serverLogsIn(aLogin('user', 'DATAMAX ADMIN'));
    const { user, location } = renderApp('/login');
    await fillAndSubmit(user, { role: 'user' });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Invalid role, Try again with the correct role',
    );
    expect(location()).toBe('/login');
    expect(localStorage.length).toBe(0);
  });

  it('sends a user who must set up 2FA to the setup page, not signed in yet', async () => {
    serverLogsIn(aLogin('admin', 'Auditor', { isCompany2FAEnabled: true }));
    const { user, location } = renderApp('/login?redirect=%2Fadmin%2Fdashboard');
    await fillAndSubmit(user);
    await waitFor(() =>
      expect(location()).toBe('/auth/setup-2fa?role=admin&access_type=Auditor&redirect=%2Fadmin%2Fdashboard'),
    );
    expect(localStorage.getItem('auth')).toBeNull();
    expect(stored('temporal_auth')?.data.access_token).toBe('token-123');
    expect(stored('isCompany2FAEnabled')).toBe(true);
  });

  it('sends a user with 2FA to the verification page', async () => {
    serverLogsIn(aLogin('user', 'General staff', { isUser2FAEnabled: true }));
    const { user, location } = renderApp('/login');
    await fillAndSubmit(user, { role: 'user' });
    await waitFor(() => expect(location()).toBe('/auth/verify-2fa?role=user&access_type=General+staff'));
    expect(localStorage.getItem('auth')).toBeNull();
    expect(stored('temporal_auth')).not.toBeNull();
  });

  it('shows the toast passed to it in the navigation state', async () => {
    mockApi({});
    renderApp('/login', { toast: 'Please sign in again' });
    expect(await screen.findByText('Please sign in again')).toBeVisible();
    expect(screen.getByRole('status')).toHaveTextContent('Please sign in again');
  });
});
