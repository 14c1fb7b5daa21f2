import type { TCategoryFilesPage, TFileSummary } from '@quire/contract';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { signIn } from '../../../testing/fixtures';
import { type MockRoutes, mockApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

const person = { id: 7, name: 'Olive Owner', username: 'olive' };
const file = (id: number, name: string): TFileSummary => ({
  id,
  name,
  folder_id: 4,
  folder_name: 'Invoices',
  index_status: 'indexed',
  incremental: `INV-${id}`,
  owner: person,
  mime_type: 'application/pdf',
  size: 2048,
  version: 1,
  locked_by: null,
  checked_out_by: null,
  created_at: '2026-01-10T10:00:00Z',
  updated_at: '2026-01-10T10:00:00Z',
});
const page = (items: TFileSummary[]): TCategoryFilesPage => ({
  page: 1,
  quantity: 20,
  total: items.length,
  last_page: 1,
  folder: { id: 4, name: 'Invoices' },
  columns: [],
  items: items.map((f) => ({ ...f, values: [] })),
});

function server(routes: MockRoutes = {}) {
  const data = signIn('user', 'General staff');
  return mockApi({ 'GET /api/user/current': { body: { data: data.user } }, ...routes });
}

describe('the category files page', () => {
  it('lists the files, and a new search cancels the request before it', async () => {
    let release: (() => void) | undefined;
    const api = server({
      'GET /api/fileIncategory/4': async (call) => {
        const search = new URLSearchParams(call.search).get('search');
        if (search === 'b') await new Promise<void>((r) => (release = r)); // a slow answer
        return {
          body: { data: page(search ? [file(2, 'beta.pdf')] : [file(1, 'alpha.pdf'), file(2, 'beta.pdf')]) },
        };
      },
    });
    const { user } = renderApp('/files/category/4');
    expect(await screen.findByRole('link', { name: 'alpha.pdf' }, { timeout: 10_000 })).toBeInTheDocument();
    await user.type(screen.getByLabelText('Search'), 'be');
    await waitFor(() => expect(screen.queryByRole('link', { name: 'alpha.pdf' })).not.toBeInTheDocument());
    expect(screen.getByRole('link', { name: 'beta.pdf' })).toBeInTheDocument();
    const searchCalls = api.fetchMock.mock.calls.filter(
      ([url]) => String(url).includes('search=b&') || String(url).endsWith('search=b'),
    );
    expect(searchCalls).toHaveLength(1);
    const init = searchCalls[0]?.[1] as RequestInit | undefined;
    expect(init?.signal?.aborted).toBe(true);
    release?.();
  });
});

describe('the upload page', () => {
  it('uploads each file with folder_id first, then goes to the unindexed files of the category', async () => {
    const api = server({
      'POST /api/new-upload': { body: { data: { folder_id: 4, files: [file(9, 'scan.pdf')] } } },
      'GET /api/unindex-file': {
        body: { data: { page: 1, quantity: 20, total: 1, last_page: 1, items: [file(9, 'scan.pdf')] } },
      },
    });
    const { user, location, locationState } = renderApp('/files/upload/4');
    await screen.findByText('Drop files here', {}, { timeout: 10_000 });
    const input = document.querySelector('input[type="file"]');
    await user.upload(
      input as HTMLInputElement,
      new File(['%PDF-1.7'], 'scan.pdf', { type: 'application/pdf' }),
    );
    await waitFor(() => expect(location()).toBe('/unindexed-files'));
    expect(locationState()).toEqual({ categoryId: 4 });
    const sent = api.calls.find((c) => c.path === '/api/new-upload');
    // Object.fromEntries keeps the form's order: the field comes before the file.
    expect(Object.keys(sent?.body as object)).toEqual(['folder_id', 'file']);
    expect((sent?.body as { folder_id?: string } | undefined)?.folder_id).toBe('4');
    expect(await screen.findByRole('button', { name: 'Index scan.pdf' })).toBeInTheDocument();
    const list = api.calls.find((c) => c.path === '/api/unindex-file');
    expect(list?.search).toContain('folder_id=4');
  });
});
