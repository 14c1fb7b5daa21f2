import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { onePage } from '../testing/fixtures';
import { signedInApi } from '../testing/mock-api';
import { renderApp } from '../testing/render-app';

const EMPTY_PAGE = onePage([]);

function companyAdmin() {
  return signedInApi('admin', 'COMPANY ADMIN', {
    'GET /api/folders': { body: { data: [] } },
    'GET /api/users/all': { body: { data: { users: [], page: 1, quantity: 20, total: 0, last_page: 1 } } },
    'GET /api/all_group': { body: { data: [] } },
    'GET /api/get-notification': { body: { data: { ...EMPTY_PAGE, unread: 0 } } },
    'GET /api/checked-out-files': { body: { data: EMPTY_PAGE } },
  });
}

const nav = () => screen.getByRole('navigation', { name: 'Main' });
const group = (name: string) => within(nav()).getByRole('button', { name });
const link = (name: string) => within(nav()).queryByRole('link', { name });

describe('the navigation groups', () => {
  it('fold and unfold from the keyboard, stay folded on this device, and unfold on arriving at one of their pages', async () => {
    companyAdmin();
    const { user, location } = renderApp('/admin/users');
    await screen.findByRole('heading', { level: 1, name: 'Users' });
    for (const name of ['Files', 'File Control', 'My work', 'Settings']) {
      expect(group(name)).toHaveAttribute('aria-expanded', 'true');
    }
    expect(link('Users')).toHaveAttribute('aria-current', 'page');

    // Someone who lives in Settings folds the rest: Settings' links move up into sight.
    group('File Control').focus();
    await user.keyboard('{Enter}');
    expect(group('File Control')).toHaveAttribute('aria-expanded', 'false');
    expect(link('Trash')).not.toBeInTheDocument();
    await user.click(group('Files'));
    expect(link('Checked out')).not.toBeInTheDocument();
    expect(link('Client errors')).toBeVisible();
    expect(JSON.parse(localStorage.getItem('navFolded') ?? '[]')).toEqual(['File Control', 'Files']);

    // Another page keeps them folded.
    await user.click(link('Groups') as HTMLElement);
    expect(await screen.findByRole('heading', { level: 1, name: 'Groups' })).toBeInTheDocument();
    expect(group('File Control')).toHaveAttribute('aria-expanded', 'false');

    // Space unfolds one again.
    group('Files').focus();
    await user.keyboard(' ');
    expect(link('Checked out')).toBeVisible();
    await user.click(link('Checked out') as HTMLElement);
    expect(await screen.findByRole('heading', { level: 1, name: 'Checked out' })).toBeInTheDocument();
    expect(location()).toBe('/files/checked-out');
  }, 30_000);

  it('unfold the group of the page arrived at, though it was folded', async () => {
    localStorage.setItem('navFolded', JSON.stringify(['Settings', 'Files']));
    companyAdmin();
    renderApp('/admin/users');
    await screen.findByRole('heading', { level: 1, name: 'Users' });
    expect(group('Settings')).toHaveAttribute('aria-expanded', 'true');
    expect(link('Users')).toHaveAttribute('aria-current', 'page');
    expect(group('Files')).toHaveAttribute('aria-expanded', 'false');
    expect(JSON.parse(localStorage.getItem('navFolded') ?? '[]')).toEqual(['Files']);
  });
});

describe('the header', () => {
  it('names its widgets once: the search box, the search icon, the user menu', async () => {
    companyAdmin();
    const { user } = renderApp('/admin/users');
    await screen.findByRole('heading', { level: 1, name: 'Users' });
    // The page's own <header> counts as a banner in jsdom too: the frame's comes first.
    const header = screen.getAllByRole('banner')[0] as HTMLElement;
    expect(within(header).getByRole('combobox')).toHaveAccessibleName('Search files');
    const searchIcon = within(header).getByRole('button', { name: 'Open search' });
    expect(searchIcon).toHaveAttribute('aria-expanded', 'false');
    await user.click(searchIcon);
    expect(within(header).getByRole('button', { name: 'Close search' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    expect(within(header).getByRole('combobox', { name: 'Search files' })).toHaveFocus();
    expect(within(header).getByRole('button', { name: 'Account: Jane Doe' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
  });

  it("opens the narrow screen's navigation drawer with the focus in it, and closes it with Esc", async () => {
    companyAdmin();
    const { user } = renderApp('/admin/users');
    const menu = await screen.findByRole('button', { name: 'Menu' });
    await user.click(menu);
    expect(screen.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true');
    expect(nav()).not.toHaveClass('nav--folded');
    expect(group('Files')).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(nav()).toHaveClass('nav--folded');
    expect(screen.getByRole('button', { name: 'Menu' })).toHaveFocus();
  });

  it('opens the user menu and closes it with Esc, the focus back on its button', async () => {
    companyAdmin();
    const { user } = renderApp('/admin/users');
    const button = await screen.findByRole('button', { name: 'Account: Jane Doe' });
    await user.click(button);
    const menu = screen.getByRole('region', { name: 'Signed in as' });
    expect(within(menu).getByRole('link', { name: 'Profile' })).toBeVisible();
    expect(within(menu).getByRole('button', { name: 'Sign out' })).toBeVisible();
    within(menu).getByRole('radio', { name: 'Dark' }).focus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('region', { name: 'Signed in as' })).not.toBeInTheDocument();
    expect(button).toHaveFocus();
  });
});

/** A system preference the test controls, as matchMedia reports it. */
function systemPrefers(dark: boolean) {
  const listeners = new Set<() => void>();
  const query = {
    get matches() {
      return dark;
    },
    media: '(prefers-color-scheme: dark)',
    addEventListener: (_: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
  };
  vi.stubGlobal('matchMedia', () => query);
  return {
    change(toDark: boolean) {
      dark = toDark;
      for (const listener of listeners) listener();
    },
  };
}

describe('the theme switch', () => {
  afterEach(() => {
    delete document.documentElement.dataset.theme;
  });

  it('is stored on the device, applied at once, and follows the system when System', async () => {
    const system = systemPrefers(false);
    companyAdmin();
    const { user } = renderApp('/admin/users');
    await user.click(await screen.findByRole('button', { name: 'Account: Jane Doe' }));
    const theme = within(screen.getByRole('group', { name: 'Theme' }));
    expect(theme.getByRole('radio', { name: 'System' })).toBeChecked();

    await user.click(theme.getByRole('radio', { name: 'Dark' }));
    expect(document.documentElement).toHaveAttribute('data-theme', 'dark');
    expect(localStorage.getItem('theme')).toBe('"dark"');
    // The system's setting does not matter while a theme is chosen.
    system.change(false);
    expect(document.documentElement).toHaveAttribute('data-theme', 'dark');

    await user.click(theme.getByRole('radio', { name: 'Light' }));
    expect(document.documentElement).toHaveAttribute('data-theme', 'light');
    expect(localStorage.getItem('theme')).toBe('"light"');

    await user.click(theme.getByRole('radio', { name: 'System' }));
    expect(localStorage.getItem('theme')).toBeNull();
    expect(document.documentElement).toHaveAttribute('data-theme', 'light');
    system.change(true);
    expect(document.documentElement).toHaveAttribute('data-theme', 'dark');
    system.change(false);
    expect(document.documentElement).toHaveAttribute('data-theme', 'light');
  });

  it('shows the stored choice when the menu opens', async () => {
    systemPrefers(false);
    localStorage.setItem('theme', '"dark"');
    companyAdmin();
    const { user } = renderApp('/admin/users');
    await user.click(await screen.findByRole('button', { name: 'Account: Jane Doe' }));
    expect(screen.getByRole('radio', { name: 'Dark' })).toBeChecked();
  });
});
