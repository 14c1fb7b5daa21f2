import { contract, type TFileDetail } from '@quire/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { queryKeyFor } from '../../lib/api-client';
import { aFile, fileServer, olive, sam } from '../../testing/file-fixtures';
import { renderApp } from '../../testing/render-app';

const state = { file_id: 5, locked_by: null, checked_out_by: null };

/** A reply the test releases: the call stays running until then. */
function held() {
  let release = () => {};
  const until = new Promise<void>((r) => {
    release = r;
  });
  return { until, release: () => release() };
}

async function openPage(path = '/files/5') {
  const app = renderApp(path);
  await screen.findByRole('heading', { level: 1, name: 'report.txt' }, { timeout: 10_000 });
  return app;
}

const bar = () => screen.getByRole('toolbar', { name: 'File actions' });

describe('the file page: its actions bar', () => {
  it('locks with status "1", busy while the call runs, then a toast and the lock shows at once', async () => {
    let file = aFile();
    const gate = held();
    const api = fileServer(() => file, {
      'POST /api/lock-file': async () => {
        await gate.until;
        file = aFile({ locked_by: olive, locked_at: '2026-01-03T10:00:00Z' });
        return { body: { data: { ...state, locked_by: olive } } };
      },
    });
    const { user } = await openPage();
    await user.click(within(bar()).getByRole('button', { name: 'Lock' }));
    const busy = within(bar()).getByRole('button', { name: 'Lock' });
    expect(busy).toBeDisabled();
    expect(busy).toHaveAttribute('aria-busy', 'true');
    gate.release();
    expect(await screen.findByText('File locked')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1 }).parentElement).toHaveTextContent('locked by Jane Doe');
    expect(within(bar()).getByRole('button', { name: 'Unlock' })).toBeEnabled();
    expect(api.calls.find((c) => c.path === '/api/lock-file')?.body).toEqual({ file_id: 5, status: '1' });
  });

  it("shows the lock from the call's answer, before the file is fetched again", async () => {
    let file = aFile();
    let refetch: Promise<void> | null = null;
    const gate = held();
    fileServer(
      async () => {
        if (refetch) await refetch;
        return file;
      },
      {
        'POST /api/lock-file': () => {
          refetch = gate.until;
          file = aFile({ locked_by: olive, locked_at: '2026-01-03T10:00:00Z' });
          return { body: { data: { ...state, locked_by: olive } } };
        },
      },
    );
    const { user } = await openPage();
    await user.click(within(bar()).getByRole('button', { name: 'Lock' }));
    await waitFor(() =>
      expect(screen.getByRole('heading', { level: 1 }).parentElement).toHaveTextContent('locked by Jane Doe'),
    );
    gate.release();
    expect(await screen.findByText('File locked')).toBeInTheDocument();
  });

  it('unlocks a locked file with status "0"', async () => {
    let file = aFile({ locked_by: olive, locked_at: '2026-01-03T10:00:00Z' });
    const api = fileServer(() => file, {
      'POST /api/lock-file': () => {
        file = aFile();
        return { body: { data: state } };
      },
    });
    const { user } = await openPage();
    await user.click(within(bar()).getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByText('File unlocked')).toBeInTheDocument();
    expect(api.calls.find((c) => c.path === '/api/lock-file')?.body).toEqual({ file_id: 5, status: '0' });
    expect(await within(bar()).findByRole('button', { name: 'Lock' })).toBeInTheDocument();
  });

  it('checks out, follows and favourites with the file id, each with a toast', async () => {
    const api = fileServer(aFile(), {
      'POST /api/check-out': { body: { data: { ...state, checked_out_by: olive } } },
      'POST /api/follow': { body: { data: null } },
      'POST /api/favourite-file': { body: { data: null } },
    });
    const { user } = await openPage();
    await user.click(within(bar()).getByRole('button', { name: 'Check out' }));
    expect(await screen.findByText('File checked out')).toBeInTheDocument();
    await user.click(within(bar()).getByRole('button', { name: 'Follow' }));
    expect(await screen.findByText('You follow this file')).toBeInTheDocument();
    await user.click(within(bar()).getByRole('button', { name: 'Favourite' }));
    expect(await screen.findByText('Added to your favourites')).toBeInTheDocument();
    const sent = api.calls.filter((c) => c.method === 'POST').map((c) => [c.path, c.body]);
    expect(sent).toEqual([
      ['/api/check-out', { file_id: 5 }],
      ['/api/follow', { file_id: 5 }],
      ['/api/favourite-file', { file_id: 5 }],
    ]);
  });

  it('unfollows and unfavourites a followed favourite', async () => {
    let file = aFile({ is_following: true, is_favourite: true });
    const api = fileServer(() => file, {
      'POST /api/unfollow': () => {
        file = { ...file, is_following: false };
        return { body: { data: null } };
      },
      'POST /api/unfavourite-file': () => {
        file = { ...file, is_favourite: false };
        return { body: { data: null } };
      },
    });
    const { user } = await openPage();
    expect(within(bar()).getByRole('button', { name: 'Unfollow' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(within(bar()).getByRole('button', { name: 'Unfollow' }));
    expect(await screen.findByText('You no longer follow this file')).toBeInTheDocument();
    expect(within(bar()).getByRole('button', { name: 'Follow' })).toHaveAttribute('aria-pressed', 'false');
    await user.click(within(bar()).getByRole('button', { name: 'Unfavourite' }));
    expect(await screen.findByText('Taken out of your favourites')).toBeInTheDocument();
    expect(within(bar()).getByRole('button', { name: 'Favourite' })).toBeInTheDocument();
    const sent = api.calls.filter((c) => c.method === 'POST').map((c) => [c.path, c.body]);
    expect(sent).toEqual([
      ['/api/unfollow', { file_id: 5 }],
      ['/api/unfavourite-file', { file_id: 5 }],
    ]);
  });

  it('renames: the new name shows at once, and the category list is refetched', async () => {
    let file: TFileDetail = aFile();
    const api = fileServer(() => file, {
      'POST /api/edit-file-name': () => {
        file = aFile({ name: 'final.txt' });
        return { body: { data: file } };
      },
    });
    const { user, queryClient } = await openPage();
    // The category's list was loaded earlier (the page the person came from).
    const listKey = queryKeyFor(contract.category.fileIncategory, { params: { id: 4 }, query: {} });
    queryClient.setQueryData(listKey, { page: 1 } as never);
    await user.click(within(bar()).getByRole('button', { name: 'Rename' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename file' });
    await user.clear(within(dialog).getByLabelText('Name'));
    await user.type(within(dialog).getByLabelText('Name'), 'final.txt');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('File renamed')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'final.txt' })).toBeInTheDocument();
    expect(api.calls.find((c) => c.path === '/api/edit-file-name')?.body).toEqual({
      file_id: 5,
      name: 'final.txt',
    });
    expect(queryClient.getQueryState(listKey)?.isInvalidated).toBe(true);
  });

  it('deletes only after a confirmation, then goes to the category', async () => {
    const api = fileServer(aFile(), {
      'POST /api/delete': { body: { data: { deleted: 1 } } },
    });
    const { user, location } = await openPage();
    await user.click(within(bar()).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move to the trash?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.calls.some((c) => c.path === '/api/delete')).toBe(false);
    await user.click(within(bar()).getByRole('button', { name: 'Delete' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Move to the trash?' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    await waitFor(() => expect(location()).toBe('/files/category/4'));
    expect(api.calls.find((c) => c.path === '/api/delete')?.body).toEqual({ file_ids: [5] });
  });

  it('goes to the category after a delete even when the file, fetched again, is gone', async () => {
    let deleted = false;
    fileServer(aFile(), {
      'GET /api/file-view/5': () =>
        deleted
          ? { status: 404, body: { message: 'File not found', code: 'file.not_found' } }
          : { body: { data: aFile() } },
      'POST /api/delete': () => {
        deleted = true;
        return { body: { data: { deleted: 1 } } };
      },
    });
    const { user, location } = await openPage();
    await user.click(within(bar()).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move to the trash?' });
    expect(dialog).toHaveTextContent('You can restore it from My deleted files');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(location()).toBe('/files/category/4'));
  });

  it('offers no changes to a reader: no lock, rename, move, permissions or delete', async () => {
    fileServer(
      aFile({ permissions: { view: true, download: true, edit: false, delete: false, share: false } }),
    );
    await openPage();
    for (const name of ['Lock', 'Check out', 'Rename', 'Edit values', 'Move', 'Permissions', 'Delete'])
      expect(within(bar()).queryByRole('button', { name })).not.toBeInTheDocument();
    expect(within(bar()).getByRole('button', { name: 'Follow' })).toBeInTheDocument();
  });

  it('shows a file checked out by someone else, and the check-in releases it', async () => {
    const api = fileServer(aFile({ checked_out_by: sam, checked_out_at: '2026-01-03T10:00:00Z' }), {
      'POST /api/check-in': { body: { data: aFile() } },
    });
    const { user } = await openPage();
    expect(screen.getByRole('heading', { level: 1 }).parentElement).toHaveTextContent(
      'checked out by Sam Clerk',
    );
    await user.click(within(bar()).getByRole('button', { name: 'Check in' }));
    const dialog = await screen.findByRole('dialog', { name: 'Check in' });
    expect(dialog).toHaveTextContent('This releases the check-out Sam Clerk holds.');
    await user.click(within(dialog).getByRole('button', { name: 'Check in' }));
    expect(await screen.findByText('File checked in')).toBeInTheDocument();
    expect(api.calls.find((c) => c.path === '/api/check-in')?.body).toEqual({ file_id: '5', comment: '' });
  });
});

describe('the file page', () => {
  it('shows "not found" for an address that is not a file id, and asks nothing', async () => {
    const api = fileServer(aFile());
    renderApp('/files/does-not-exist');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'File not found' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(api.calls.some((c) => c.path.startsWith('/api/file-view'))).toBe(false);
  });

  it('shows "not found" when the API answers 404', async () => {
    fileServer(aFile(), {
      'GET /api/file-view/5': { status: 404, body: { message: 'File not found', code: 'file.not_found' } },
    });
    renderApp('/files/5');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'File not found' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
  });

  it('downloads the record with its history, busy while it is prepared', async () => {
    const gate = held();
    const api = fileServer(aFile(), {
      'GET /api/export-files-main/5': async () => {
        await gate.until;
        return { body: 'xlsx bytes' };
      },
    });
    URL.createObjectURL = vi.fn(() => 'blob:record');
    URL.revokeObjectURL = vi.fn();
    const { user } = await openPage();
    const history = screen.getByRole('region', { name: 'History' });
    await user.click(
      within(history).getByRole('button', { name: 'Download the record with its history (.xlsx)' }),
    );
    expect(within(history).getByRole('button', { name: /Preparing the record/ })).toBeDisabled();
    gate.release();
    expect(await screen.findByText('Record downloaded')).toBeInTheDocument();
    expect(URL.createObjectURL).toHaveBeenCalledOnce();
    expect(api.calls.some((c) => c.path === '/api/export-files-main/5')).toBe(true);
  });

  it('previews the current version as text', async () => {
    const api = fileServer(aFile());
    await openPage();
    const preview = screen.getByRole('region', { name: 'Preview' });
    expect(await within(preview).findByText('The second version, as text.')).toBeInTheDocument();
    expect(api.calls.some((c) => c.path === '/api/version-preview/202')).toBe(true);
  });

  it('says a file of another type has no preview, and asks for no content', async () => {
    const api = fileServer(aFile({ preview: 'none' }));
    await openPage();
    expect(screen.getByText('No preview for this type of file: download it to open it.')).toBeInTheDocument();
    expect(api.calls.some((c) => c.path.startsWith('/api/version-preview'))).toBe(false);
  });
});
