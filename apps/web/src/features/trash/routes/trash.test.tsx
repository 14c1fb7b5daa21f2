import { contract, type TTrashFile } from '@quire/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { queryKeyFor } from '../../../lib/api-client';
import { ALL_RIGHTS, aCategoryOption, onePage } from '../../../testing/fixtures';
import { type MockRoutes, signedInApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

// The trash pages: "My deleted files" for everyone, the admin trash for File Control.

const me = { id: 5, name: 'Sam Clerk', username: 'sam' };
const trashed = (over: Partial<TTrashFile> = {}): TTrashFile => ({
  id: 31,
  name: 'minutes.pdf',
  folder_id: 4,
  folder_name: 'Minutes',
  index_status: 'indexed',
  incremental: 'MIN-3',
  owner: me,
  mime_type: 'application/pdf',
  size: 1200,
  version: 1,
  locked_by: null,
  checked_out_by: null,
  created_at: '2026-11-20T10:00:00Z',
  updated_at: '2026-11-20T10:00:00Z',
  deleted_at: '2026-11-25T09:00:00Z',
  deleted_by: me,
  folder_live: true,
  ...over,
});
const ARCHIVE = aCategoryOption({
  id: 9,
  name: 'Archive',
  rights: { ...ALL_RIGHTS, share: false, manage: false },
});
const { folder_live: _l, deleted_at: _a, deleted_by: _b, ...back } = trashed();

function server(
  role: 'user' | 'admin',
  accessType: 'General staff' | 'File Control Admin',
  routes: MockRoutes,
) {
  return signedInApi(role, accessType, {
    'GET /api/fileCategories': { body: { data: [ARCHIVE] } },
    'GET /api/get-notification': {
      body: { data: { items: [], page: 1, quantity: 20, total: 0, last_page: 1, unread: 0 } },
    },
    ...routes,
  });
}
const posted = (
  calls: Array<{ method: string; path: string; body: unknown }>,
  method: string,
  path: string,
) => calls.filter((c) => c.method === method && c.path === path).map((c) => c.body);

describe('my deleted files', { timeout: 60_000 }, () => {
  it('is in the navigation for staff, lists what they deleted and restores one to its category', async () => {
    const { calls } = server('user', 'General staff', {
      'GET /api/files/my-deleted': { body: { data: onePage([trashed()]) } },
      'POST /api/files/my-deleted/31/restore': { body: { data: back, message: 'File restored' } },
    });
    const { user, location } = renderApp('/dashboard');
    const nav = await screen.findByRole('navigation', { name: 'Main' }, { timeout: 10_000 });
    await user.click(within(nav).getByRole('link', { name: 'My deleted files' }));
    expect(location()).toBe('/files/my-deleted');
    expect(await screen.findByRole('heading', { level: 1, name: 'My deleted files' })).toBeVisible();
    await user.click(await screen.findByRole('button', { name: 'Restore minutes.pdf' }));
    const dialog = screen.getByRole('dialog', { name: 'Restore minutes.pdf?' });
    expect(dialog).toHaveTextContent('It goes back to Minutes.');
    await user.click(within(dialog).getByRole('button', { name: 'Restore' }));
    expect(await screen.findByText('minutes.pdf is back in Minutes.')).toBeVisible();
    expect(posted(calls, 'POST', '/api/files/my-deleted/31/restore')).toEqual([{}]);
  });

  it('asks for another category when its own is gone, and shows a refusal', async () => {
    const { calls } = server('user', 'General staff', {
      'GET /api/files/my-deleted': { body: { data: onePage([trashed({ folder_live: false })]) } },
      'POST /api/files/my-deleted/31/restore': {
        status: 403,
        body: {
          message:
            'You may no longer delete "minutes.pdf", so you cannot restore it. Ask a File Control admin to restore it.',
          code: 'file.forbidden',
        },
      },
    });
    const { user } = renderApp('/files/my-deleted');
    await user.click(await screen.findByRole('button', { name: 'Restore minutes.pdf' }, { timeout: 10_000 }));
    const dialog = screen.getByRole('dialog', { name: 'Restore minutes.pdf?' });
    await user.click(within(dialog).getByRole('button', { name: 'Restore' }));
    expect(within(dialog).getByRole('combobox', { name: 'Restore into' })).toHaveAccessibleDescription(
      'Choose the category to restore it into',
    );
    expect(posted(calls, 'POST', '/api/files/my-deleted/31/restore')).toEqual([]);
    await within(dialog).findByRole('option', { name: 'Archive' });
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Restore into' }), '9');
    await user.click(within(dialog).getByRole('button', { name: 'Restore' }));
    expect(await screen.findByText(/may no longer delete "minutes\.pdf"/)).toBeVisible();
    expect(screen.getByText('Failed to restore file!')).toBeVisible();
    expect(posted(calls, 'POST', '/api/files/my-deleted/31/restore')).toEqual([{ folder_id: 9 }]);
  });
});

describe('the admin trash', { timeout: 60_000 }, () => {
  const admin = (routes: MockRoutes) =>
    server('admin', 'File Control Admin', {
      'GET /api/files/trash': {
        body: { data: onePage([trashed(), trashed({ id: 32, name: 'old-plan.docx', folder_live: false })]) },
      },
      ...routes,
    });

  it('restores a file to its category, and another into a chosen category', async () => {
    const { calls } = admin({
      'POST /api/files/restore-trash-file/31': { body: { data: back } },
      'POST /api/files/restore-trash-file/32': { body: { data: { ...back, id: 32, folder_id: 9 } } },
    });
    const { user } = renderApp('/admin/trash');
    await user.click(await screen.findByRole('button', { name: 'Restore minutes.pdf' }, { timeout: 10_000 }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Restore' }));
    expect(await screen.findByText('File restored')).toBeVisible();
    expect(posted(calls, 'POST', '/api/files/restore-trash-file/31')).toEqual([{}]);

    await user.click(screen.getByRole('button', { name: 'Restore old-plan.docx' }));
    const dialog = screen.getByRole('dialog', { name: 'Restore old-plan.docx?' });
    await within(dialog).findByRole('option', { name: 'Archive' });
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Restore into' }), '9');
    await user.click(within(dialog).getByRole('button', { name: 'Restore' }));
    await screen.findByText('File restored');
    expect(posted(calls, 'POST', '/api/files/restore-trash-file/32')).toEqual([{ folder_id: 9 }]);
  });

  it("refreshes the restored file's category list, loaded before", async () => {
    admin({ 'POST /api/files/restore-trash-file/31': { body: { data: back } } });
    const { user, queryClient } = renderApp('/admin/trash');
    const listKey = queryKeyFor(contract.category.fileIncategory, { params: { id: 4 }, query: {} });
    queryClient.setQueryData(listKey, { page: 1 } as never);
    await user.click(await screen.findByRole('button', { name: 'Restore minutes.pdf' }, { timeout: 10_000 }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Restore' }));
    await screen.findByText('File restored');
    expect(queryClient.getQueryState(listKey)?.isInvalidated).toBe(true);
  });

  it('deletes for good only after a confirmation', async () => {
    const { calls } = admin({ 'DELETE /api/files/trash-file/31': { body: { data: null } } });
    const { user } = renderApp('/admin/trash');
    await user.click(
      await screen.findByRole('button', { name: 'Delete minutes.pdf for good' }, { timeout: 10_000 }),
    );
    const confirm = screen.getByRole('dialog', { name: 'Delete for good?' });
    expect(confirm).toHaveTextContent('This cannot be undone.');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(posted(calls, 'DELETE', '/api/files/trash-file/31')).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Delete minutes.pdf for good' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete for good' }));
    expect(await screen.findByText('File deleted for good')).toBeVisible();
    expect(posted(calls, 'DELETE', '/api/files/trash-file/31')).toHaveLength(1);
  });
});
