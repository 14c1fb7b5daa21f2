import type { TFilterAttributes, TFoundFile, TFoundPage } from '@quire/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { aFoundFile, onePage } from '../../../testing/fixtures';
import { type MockRoutes, signedInApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

const found = (over: Partial<TFoundFile> = {}): TFoundFile =>
  aFoundFile({
    id: 11,
    name: 'board-minutes.txt',
    category: { id: 4, name: 'Minutes' },
    snippet_html: 'The <mark>zephyr</mark> proposal &lt;draft&gt; was accepted',
    ...over,
  });
const page = (items: TFoundFile[]): TFoundPage => onePage(items, { quantity: 100, total_exact: true });
const attributes: TFilterAttributes = { categories: [], fields: [], owners: [], workflow_steps: [] };

function server(routes: MockRoutes) {
  return signedInApi('user', 'General staff', {
    'GET /api/filter-attributes': { body: { data: attributes } },
    ...routes,
  });
}

describe('the search results page', () => {
  it('shows each file found with the matching passage, the match marked and the rest as text', async () => {
    const api = server({ 'GET /api/all-search-files': { body: { data: page([found()]) } } });
    renderApp('/search?q=zephyr');
    const table = await screen.findByRole('grid', { name: 'Files found' }, { timeout: 10_000 });
    const row = within(table).getByRole('row', { name: /board-minutes\.txt/ });
    expect(within(row).getByText('zephyr', { selector: 'mark' })).toBeInTheDocument();
    // Escaped markup from the server stays text, never HTML.
    expect(row).toHaveTextContent('proposal <draft> was accepted');
    expect(row.querySelector('draft')).toBeNull();
    expect(within(row).getByRole('link', { name: /board-minutes\.txt/ })).toHaveAttribute(
      'href',
      '/files/11',
    );
    const call = api.fetchMock.mock.calls.find(([url]) => String(url).includes('/api/all-search-files'));
    expect(new URL(String(call?.[0]), 'http://x').searchParams.get('search')).toBe('zephyr');
  });

  it('opens a hit in a PDF at the page of the match, its words to be marked, and shows its thumbnail', async () => {
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:thumb'), revokeObjectURL: vi.fn() });
    const scan = found({
      id: 14,
      name: 'scanned-delivery.pdf',
      name_html: 'scanned-delivery.pdf',
      mime_type: 'application/pdf',
      snippet_html: 'Second sheet lists the <mark>platypus</mark> order',
      snippet_page: 2,
    });
    const api = server({
      'GET /api/all-search-files': { body: { data: page([scan]) } },
      'GET /api/previews/thumbnail/14': { body: 'png bytes' },
    });
    renderApp('/search?q=platypus');
    const table = await screen.findByRole('grid', { name: 'Files found' }, { timeout: 10_000 });
    const row = within(table).getByRole('row', { name: /scanned-delivery\.pdf/ });
    expect(within(row).getByRole('link', { name: /scanned-delivery\.pdf/ })).toHaveAttribute(
      'href',
      '/files/14?page=2&mark=platypus',
    );
    expect(row).toHaveTextContent('(page 2)');
    // The thumbnail is decorative: an image with alt="", out of the accessible names.
    await waitFor(() =>
      expect(row.querySelector('img.thumbnail__image')).toHaveAttribute('src', 'blob:thumb'),
    );
    expect(row.querySelector('img.thumbnail__image')).toHaveAttribute('alt', '');
    expect(api.calls.filter((c) => c.path === '/api/previews/thumbnail/14')).toHaveLength(1);
    Reflect.deleteProperty(URL, 'createObjectURL');
    Reflect.deleteProperty(URL, 'revokeObjectURL');
  });

  it('asks no thumbnail of a type that has none, and shows the neutral icon', async () => {
    const api = server({ 'GET /api/all-search-files': { body: { data: page([found()]) } } });
    renderApp('/search?q=zephyr');
    const table = await screen.findByRole('grid', { name: 'Files found' }, { timeout: 10_000 });
    const row = within(table).getByRole('row', { name: /board-minutes\.txt/ });
    expect(row.querySelector('.thumbnail svg[aria-hidden="true"]')).not.toBeNull();
    expect(row.querySelector('img')).toBeNull();
    expect(api.calls.some((c) => c.path.startsWith('/api/previews/thumbnail'))).toBe(false);
  });

  it('offers the bulk actions on the files selected', async () => {
    server({
      'GET /api/all-search-files': {
        body: { data: page([found(), found({ id: 12, name: 'budget.xlsx', name_html: 'budget.xlsx' })]) },
      },
    });
    renderApp('/search?q=zephyr');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('checkbox', { name: 'Select All' }, { timeout: 10_000 }));
    const bar = screen.getByRole('toolbar', { name: 'Actions on the selected rows' });
    expect(bar).toHaveTextContent('2 selected');
    for (const name of ['Download', 'Move…', 'Follow', 'Start workflow…', 'Delete…'])
      expect(within(bar).getByRole('button', { name })).toBeEnabled();
  });

  it('filters a number field between the values of its "from" and "to" boxes', async () => {
    const { calls } = server({
      'GET /api/filter-attributes': {
        body: {
          data: { ...attributes, fields: [{ id: 8, name: 'Amount', type: 'number', items: null }] },
        },
      },
      'POST /api/filter-files': { body: { data: page([found()]) } },
    });
    const { user, location } = renderApp('/search?q=zephyr&field=8&min=10');
    const from = await screen.findByRole('spinbutton', { name: 'Amount from' }, { timeout: 10_000 });
    expect(from).toHaveValue(10);
    await user.type(screen.getByRole('spinbutton', { name: 'Amount to' }), '250');
    await waitFor(() => expect(location()).toContain('min=10&max=250'));
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/api/filter-files').at(-1)?.body).toMatchObject({
        search: 'zephyr',
        fields: [{ field_id: 8, min: 10, max: 250 }],
      }),
    );
  });

  it('says so when nothing matches', async () => {
    server({ 'GET /api/all-search-files': { body: { data: page([]) } } });
    renderApp('/search?q=nothing');
    expect(await screen.findByRole('heading', { name: 'No files match' }, { timeout: 10_000 })).toBeVisible();
  });
});

describe('a search asked again from the header', () => {
  it('asks the server again, so a file recognised or indexed meanwhile shows', async () => {
    let answer = page([]);
    const api = server({ 'GET /api/all-search-files': () => ({ body: { data: answer } }) });
    const { user } = renderApp('/search?q=zephyr');
    expect(
      await screen.findByRole('heading', { name: 'No files match' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    answer = page([found()]);
    const search = screen.getByRole('combobox', { name: 'Search files' });
    await user.type(search, 'zephyr{Enter}');
    expect(await screen.findByRole('link', { name: /board-minutes\.txt/ })).toBeInTheDocument();
    const calls = api.fetchMock.mock.calls.filter(([url]) => String(url).includes('/api/all-search-files'));
    expect(calls.length).toBeGreaterThanOrEqual(2);
  });
});
