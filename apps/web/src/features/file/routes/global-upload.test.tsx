import type { TCategoryOption, TFileSummary } from '@quire/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aCategoryOption, onePage } from '../../../testing/fixtures';
import { type MockRoutes, signedInApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

const RIGHTS = { view: true, upload: true, edit: false, delete: false, share: false, manage: false };
const option = (id: number, name: string, path: string): TCategoryOption =>
  aCategoryOption({ id, name, path, rights: RIGHTS });
const summary = (id: number, name: string): TFileSummary => ({
  id,
  name,
  folder_id: 6,
  folder_name: 'Receipts',
  index_status: 'unindexed',
  incremental: null,
  owner: { id: 7, name: 'Jane Doe', username: 'jdoe' },
  mime_type: 'application/pdf',
  size: 8,
  version: 1,
  locked_by: null,
  checked_out_by: null,
  created_at: '2026-01-10T10:00:00Z',
  updated_at: '2026-01-10T10:00:00Z',
});
const empty = { body: { data: onePage([]) } };

function server(routes: MockRoutes = {}) {
  return signedInApi('user', 'General staff', {
    'GET /api/unindex-file': empty,
    'GET /api/fileCategories': {
      body: {
        data: [option(4, 'Invoices', 'Finance / Invoices'), option(6, 'Receipts', 'Finance / Receipts')],
      },
    },
    ...routes,
  });
}

describe('the Upload button in the header', { timeout: 40_000 }, () => {
  it('asks for a category where the person may upload, then uploads the files there', async () => {
    const api = server({
      'POST /api/new-upload': { body: { data: { folder_id: 6, files: [summary(9, 'receipt.pdf')] } } },
    });
    const { user, location, locationState } = renderApp('/unindexed-files');
    await user.click(await screen.findByRole('button', { name: 'Upload files' }, { timeout: 10_000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Upload files' });
    expect(within(dialog).getByText('Choose the category first.')).toBeInTheDocument();
    expect(api.calls.find((c) => c.path === '/api/fileCategories')?.search).toBe('?right=upload');
    await user.type(within(dialog).getByRole('combobox', { name: 'Category' }), 'rec');
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['Finance / Receipts']);
    await user.click(options[0] as HTMLElement);
    const input = dialog.querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(input, new File(['%PDF-1.7'], 'receipt.pdf', { type: 'application/pdf' }));
    const uploads = await within(dialog).findByRole('list', { name: 'Uploads' });
    expect(within(uploads).getByRole('progressbar', { name: 'receipt.pdf' })).toBeInTheDocument();
    expect(within(dialog).getByText('Finance / Receipts')).toBeInTheDocument();
    const sent = await waitFor(() => {
      const call = api.calls.find((c) => c.path === '/api/new-upload');
      expect(call).toBeDefined();
      return call?.body as { folder_id: string; file: File };
    });
    expect(sent.folder_id).toBe('6');
    expect(sent.file.name).toBe('receipt.pdf');
    await user.click(await within(dialog).findByRole('button', { name: 'Index the uploaded file' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(location()).toBe('/unindexed-files');
    expect(locationState()).toEqual({ categoryId: 6 });
  });

  it('is not offered to someone who may upload nowhere', async () => {
    const api = server({ 'GET /api/fileCategories': { body: { data: [] } } });
    renderApp('/unindexed-files');
    await screen.findByRole('heading', { level: 1, name: 'Unindexed files' }, { timeout: 10_000 });
    await waitFor(() => expect(api.calls.some((c) => c.path === '/api/fileCategories')).toBe(true));
    expect(screen.queryByRole('button', { name: 'Upload files' })).not.toBeInTheDocument();
  });
});
