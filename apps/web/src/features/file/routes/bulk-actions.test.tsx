import type { TFileSummary } from '@quire/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ALL_RIGHTS, aCategoryOption, aWorkflow, onePage } from '../../../testing/fixtures';
import { type MockRoutes, signedInApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

// Bulk selection in a file list (the favourites page; the other lists share the table):
// Shift-click for a range, the header box for the page, and each action sending one call
// with every selected id; a refusal changes nothing and shows the server's words.

const person = { id: 2, name: 'Sam Clerk', username: 'sam' };
const aSummary = (id: number): TFileSummary => ({
  id,
  name: `file-${id}.pdf`,
  folder_id: 4,
  folder_name: 'Minutes',
  index_status: 'indexed',
  incremental: `MIN-${id}`,
  owner: person,
  mime_type: 'application/pdf',
  size: 1000,
  version: 1,
  locked_by: null,
  checked_out_by: null,
  created_at: '2026-11-20T10:00:00Z',
  updated_at: '2026-11-20T10:00:00Z',
});
const FILES = [1, 2, 3, 4, 5].map(aSummary);
function server(routes: MockRoutes = {}) {
  return signedInApi('user', 'General staff', {
    'GET /api/favorite-files': { body: { data: onePage(FILES) } },
    'GET /api/fileCategories': {
      body: {
        data: [
          aCategoryOption({ id: 9, name: 'Archive', rights: { ...ALL_RIGHTS, share: false, manage: false } }),
        ],
      },
    },
    'GET /api/workflows': {
      body: {
        data: [aWorkflow({ id: 3, name: 'Approval' })],
      },
    },
    ...routes,
  });
}

const box = (name: string) => screen.getByRole('checkbox', { name: `Select ${name}` });
const bar = () => screen.getByRole('toolbar', { name: 'Actions on the selected rows' });
const bodiesOf = (calls: Array<{ method: string; path: string; body: unknown }>, path: string) =>
  calls.filter((c) => c.method === 'POST' && c.path === path).map((c) => c.body);

async function openFavourites() {
  renderApp('/files/favourites');
  await screen.findByRole('checkbox', { name: 'Select file-1.pdf' }, { timeout: 10_000 });
  return userEvent.setup();
}

describe('bulk actions in a file list', { timeout: 60_000 }, () => {
  it('selects a range with Shift-click, and the whole page from the header box', async () => {
    server();
    const user = await openFavourites();
    await user.click(box('file-2.pdf'));
    await user.keyboard('{Shift>}');
    await user.click(box('file-4.pdf'));
    await user.keyboard('{/Shift}');
    expect(bar()).toHaveTextContent('3 selected');
    for (const n of [2, 3, 4]) expect(box(`file-${n}.pdf`)).toBeChecked();
    expect(box('file-1.pdf')).not.toBeChecked();
    expect(box('file-5.pdf')).not.toBeChecked();

    await user.click(within(bar()).getByRole('button', { name: 'Clear selection' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select All' }));
    expect(bar()).toHaveTextContent('5 selected');
  });

  it('moves, follows, starts a workflow and deletes with one call each, after one confirmation', async () => {
    const { calls } = server({
      'POST /api/files/bulk-move': { body: { data: { moved: 2 }, message: '2 files moved' } },
      'POST /api/files/bulk-follow': { body: { data: { followed: 2 } } },
      'POST /api/initiate-workflow': {
        body: {
          data: {
            started: [1, 3].map((file_id) => ({
              file_id,
              instance_id: file_id,
              step: { id: 1, name: 'Review' },
            })),
          },
        },
      },
      'POST /api/delete': { body: { data: { deleted: 2 } } },
    });
    const user = await openFavourites();
    const pick = async () => {
      await user.click(box('file-1.pdf'));
      await user.click(box('file-3.pdf'));
    };

    await pick();
    await user.click(within(bar()).getByRole('button', { name: 'Move…' }));
    const move = await screen.findByRole('dialog', { name: 'Move 2 files' });
    await user.selectOptions(await within(move).findByRole('combobox', { name: 'Move to category' }), '9');
    await user.click(within(move).getByRole('button', { name: 'Move' }));
    expect(await screen.findByText('2 files moved.')).toBeVisible();
    expect(bodiesOf(calls, '/api/files/bulk-move')).toEqual([{ file_ids: [1, 3], folder_id: 9 }]);
    expect(screen.queryByRole('toolbar')).toBeNull();

    await pick();
    await user.click(within(bar()).getByRole('button', { name: 'Follow' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Follow' }));
    expect(await screen.findByText('Files followed')).toBeVisible();
    expect(bodiesOf(calls, '/api/files/bulk-follow')).toEqual([{ file_ids: [1, 3] }]);

    await pick();
    await user.click(within(bar()).getByRole('button', { name: 'Start workflow…' }));
    const start = await screen.findByRole('dialog', { name: 'Start a workflow on 2 files' });
    await user.selectOptions(await within(start).findByRole('combobox', { name: 'Workflow' }), '3');
    await user.click(within(start).getByRole('button', { name: 'Start' }));
    expect(await screen.findByText('Workflow started')).toBeVisible();
    expect(bodiesOf(calls, '/api/initiate-workflow')).toEqual([{ workflow_id: 3, file_ids: [1, 3] }]);

    await pick();
    await user.click(within(bar()).getByRole('button', { name: 'Delete…' }));
    const del = await screen.findByRole('dialog', { name: 'Delete 2 files' });
    expect(del).toHaveTextContent('My deleted files');
    await user.click(within(del).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Files deleted')).toBeVisible();
    expect(bodiesOf(calls, '/api/delete')).toEqual([{ file_ids: [1, 3] }]);
  });

  it('downloads the selection as one zip', async () => {
    const { calls } = server({ 'POST /api/files/download-zip': { body: 'PK zip bytes' } });
    URL.createObjectURL = vi.fn(() => 'blob:zip');
    URL.revokeObjectURL = vi.fn();
    const user = await openFavourites();
    await user.click(box('file-2.pdf'));
    await user.click(box('file-5.pdf'));
    await user.click(within(bar()).getByRole('button', { name: 'Download' }));
    expect(await screen.findByText('Download ready')).toBeVisible();
    expect(bodiesOf(calls, '/api/files/download-zip')).toEqual([{ file_ids: [2, 5] }]);
    expect(URL.createObjectURL).toHaveBeenCalledOnce();
  });

  it('downloads the selection as one PDF, in the order of the list', async () => {
    const { calls } = server({ 'POST /api/files/download-pdf': { body: '%PDF-1.7 bytes' } });
    URL.createObjectURL = vi.fn(() => 'blob:pdf');
    URL.revokeObjectURL = vi.fn();
    const user = await openFavourites();
    await user.click(box('file-4.pdf'));
    await user.click(box('file-1.pdf'));
    await user.click(within(bar()).getByRole('button', { name: 'Download as one PDF' }));
    expect(await screen.findByText('2 files in one PDF.')).toBeVisible();
    expect(bodiesOf(calls, '/api/files/download-pdf')).toEqual([{ file_ids: [1, 4] }]);
    expect(URL.createObjectURL).toHaveBeenCalledOnce();
  });

  it('says which files cannot go into one PDF, and keeps the selection', async () => {
    server({
      'POST /api/files/download-pdf': {
        status: 400,
        body: {
          message:
            '"file-2.pdf", "file-3.pdf" are neither PDFs nor PNG or JPEG images, so they cannot go into one PDF. Leave them out and try again.',
          code: 'validation_failed',
          errors: [
            { path: 'body.file_ids', message: '"file-2.pdf" cannot be combined into a PDF' },
            { path: 'body.file_ids', message: '"file-3.pdf" cannot be combined into a PDF' },
          ],
        },
      },
    });
    URL.createObjectURL = vi.fn(() => 'blob:pdf');
    const user = await openFavourites();
    await user.click(box('file-2.pdf'));
    await user.click(box('file-3.pdf'));
    await user.click(within(bar()).getByRole('button', { name: 'Download as one PDF' }));
    expect(await screen.findByText('Failed to make one PDF of the files!')).toBeVisible();
    expect(screen.getByText(/"file-2\.pdf", "file-3\.pdf" are neither PDFs/)).toBeVisible();
    expect(URL.createObjectURL).not.toHaveBeenCalled();
    expect(bar()).toHaveTextContent('2 selected');
  });

  it("shows the server's refusal naming the file, keeps the dialog and the selection", async () => {
    server({
      'POST /api/files/bulk-move': {
        status: 403,
        body: {
          message:
            'You are not allowed to move "file-3.pdf". Nothing was changed: leave it out and try again.',
          code: 'file.forbidden',
        },
      },
    });
    const user = await openFavourites();
    await user.click(box('file-1.pdf'));
    await user.click(box('file-3.pdf'));
    await user.click(within(bar()).getByRole('button', { name: 'Move…' }));
    const move = await screen.findByRole('dialog', { name: 'Move 2 files' });
    await user.selectOptions(await within(move).findByRole('combobox', { name: 'Move to category' }), '9');
    await user.click(within(move).getByRole('button', { name: 'Move' }));
    expect(await screen.findByText(/not allowed to move "file-3\.pdf"/)).toBeVisible();
    await user.click(
      within(screen.getByRole('dialog', { name: 'Move 2 files' })).getByRole('button', { name: 'Cancel' }),
    );
    expect(bar()).toHaveTextContent('2 selected');
    expect(box('file-3.pdf')).toBeChecked();
  });
});
