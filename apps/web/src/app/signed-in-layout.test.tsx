import type { AccessType } from '@quire/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { authRecordFrom, setIsUser2FAVerified, setSelectedCategoryId, setTemporalAuth } from '../lib/storage';
import { aLogin, signIn } from '../testing/fixtures';
import { type MockRoutes, mockApi, signedInApi } from '../testing/mock-api';
import { renderApp } from '../testing/render-app';

function serverKnows(role: 'admin' | 'user', accessType: AccessType) {
  const data = signIn(role, accessType);
  return {
    data,
    ...mockApi({
      'GET /api/user/current': { body: { data: data.user } },
      'POST /api/logout': { body: { data: null } },
      'GET /api/folders': { body: { data: [] } },
    }),
  };
}

const FILES_LINKS = ['Unindexed files', 'Checked out', 'Favourites', 'My deleted files', 'Notifications'];
const SETTINGS_LINKS = [
  'Administration',
  'Users',
  'Signed-in users',
  'Groups',
  'E-mail',
  'Company setup',
  'Sign-in security',
  'Backups',
  'External authentication',
  'Audit trail',
  'Client errors',
];
const FILE_CONTROL_LINKS = [
  'Categories',
  'Category groups',
  'Metadata fields',
  'Value lists',
  'Workflows',
  'Trash',
  'Retention',
  'Intake',
];

/** Every link of the navigation, each folded group opened first. */
async function navLinks(user: ReturnType<typeof renderApp>['user']) {
  const nav = screen.getByRole('navigation', { name: 'Main' });
  for (const group of within(nav).queryAllByRole('button', { expanded: false })) await user.click(group);
  return within(nav)
    .getAllByRole('link')
    .map((a) => a.textContent);
}

/** Opens the header's user menu (who is signed in, Profile, theme, Sign out). */
const openAccountMenu = async (user: ReturnType<typeof renderApp>['user']) =>
  user.click(await screen.findByRole('button', { name: /^Account: / }));

const UNAUTHENTICATED = {
  status: 401,
  body: { message: 'You are not authenticated, Please login' },
} as const;

/** The session ended: the sign-in page at `at` (the way back in it), the stored session gone, and why. */
async function expectSessionEnded(location: () => string, at: string) {
  expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
  expect(location()).toBe(at);
  expect(localStorage.getItem('auth')).toBeNull();
  expect(await screen.findByText('Your session has ended, please sign in again')).toBeVisible();
}

describe('signed-in pages', () => {
  it('send a visitor who is not signed in to /login?redirect=<path>', async () => {
    mockApi({});
    const { location } = renderApp('/admin/category');
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(location()).toBe('/login?redirect=%2Fadmin%2Fcategory');
  });

  it('show who is signed in, with the navigation of their role only', async () => {
    const { calls } = serverKnows('admin', 'COMPANY ADMIN');
    const { user } = renderApp('/admin/category');
    expect(await screen.findByRole('heading', { level: 1, name: 'Categories' })).toBeInTheDocument();
    await openAccountMenu(user);
    const account = screen.getByRole('region', { name: 'Signed in as' });
    expect(account).toHaveTextContent('Jane Doe');
    expect(account).toHaveTextContent('jdoe');
    expect(account).toHaveTextContent('Company Admin');
    expect(await navLinks(user)).toEqual([
      ...FILES_LINKS,
      ...FILE_CONTROL_LINKS,
      'Assigned to me',
      ...SETTINGS_LINKS,
    ]);
    expect(screen.getByRole('link', { name: 'Categories' })).toHaveAttribute('aria-current', 'page');
    await waitFor(() => expect(calls.map((c) => c.path)).toContain('/api/user/current'));
    expect(calls[0]?.headers.authorization).toBe('Bearer token-123');
  });

  it('marks Profile as the current page on /profile, and folds the menu on a narrow screen', async () => {
    serverKnows('admin', 'COMPANY ADMIN');
    const { user } = renderApp('/admin/category');
    await screen.findByRole('heading', { level: 1, name: 'Categories' });
    const toggle = screen.getByRole('button', { name: 'Menu' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByRole('navigation', { name: 'Main' })).toHaveClass('nav--folded');
    await user.click(toggle);
    expect(screen.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('navigation', { name: 'Main' })).not.toHaveClass('nav--folded');
    await openAccountMenu(user);
    await user.click(screen.getByRole('link', { name: 'Profile' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Profile' })).toBeInTheDocument();
    // A new page folds the menu, and the user menu, again.
    expect(screen.queryByRole('link', { name: 'Profile' })).not.toBeInTheDocument();
    await openAccountMenu(user);
    expect(screen.getByRole('link', { name: 'Profile' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('button', { name: 'Menu' })).toHaveAttribute('aria-expanded', 'false');
  });

  it.each<['admin' | 'user', AccessType, string[]]>([
    ['user', 'General staff', ['Dashboard', 'Categories', 'Assigned to me', ...FILES_LINKS]],
    ['admin', 'File Control Admin', [...FILES_LINKS, ...FILE_CONTROL_LINKS, 'Assigned to me']],
    ['admin', 'User Administration Admin', [...FILES_LINKS, 'Assigned to me', ...SETTINGS_LINKS]],
    ['admin', 'Auditor', [...FILES_LINKS, ...FILE_CONTROL_LINKS, 'Assigned to me', ...SETTINGS_LINKS]],
    ['admin', 'DATAMAX ADMIN', ['Licence management']],
  ])('list for a %s with %s: %j', async (role, accessType, links) => {
    serverKnows(role, accessType);
    const { user } = renderApp(role === 'user' ? '/dashboard' : '/admin/category');
    await screen.findByRole('heading', { level: 1 });
    expect(await navLinks(user)).toEqual(links);
  });

  it("send someone on another role's page to their own landing page, and say why", async () => {
    serverKnows('user', 'General staff');
    const { location } = renderApp('/admin/license-management');
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    expect(location()).toBe('/dashboard');
    expect(await screen.findByRole('alert')).toHaveTextContent('That page is not open to your account');
  });

  it('do not open for a login still waiting for its second factor: back to that step, saying so', async () => {
    mockApi({});
    setTemporalAuth(authRecordFrom(aLogin('user', 'General staff', { isUser2FAEnabled: true })));
    const { location } = renderApp('/dashboard');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Two-factor verification' }),
    ).toBeInTheDocument();
    expect(location()).toBe('/auth/verify-2fa?role=user&access_type=General+staff&redirect=%2Fdashboard');
    expect(await screen.findByText('Finish signing in with your authenticator app first')).toBeVisible();
  });

  it('say why a visitor who is not signed in lands on /login', async () => {
    mockApi({});
    renderApp('/admin/users');
    expect(await screen.findByText('Sign in to open that page')).toBeVisible();
  });

  it('end the session on any call answered 401, on that failed load, and go to /login', async () => {
    signedInApi('admin', 'COMPANY ADMIN', {
      'GET /api/all_group': UNAUTHENTICATED,
    });
    await expectSessionEnded(renderApp('/admin/groups').location, '/login?redirect=%2Fadmin%2Fgroups');
  });

  it('send an ended session back to /login and forget it', async () => {
    signIn('admin', 'Auditor');
    mockApi({
      'GET /api/user/current': UNAUTHENTICATED,
    });
    await expectSessionEnded(renderApp('/admin/category').location, '/login?redirect=%2Fadmin%2Fcategory');
  });

  it('toast "Failed to load user" when the user cannot be loaded for another reason', async () => {
    signIn('admin', 'Auditor');
    mockApi({
      'GET /api/user/current': { status: 500, body: { message: 'Database is down' } },
      'GET /api/folders': { body: { data: [] } },
    });
    renderApp('/admin/category');
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load userDatabase is down');
    expect(screen.getByRole('heading', { level: 1, name: 'Categories' })).toBeInTheDocument();
  });
});

describe('Sign out', () => {
  async function signOut(logoutReply: NonNullable<MockRoutes['POST /api/logout']>) {
    const data = signIn('admin', 'Auditor');
    setIsUser2FAVerified(true);
    setTemporalAuth(authRecordFrom(data));
    setSelectedCategoryId(4);
    const { calls } = mockApi({
      'GET /api/user/current': { body: { data: data.user } },
      'POST /api/logout': logoutReply,
    });
    const app = renderApp('/admin/category');
    await openAccountMenu(app.user);
    await app.user.click(await screen.findByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('link', { name: 'Sign in' })).toBeInTheDocument();
    return { ...app, calls };
  }

  function expectSignedOut() {
    for (const key of ['auth', 'temporal_auth', 'isCompany2FAEnabled', 'isUser2FAVerified', 'userData']) {
      expect(localStorage.getItem(key)).toBeNull();
    }
  }

  it('leaves the messages of the signed-in pages behind: only the sign-out message shows on /', async () => {
    signedInApi('admin', 'Auditor', {
      'POST /api/logout': { status: 200, body: { message: 'You have been signed out', data: null } },
    });
    const app = renderApp('/admin/category');
    await openAccountMenu(app.user);
    const signOutButton = await screen.findByRole('button', { name: 'Sign out' });
    act(() => app.notifications.success('2FA verified successfully!'));
    expect(screen.getByText('2FA verified successfully!')).toBeInTheDocument();
    await app.user.click(signOutButton);
    expect(await screen.findByText('You have been signed out')).toBeVisible();
    expect(screen.queryByText('2FA verified successfully!')).not.toBeInTheDocument();
  });

  it('tells the server, clears the session and lands on / with a message', async () => {
    const { calls, location } = await signOut({
      status: 200,
      body: { message: 'You have been signed out', data: null },
    });
    expect(location()).toBe('/');
    expect(await screen.findByText('You have been signed out')).toBeVisible();
    expect(screen.getByRole('status')).toHaveTextContent('You have been signed out');
    expect(calls.find((c) => c.path === '/api/logout')).toMatchObject({
      method: 'POST',
      headers: { authorization: 'Bearer token-123' },
    });
    expectSignedOut();
    expect(localStorage.getItem('selectedCategoryId')).toBe('4');
  });

  it('signs out all the same when the server call fails', async () => {
    const { location } = await signOut({ status: 500, body: { message: 'Server error' } });
    expect(location()).toBe('/');
    expect(await screen.findByText('You have been signed out')).toBeVisible();
    expect(screen.getByRole('status')).toHaveTextContent('You have been signed out');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expectSignedOut();
  });
});
