import type { TNotification } from '@quire/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { onePage } from '../../../testing/fixtures';
import { type MockRoutes, signedInApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

// The notifications page: who did what to which file and when, mark read, clear all after a
// confirmation; reached from the bell's "See all" and the navigation.

const notice = (over: Partial<TNotification> = {}): TNotification => ({
  id: 1,
  kind: 'file.commented',
  title: 'New comment on "budget.xlsx"',
  body: 'By Alice Able',
  file_id: 40,
  link: '/files/40',
  read: false,
  created_at: new Date(Date.now() - 5 * 60_000).toISOString(),
  ...over,
});
const NOTICES = [
  notice(),
  notice({
    id: 2,
    title: '"plan.docx" was locked',
    body: 'By Bob Baker',
    file_id: 41,
    link: '/files/41',
    read: true,
  }),
];
const pageOf = (items: TNotification[], unread: number) => onePage(items, { unread });

function server(routes: MockRoutes = {}) {
  return signedInApi('user', 'General staff', {
    'GET /api/get-notification': { body: { data: pageOf(NOTICES, 1) } },
    ...routes,
  });
}
const sent = (calls: Array<{ method: string; path: string }>, path: string) =>
  calls.filter((c) => c.method === 'POST' && c.path === path).length;

describe('the notifications page', { timeout: 60_000 }, () => {
  it('opens from the bell, and says who did what, when, with a link to the file', async () => {
    server();
    const { user, location } = renderApp('/dashboard');
    await user.click(await screen.findByRole('button', { name: /^Notifications/ }, { timeout: 10_000 }));
    await user.click(screen.getByRole('link', { name: 'See all' }));
    expect(location()).toBe('/notifications');
    const list = await screen.findByRole('list', { name: 'Notifications' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('New comment on "budget.xlsx" (unread)');
    expect(items[0]).toHaveTextContent('By Alice Able · 5 minutes ago');
    expect(within(items[0] as HTMLElement).getByRole('link', { name: /budget\.xlsx/ })).toHaveAttribute(
      'href',
      '/files/40',
    );
    expect(items[1]).toHaveTextContent('By Bob Baker');
    expect(within(items[1] as HTMLElement).queryByRole('button', { name: /Mark read/ })).toBeNull();
    expect(screen.getByText(/1 unread/)).toBeVisible();
  });

  it('is in the navigation, and marks one read', async () => {
    const { calls } = server({
      'POST /api/mark-notification-as-read/1': { body: { data: notice({ read: true }) } },
    });
    const { user } = renderApp('/dashboard');
    const nav = await screen.findByRole('navigation', { name: 'Main' }, { timeout: 10_000 });
    await user.click(within(nav).getByRole('link', { name: 'Notifications' }));
    await user.click(await screen.findByRole('button', { name: 'Mark read: New comment on "budget.xlsx"' }));
    await expect.poll(() => sent(calls, '/api/mark-notification-as-read/1')).toBe(1);
  });

  it('clears them all only after a confirmation', async () => {
    let cleared = false;
    const { calls } = server({
      'GET /api/get-notification': () => ({ body: { data: cleared ? pageOf([], 0) : pageOf(NOTICES, 1) } }),
      'POST /api/clear-notifications': () => {
        cleared = true;
        return { body: { data: { cleared: 2 } } };
      },
    });
    const { user } = renderApp('/notifications');
    await user.click(await screen.findByRole('button', { name: 'Clear all' }, { timeout: 10_000 }));
    const confirm = screen.getByRole('dialog', { name: 'Clear all notifications?' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(sent(calls, '/api/clear-notifications')).toBe(0);
    await user.click(screen.getByRole('button', { name: 'Clear all' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Clear all' }));
    expect(await screen.findByText('2 removed.')).toBeVisible();
    expect(sent(calls, '/api/clear-notifications')).toBe(1);
    expect(await screen.findByText(/No notifications\. Follow a file/)).toBeVisible();
  });

  it("asks before the bell's Clear all too, and says when clearing fails", async () => {
    let fail = true;
    const { calls } = server({
      'POST /api/clear-notifications': () =>
        fail ? { status: 500, body: { message: 'Database down' } } : { body: { data: { cleared: 2 } } },
    });
    const { user } = renderApp('/dashboard');
    await user.click(await screen.findByRole('button', { name: /^Notifications/ }, { timeout: 10_000 }));
    await user.click(screen.getByRole('button', { name: 'Clear all' }));
    const confirm = screen.getByRole('dialog', { name: 'Clear all notifications?' });
    expect(sent(calls, '/api/clear-notifications')).toBe(0);
    await user.click(within(confirm).getByRole('button', { name: 'Clear all' }));
    expect(await screen.findByText('Failed to clear notifications!')).toBeVisible();
    expect(confirm).toBeVisible();
    fail = false;
    await user.click(within(confirm).getByRole('button', { name: 'Clear all' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent(calls, '/api/clear-notifications')).toBe(2);
    expect(screen.queryByText('2 removed.')).toBeNull();
  });
});
