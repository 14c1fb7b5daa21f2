import type { TCategoryFilesPage } from '@quire/contract';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aFileSummary } from '../../../testing/file-fixtures';
import { signIn } from '../../../testing/fixtures';
import { mockApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

// The category's file list pages Next by the cursor of the page before (keyset paging, an
// extension of fileIncategory), any other page by its number.

const owner = { id: 7, name: 'Olive Owner', username: 'olive' };
const CURSORS = ['1767225600000.30', '1767139200000.10'];
const answer = (page: number): TCategoryFilesPage => ({
  page,
  quantity: 20,
  total: 50,
  last_page: 3,
  folder: { id: 4, name: 'Invoices' },
  columns: [],
  items: [{ ...aFileSummary(page, `page ${page}.pdf`, { owner }), values: [] }],
  next_cursor: CURSORS[page - 1] ?? null,
});

describe('the category files page, paged', { timeout: 40_000 }, () => {
  it('asks Next by next_cursor, Previous and the first page by number', async () => {
    const api = mockApi({
      'GET /api/user/current': { body: { data: signIn('user', 'General staff').user } },
      'GET /api/fileCategories': { body: { data: [] } },
      'GET /api/fileIncategory/4': (call) => {
        const q = new URLSearchParams(call.search);
        return { body: { data: answer(Number(q.get('page') ?? 1)) } };
      },
    });
    const listCalls = () =>
      api.fetchMock.mock.calls
        .map(([url]) => new URL(String(url), 'http://x'))
        .filter((u) => u.pathname === '/api/fileIncategory/4')
        .map((u) => `${u.searchParams.get('page') ?? ''}:${u.searchParams.get('cursor') ?? ''}`);
    const { user } = renderApp('/files/category/4');
    expect(await screen.findByRole('link', { name: 'page 1.pdf' }, { timeout: 10_000 })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('link', { name: 'page 2.pdf' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Next' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('link', { name: 'page 3.pdf' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Previous' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(await screen.findByRole('link', { name: 'page 2.pdf' })).toBeInTheDocument();
    expect(listCalls()).toEqual(['1:', `2:${CURSORS[0]}`, `3:${CURSORS[1]}`, '2:']);
  });
});
