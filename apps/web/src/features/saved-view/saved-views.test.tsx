import type { TFilterAttributes, TFoundPage, TSavedView } from '@quire/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { invalidInput, type MockRoutes, signedInApi } from '../../testing/mock-api';
import { renderApp } from '../../testing/render-app';
import { COUNTED } from './components/pinned-views';

// Saved views: saved from the search page by name (pinned or not), listed there to open,
// rename, pin or unpin, move and delete (asking first), and pinned ones on the dashboard
// with their hit counts, opening the search by a click.

const view = (over: Partial<TSavedView> & Pick<TSavedView, 'id' | 'name'>): TSavedView => ({
  query: { search: 'invoice', include_subcategories: true, fields: [] },
  pinned: false,
  position: 0,
  created_at: '2026-11-20T10:00:00Z',
  updated_at: '2026-11-20T10:00:00Z',
  ...over,
});
const VIEWS = [
  view({
    id: 1,
    name: 'Open invoices',
    pinned: true,
    query: { search: 'invoice', category_id: 4, locked: false, include_subcategories: true, fields: [] },
  }),
  view({
    id: 2,
    name: 'Contracts',
    position: 1,
    query: { search: 'contract', include_subcategories: true, fields: [] },
  }),
  view({
    id: 3,
    name: 'Approved',
    pinned: true,
    position: 2,
    query: { include_subcategories: true, fields: [{ field_id: 12, keys: [5] }] },
  }),
];
const found = (total: number, exact = true): TFoundPage => ({
  page: 1,
  quantity: 1,
  total,
  last_page: total,
  items: [],
  total_exact: exact,
});
const attributes: TFilterAttributes = {
  categories: [{ id: 4, name: 'Invoices', parent_id: null }],
  fields: [],
  owners: [],
  workflow_steps: [],
};

function server(routes: MockRoutes = {}) {
  return signedInApi('user', 'General staff', {
    'GET /api/filter-attributes': { body: { data: attributes } },
    'GET /api/saved-views': { body: { data: { items: VIEWS } } },
    'POST /api/filter-files': (call) => ({
      body: { data: found((call.body as { search?: string }).search === 'invoice' ? 12 : 10000, false) },
    }),
    'GET /api/all-search-files': { body: { data: found(0) } },
    ...routes,
  });
}

/** The region `name`, once its list has arrived. */
async function loaded(name: string) {
  const region = await screen.findByRole('region', { name }, { timeout: 10_000 });
  await within(region).findAllByRole('listitem');
  return region;
}
const panel = () => loaded('Saved views');

describe('saving a search', () => {
  it('saves the search shown, filters and all, by name and pinned to the dashboard', async () => {
    const { calls } = server({
      'POST /api/saved-views': (call) => ({
        body: {
          message: 'View "Open invoices" saved',
          data: view({ id: 9, name: (call.body as { name: string }).name, pinned: true }),
        },
      }),
    });
    const { user } = renderApp('/search?q=invoice&category=4&locked=0');
    await user.click(await screen.findByRole('button', { name: 'Save view…' }, { timeout: 10_000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Save view' });
    expect(within(dialog).getByLabelText('Name')).toHaveFocus();
    await user.type(within(dialog).getByLabelText('Name'), 'Open invoices');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Pin to dashboard' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save view' }));
    expect(await screen.findByText('View saved')).toBeVisible();
    expect(screen.queryByRole('dialog', { name: 'Save view' })).toBeNull();
    expect(
      calls.filter((c) => c.method === 'POST' && c.path === '/api/saved-views').map((c) => c.body),
    ).toEqual([
      { name: 'Open invoices', pinned: true, query: { category_id: 4, locked: false, search: 'invoice' } },
    ]);
    // The list is asked again, to show the new view.
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'GET' && c.path === '/api/saved-views').length).toBeGreaterThan(
        1,
      ),
    );
  });

  it('shows a name already used at the name field, and keeps the dialog', async () => {
    server({
      'POST /api/saved-views': invalidInput('body.name', 'You already have a view with this name'),
    });
    const { user } = renderApp('/search?q=invoice');
    await user.click(await screen.findByRole('button', { name: 'Save view…' }, { timeout: 10_000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Save view' });
    await user.type(within(dialog).getByLabelText('Name'), 'Contracts');
    await user.click(within(dialog).getByRole('button', { name: 'Save view' }));
    await waitFor(() =>
      expect(within(dialog).getByLabelText('Name')).toHaveAccessibleDescription(
        'You already have a view with this name',
      ),
    );
    expect(screen.getByRole('dialog', { name: 'Save view' })).toBeVisible();
  });

  it('asks for a name before sending, and offers nothing to save before a search', async () => {
    const { calls } = server();
    const { user } = renderApp('/search');
    await panel();
    expect(screen.queryByRole('button', { name: 'Save view…' })).toBeNull();
    await user.type(screen.getByLabelText('Search'), 'budget{Enter}');
    await user.click(await screen.findByRole('button', { name: 'Save view…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save view' });
    await user.click(within(dialog).getByRole('button', { name: 'Save view' }));
    expect(await within(dialog).findByText('Enter a name for the view')).toBeVisible();
    expect(calls.some((c) => c.method === 'POST' && c.path === '/api/saved-views')).toBe(false);
  });
});

describe('the saved views on the search page', () => {
  it('opens a view: the search with its query', async () => {
    server();
    const { user, location } = renderApp('/search');
    const list = await panel();
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      expect.stringContaining('Open invoices'),
      expect.stringContaining('Contracts'),
      expect.stringContaining('Approved'),
    ]);
    expect(within(list).getByRole('link', { name: 'Open invoices' })).not.toHaveAttribute('aria-current');
    await user.click(within(list).getByRole('link', { name: 'Open invoices' }));
    expect(location()).toBe('/search?q=invoice&category=4&locked=0');
    expect(await screen.findByRole('heading', { level: 1, name: 'Search: invoice' })).toBeVisible();
    // The view shown is marked as the current one.
    expect(within(list).getByRole('link', { name: 'Open invoices' })).toHaveAttribute('aria-current', 'page');
    expect(within(list).getByRole('link', { name: 'Contracts' })).not.toHaveAttribute('aria-current');
  });

  it('renames, pins, unpins and moves a view, each with one call', async () => {
    const { calls } = server({
      'PATCH /api/saved-views/2': (call) => ({
        body: { data: view({ id: 2, name: 'Contracts', ...(call.body as object) }) },
      }),
      'PATCH /api/saved-views/1': { body: { data: view({ id: 1, name: 'Open invoices' }) } },
    });
    const { user } = renderApp('/search');
    const list = await panel();
    const patches = () => calls.filter((c) => c.method === 'PATCH').map((c) => [c.path, c.body]);

    await user.click(within(list).getByRole('button', { name: 'Actions for Contracts' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Rename Contracts' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename Contracts' });
    await user.clear(within(dialog).getByLabelText('Name'));
    await user.type(within(dialog).getByLabelText('Name'), 'Signed contracts');
    await user.click(within(dialog).getByRole('button', { name: 'Rename' }));
    expect(await screen.findByText('View renamed')).toBeVisible();

    await user.click(within(list).getByRole('button', { name: 'Actions for Contracts' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Pin Contracts to the dashboard' }));
    expect(await screen.findByText('View pinned')).toBeVisible();

    await user.click(within(list).getByRole('button', { name: 'Actions for Contracts' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Move Contracts up' }));
    expect(await screen.findByText('View moved')).toBeVisible();

    await user.click(within(list).getByRole('button', { name: 'Actions for Open invoices' }));
    expect(screen.queryByRole('menuitem', { name: 'Move Open invoices up' })).toBeNull();
    await user.click(await screen.findByRole('menuitem', { name: 'Unpin Open invoices from the dashboard' }));
    expect(await screen.findByText('View unpinned')).toBeVisible();

    expect(patches()).toEqual([
      ['/api/saved-views/2', { name: 'Signed contracts' }],
      ['/api/saved-views/2', { pinned: true }],
      ['/api/saved-views/2', { position: 0 }],
      ['/api/saved-views/1', { pinned: false }],
    ]);
  });

  it('gives a view the search shown, and offers it only when the search differs', async () => {
    const { calls } = server({
      'PATCH /api/saved-views/2': { body: { data: view({ id: 2, name: 'Contracts' }) } },
    });
    const { user } = renderApp('/search?q=contract&owner=7');
    const list = await panel();
    await user.click(within(list).getByRole('button', { name: 'Actions for Contracts' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Save the search shown into Contracts' }));
    expect(await screen.findByText('Contracts now opens the search shown.')).toBeVisible();
    expect(calls.filter((c) => c.method === 'PATCH').map((c) => [c.path, c.body])).toEqual([
      ['/api/saved-views/2', { query: { owner_id: 7, search: 'contract' } }],
    ]);
    // On a view's own search there is nothing to give it.
    await user.click(within(list).getByRole('link', { name: 'Open invoices' }));
    await user.click(within(list).getByRole('button', { name: 'Actions for Open invoices' }));
    expect(await screen.findByRole('menuitem', { name: 'Rename Open invoices' })).toBeVisible();
    expect(screen.queryByRole('menuitem', { name: 'Save the search shown into Open invoices' })).toBeNull();
  });

  it('asks before deleting a view; Cancel keeps it', async () => {
    const { calls } = server({ 'DELETE /api/saved-views/3': { body: { data: { id: 3 } } } });
    const { user } = renderApp('/search');
    const list = await panel();
    await user.click(within(list).getByRole('button', { name: 'Actions for Approved' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete Approved' }));
    let confirm = await screen.findByRole('dialog', { name: 'Delete Approved' });
    expect(confirm).toHaveTextContent('leaves your dashboard');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    await user.click(within(list).getByRole('button', { name: 'Actions for Approved' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete Approved' }));
    confirm = await screen.findByRole('dialog', { name: 'Delete Approved' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('View deleted')).toBeVisible();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/api/saved-views/3']);
  });
});

describe('the pinned views on the dashboard', () => {
  it('lists the pinned views with their hit counts, and opens one by a click', async () => {
    server();
    const { user, location } = renderApp('/dashboard');
    const pinned = await loaded('Pinned views');
    expect(within(pinned).queryByRole('link', { name: 'Contracts' })).toBeNull();
    const items = within(pinned).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    await waitFor(() => expect(items[0]).toHaveTextContent('Open invoices12+ files'));
    await waitFor(() => expect(items[1]).toHaveTextContent('Approved10000+ files'));
    await user.click(within(pinned).getByRole('link', { name: 'Approved' }));
    expect(location()).toBe('/search?field=12&keys=5');
    expect(await screen.findByRole('heading', { level: 1, name: 'Find files' })).toBeVisible();
  });

  it(`counts the hits of the first ${COUNTED} pinned views only`, async () => {
    const many = Array.from({ length: COUNTED + 2 }, (_, i) =>
      view({
        id: 100 + i,
        name: `View ${i + 1}`,
        pinned: true,
        position: i,
        query: { search: `word${i}`, include_subcategories: true, fields: [] },
      }),
    );
    const { calls } = server({ 'GET /api/saved-views': { body: { data: { items: many } } } });
    renderApp('/dashboard');
    const pinned = await loaded('Pinned views');
    expect(within(pinned).getAllByRole('listitem')).toHaveLength(COUNTED + 2);
    await waitFor(() => expect(within(pinned).getAllByText('10000+ files')).toHaveLength(COUNTED));
    expect(calls.filter((c) => c.path === '/api/filter-files')).toHaveLength(COUNTED);
  });

  it('says how to pin a view when none is pinned', async () => {
    server({ 'GET /api/saved-views': { body: { data: { items: [] } } } });
    renderApp('/dashboard');
    const pinned = await screen.findByRole('region', { name: 'Pinned views' }, { timeout: 10_000 });
    expect(await within(pinned).findByText(/pin it to see it here/)).toBeVisible();
    expect(within(pinned).getByRole('link', { name: 'Find files' })).toHaveAttribute('href', '/search');
  });
});
