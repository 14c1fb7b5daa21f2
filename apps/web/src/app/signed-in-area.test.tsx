import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aBackupSchedule, onePage } from '../testing/fixtures';
import { signedInApi } from '../testing/mock-api';
import { renderApp } from '../testing/render-app';
import { SECTIONS } from './sections';

const EMPTY_PAGE = onePage([]);

/** The heading each page of the signed-in area shows. */
const HEADINGS: Record<string, string> = {
  '/unindexed-files': 'Unindexed files',
  '/files/checked-out': 'Checked out',
  '/files/favourites': 'Favourites',
  '/files/my-deleted': 'My deleted files',
  '/notifications': 'Notifications',
  '/admin/category': 'Categories',
  '/admin/trash': 'Trash',
  '/admin/dashboard': 'Administration',
  '/admin/users': 'Users',
  '/admin/logged-in-users': 'Signed-in users',
  '/admin/groups': 'Groups',
  '/admin/email': 'E-mail',
  '/admin/sign-in-security': 'Sign-in security',
  '/admin/backups': 'Backups',
  '/admin/authentication': 'External authentication',
  '/admin/client-errors': 'Client errors',
};

describe('the whole signed-in area', () => {
  it('opens every page of a Company Admin from the navigation, each from its own chunk, then the profile', async () => {
    const { calls } = signedInApi('admin', 'COMPANY ADMIN', {
      'GET /api/users/all': {
        body: { data: { users: [], page: 1, quantity: 20, total: 0, last_page: 1 } },
      },
      'GET /api/all_group': { body: { data: [] } },
      'GET /api/all_user': { body: { data: [] } },
      'GET /api/logged-in-user': { body: { data: [] } },
      'GET /api/email_setup': { body: { data: null } },
      'GET /api/email/notification': { body: { data: EMPTY_PAGE } },
      'GET /api/sign-in-settings': { body: { data: { require_2fa: false, self_registration: false } } },
      'GET /api/client-errors': { body: { data: EMPTY_PAGE } },
      'GET /api/unindex-file': { body: { data: { ...EMPTY_PAGE, items: [] } } },
      'GET /api/checked-out-files': { body: { data: { ...EMPTY_PAGE, items: [] } } },
      'GET /api/favorite-files': { body: { data: { ...EMPTY_PAGE, items: [] } } },
      'GET /api/files/my-deleted': { body: { data: { ...EMPTY_PAGE, items: [] } } },
      'GET /api/files/trash': { body: { data: { ...EMPTY_PAGE, items: [] } } },
      'GET /api/get-notification': { body: { data: { ...EMPTY_PAGE, items: [], unread: 0 } } },
      'GET /api/backup': {
        body: {
          data: {
            ...EMPTY_PAGE,
            schedule: aBackupSchedule(),
          },
        },
      },
      'GET /api/backup-files': { body: { data: [] } },
      'GET /api/settings/authentication': { body: { data: null } },
      'POST /api/users/is2faenabled': {
        body: { data: { isCompany2FAEnabled: false, isUser2FAEnabled: false } },
      },
    });
    const { user, location } = renderApp('/admin/category');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    const links = within(nav).getAllByRole('link');
    const paths = SECTIONS.filter((s) => s.role !== 'user' && s.area !== 'licence').map((s) => s.path);
    expect(links.map((a) => a.getAttribute('href'))).toEqual(paths);

    for (const path of paths) {
      await user.click(within(nav).getByRole('link', { name: SECTIONS.find((s) => s.path === path)!.label }));
      expect(await screen.findByRole('heading', { level: 1, name: HEADINGS[path] })).toBeInTheDocument();
      expect(location()).toBe(path);
      expect(screen.queryByText('Unexpected Application Error!')).toBeNull();
    }

    await user.click(screen.getByRole('button', { name: /^Account: / }));
    await user.click(screen.getByRole('link', { name: 'Profile' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Profile' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 2, name: 'Change password' })).toBeInTheDocument();
    // Never signed out on the way: no call was refused as unauthenticated.
    expect(location()).toBe('/profile');
    expect(calls.some((c) => c.path === '/api/users/all')).toBe(true);
    // Twenty pages, each loaded and rendered: more than the default 15 s on a busy machine.
  }, 60_000);
});
