import type { TCategoryFilesPage, TCategoryOption, TFileSummary } from '@quire/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aFileSummary } from '../../../testing/file-fixtures';
import { aCategoryOption, onePage } from '../../../testing/fixtures';
import { type MockRoutes, signedInApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

const person = { id: 7, name: 'Olive Owner', username: 'olive' };
const file = (id: number, name: string) => aFileSummary(id, name, { owner: person });
const page = (items: TFileSummary[]): TCategoryFilesPage =>
  onePage(
    items.map((f) => ({ ...f, values: [] })),
    { folder: { id: 4, name: 'Invoices' }, columns: [] },
  );

const RIGHTS = { view: true, upload: true, edit: false, delete: false, share: false, manage: false };
/** The categories the person may upload into (GET /api/fileCategories?right=upload). */
const uploadable = (...folders: Array<{ id: number; name: string }>): TCategoryOption[] =>
  folders.map((f) => aCategoryOption({ ...f, rights: RIGHTS }));

function server(routes: MockRoutes = {}) {
  return signedInApi('user', 'General staff', {
    'GET /api/fileCategories': { body: { data: uploadable({ id: 4, name: 'Invoices' }) } },
    ...routes,
  });
}
const pdf = (name: string) => new File(['%PDF-1.7'], name, { type: 'application/pdf' });
const uploaded = (id: number, name: string) => ({
  body: { data: { folder_id: 4, files: [{ ...file(id, name), index_status: 'unindexed' as const }] } },
});

describe('the category files page', { timeout: 40_000 }, () => {
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
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'be');
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

describe('the upload page', { timeout: 40_000 }, () => {
  it('uploads each file with folder_id first, then goes to the unindexed files of the category', async () => {
    const api = server({
      'POST /api/new-upload': { body: { data: { folder_id: 4, files: [file(9, 'scan.pdf')] } } },
      'GET /api/unindex-file': {
        body: { data: { page: 1, quantity: 20, total: 1, last_page: 1, items: [file(9, 'scan.pdf')] } },
      },
    });
    const { user, location, locationState } = renderApp('/files/upload/4');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Upload into Invoices' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: 'Drop files here to upload them into Invoices' }),
    ).toBeInTheDocument();
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
    expect(api.calls.find((c) => c.path === '/api/fileCategories')?.search).toBe('?right=upload');
    const list = api.calls.find((c) => c.path === '/api/unindex-file');
    expect(list?.search).toContain('folder_id=4');
  });
});

describe('uploading on the category page', { timeout: 40_000 }, () => {
  it('says an empty category has no files yet, with Upload; "No files match" only under a search', async () => {
    server({
      'GET /api/fileIncategory/4': (call) => ({
        body: { data: page(new URLSearchParams(call.search).get('search') ? [] : []) },
      }),
    });
    const { user } = renderApp('/files/category/4');
    const empty = await screen.findByRole(
      'heading',
      { name: 'No files in this category yet' },
      { timeout: 10_000 },
    );
    expect(
      within(empty.parentElement as HTMLElement).getByRole('button', { name: 'Upload' }),
    ).toBeInTheDocument();
    expect(screen.queryByText('No files match')).not.toBeInTheDocument();
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'zz');
    expect(await screen.findByText('No files match')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'No files in this category yet' })).not.toBeInTheDocument();
  });

  it('uploads the files chosen with Upload into the category, each with its progress', async () => {
    const api = server({
      'GET /api/fileIncategory/4': { body: { data: page([file(1, 'alpha.pdf')]) } },
      'POST /api/new-upload': uploaded(9, 'scan.pdf'),
    });
    const { user, location } = renderApp('/files/category/4');
    await screen.findByRole('link', { name: 'alpha.pdf' }, { timeout: 10_000 });
    expect(screen.getByRole('button', { name: 'Upload' })).toBeInTheDocument();
    await user.upload(document.querySelector('input[type="file"]') as HTMLInputElement, [pdf('scan.pdf')]);
    const uploads = await screen.findByRole('list', { name: 'Uploads' });
    expect(within(uploads).getByRole('progressbar', { name: 'scan.pdf' })).toBeInTheDocument();
    expect(await within(uploads).findByText(/Uploaded/)).toBeInTheDocument();
    const sent = api.calls.find((c) => c.path === '/api/new-upload')?.body as Record<string, unknown>;
    expect(Object.keys(sent)).toEqual(['folder_id', 'file']);
    expect(sent.folder_id).toBe('4');
    expect(location()).toBe('/files/category/4');
    expect(screen.getByRole('status')).toHaveTextContent('1 file uploaded');
    await user.click(screen.getByRole('link', { name: 'Index the uploaded files' }));
    await waitFor(() => expect(location()).toBe('/unindexed-files'));
  });

  it('uploads files dropped anywhere on the page into the category', async () => {
    const api = server({
      'GET /api/fileIncategory/4': { body: { data: page([file(1, 'alpha.pdf')]) } },
      'POST /api/new-upload': uploaded(9, 'a.pdf'),
    });
    renderApp('/files/category/4');
    const row = await screen.findByRole('link', { name: 'alpha.pdf' }, { timeout: 10_000 });
    await screen.findByRole('button', { name: 'Upload' });
    const files = [pdf('a.pdf'), pdf('b.pdf')];
    const dataTransfer = { files, types: ['Files'], dropEffect: 'none' };
    fireEvent.dragOver(row, { dataTransfer });
    expect(screen.getByText('Drop to upload into Invoices')).toBeInTheDocument();
    fireEvent.drop(row, { dataTransfer });
    const uploads = await screen.findByRole('list', { name: 'Uploads' });
    expect(within(uploads).getByRole('progressbar', { name: 'a.pdf' })).toBeInTheDocument();
    expect(within(uploads).getByRole('progressbar', { name: 'b.pdf' })).toBeInTheDocument();
    await waitFor(() => expect(api.calls.filter((c) => c.path === '/api/new-upload')).toHaveLength(2));
    const names = api.calls
      .filter((c) => c.path === '/api/new-upload')
      .map((c) => ((c.body as { file: File }).file as File).name);
    expect(names).toEqual(['a.pdf', 'b.pdf']);
  });

  it('offers no upload where the person may only view', async () => {
    const api = server({
      'GET /api/fileCategories': { body: { data: uploadable({ id: 5, name: 'Contracts' }) } },
      'GET /api/fileIncategory/4': { body: { data: page([file(1, 'alpha.pdf')]) } },
    });
    renderApp('/files/category/4');
    const row = await screen.findByRole('link', { name: 'alpha.pdf' }, { timeout: 10_000 });
    await waitFor(() => expect(api.calls.some((c) => c.path === '/api/fileCategories')).toBe(true));
    expect(screen.queryByRole('button', { name: 'Upload' })).not.toBeInTheDocument();
    fireEvent.drop(row, { dataTransfer: { files: [pdf('a.pdf')], types: ['Files'] } });
    expect(screen.queryByRole('list', { name: 'Uploads' })).not.toBeInTheDocument();
    expect(api.calls.some((c) => c.path === '/api/new-upload')).toBe(false);
  });
});
