import { notifyManager } from '@tanstack/react-query';
import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../../testing/render-app';
import { ALICE, BOB, ME, page, rowOf, server, usersCalls } from '../testing/users-server';

// The users page (Settings): the list, its search, status filter and pages kept in the
// address; who may open it and who only reads it.

describe('the users page: the list', () => {
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
