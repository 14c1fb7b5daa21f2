import type { TFileDetail } from '@quire/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aFile, aVersion, fileServer, olive } from '../../../testing/file-fixtures';
import { renderApp } from '../../../testing/render-app';

async function openPage() {
  const app = renderApp('/files/5');
  await screen.findByRole('heading', { level: 1, name: 'report.txt' }, { timeout: 10_000 });
  return app;
}

const section = (name: string) => screen.getByRole('region', { name });
/** The hidden file input of the drop zone labelled `label`. */
function dropInput(label: string) {
  const zone = screen.getByText(label).closest('.drop-zone-wrap');
  return zone?.querySelector('input[type="file"]') as HTMLInputElement;
}
const attachment = (id: number, name: string) => ({
  id,
  file_id: 5,
  name,
  mime_type: 'application/pdf',
  size: 4096,
  uploaded_by: olive,
  created_at: '2026-01-03T10:00:00Z',
});

describe('the file page: versions', () => {
  it('rolls back only after a confirmation naming the version, then a toast', async () => {
    let file: TFileDetail = aFile();
    const api = fileServer(() => file, {
      'POST /api/rollback-version': () => {
        const copy = aVersion(3, { is_current: true, rolled_back_from: 1 });
        file = aFile({ versions: [copy, aVersion(2), aVersion(1)], current_version_id: 203 });
        return { body: { data: copy } };
      },
      'GET /api/version-preview/203': { body: 'The first version again.' },
    });
    const { user } = await openPage();
    const versions = section('Versions');
    expect(
      within(versions).queryByRole('button', { name: 'Roll back to version 2' }),
    ).not.toBeInTheDocument();
    await user.click(within(versions).getByRole('button', { name: 'Roll back to version 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Roll back to version 1?' });
    expect(dialog).toHaveTextContent('report-v1.txt');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.calls.some((c) => c.path === '/api/rollback-version')).toBe(false);

    await user.click(within(versions).getByRole('button', { name: 'Roll back to version 1' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Roll back to version 1?' })).getByRole('button', {
        name: 'Make version 1 current',
      }),
    );
    expect(await screen.findByText('Version 1 is current again')).toBeInTheDocument();
    expect(api.calls.find((c) => c.path === '/api/rollback-version')?.body).toEqual({
      file_id: 5,
      version_id: 201,
    });
    expect(within(section('Versions')).getByText(/copy of version 1/)).toBeInTheDocument();
  });

  it('by keyboard: Enter opens the rollback question with the focus on Cancel, so Enter rolls nothing back', async () => {
    const api = fileServer(aFile());
    const { user } = await openPage();
    within(section('Versions')).getByRole('button', { name: 'Roll back to version 1' }).focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Roll back to version 1?' });
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.calls.some((c) => c.path === '/api/rollback-version')).toBe(false);
  });

  it('uploads a new version in one action: check-out, then check-in with the file and comment', async () => {
    let file: TFileDetail = aFile();
    const api = fileServer(() => file, {
      'POST /api/check-out': { body: { data: { file_id: 5, locked_by: null, checked_out_by: olive } } },
      'POST /api/check-in': () => {
        file = aFile({
          versions: [aVersion(3, { is_current: true, comment: 'Signed' }), aVersion(2), aVersion(1)],
        });
        return { body: { data: file } };
      },
    });
    const { user } = await openPage();
    expect(
      within(section('Versions')).getByRole('button', { name: 'Upload new version' }),
    ).toBeInTheDocument();
    await user.upload(
      dropInput('Drop a file here to upload it as a new version, or'),
      new File(['new content'], 'report-signed.txt', { type: 'text/plain' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Upload version 3' });
    expect(dialog).toHaveTextContent('checks the file out, adds the new version and checks it back in');
    await user.type(within(dialog).getByLabelText('Comment (optional)'), 'Signed');
    await user.click(within(dialog).getByRole('button', { name: 'Upload version 3' }));
    expect(await screen.findByText('Version 3 uploaded')).toBeInTheDocument();
    const posts = api.calls.filter((c) => c.method === 'POST');
    expect(posts.map((c) => c.path)).toEqual(['/api/check-out', '/api/check-in']);
    expect(posts[0]?.body).toEqual({ file_id: 5 });
    const form = posts[1]?.body as Record<string, unknown>;
    expect(form.file_id).toBe('5');
    expect(form.comment).toBe('Signed');
    expect((form.file as File).name).toBe('report-signed.txt');
    expect(within(section('Versions')).getByText(/Version 3/)).toBeInTheDocument();
  });

  it('a failed check-in releases the check-out the action took', async () => {
    const api = fileServer(aFile(), {
      'POST /api/check-out': { body: { data: { file_id: 5, locked_by: null, checked_out_by: olive } } },
      'POST /api/check-in': (call) =>
        (call.body as { file?: unknown }).file
          ? { status: 413, body: { message: 'The file is too large', code: 'file.too_large' } }
          : { body: { data: aFile() } },
    });
    const { user } = await openPage();
    await user.upload(
      dropInput('Drop a file here to upload it as a new version, or'),
      new File(['x'], 'big.txt', { type: 'text/plain' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Upload version 3' });
    await user.click(within(dialog).getByRole('button', { name: 'Upload version 3' }));
    expect(await screen.findByText('Failed to upload new version!')).toBeInTheDocument();
    const checkIns = api.calls.filter((c) => c.path === '/api/check-in');
    expect(checkIns).toHaveLength(2);
    expect((checkIns[1]?.body ?? {}) as Record<string, unknown>).not.toHaveProperty('file');
  });

  it('with your own check-out, the new version is only checked in', async () => {
    const api = fileServer(aFile({ checked_out_by: olive, checked_out_at: '2026-01-03T10:00:00Z' }), {
      'POST /api/check-in': { body: { data: aFile() } },
    });
    const { user } = await openPage();
    await user.upload(
      dropInput('Drop a file here to upload it as a new version, or'),
      new File(['v3'], 'v3.txt', { type: 'text/plain' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Upload version 3' });
    await user.click(within(dialog).getByRole('button', { name: 'Upload version 3' }));
    expect(await screen.findByText('Version 3 uploaded')).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/api/check-in']);
  });
});

describe('the file page: other files', () => {
  it('attaches a file with field file_id first, then lists it', async () => {
    let file: TFileDetail = aFile();
    const api = fileServer(() => file, {
      'POST /api/other-files-upload': () => {
        file = aFile({ other_files: [attachment(31, 'receipt.pdf')] });
        return { body: { data: file.other_files } };
      },
    });
    const { user } = await openPage();
    await user.upload(
      dropInput('Drop other files here to attach them'),
      new File(['%PDF-1.7'], 'receipt.pdf', { type: 'application/pdf' }),
    );
    expect(await screen.findByText('File attached')).toBeInTheDocument();
    const sent = api.calls.find((c) => c.path === '/api/other-files-upload')?.body as Record<string, unknown>;
    expect(Object.keys(sent)).toEqual(['file_id', 'file']);
    expect(sent.file_id).toBe('5');
    await waitFor(() =>
      expect(
        within(section('Other files')).getByRole('checkbox', { name: 'receipt.pdf' }),
      ).toBeInTheDocument(),
    );
  });

  it('removes the chosen ones only after a confirmation', async () => {
    let file: TFileDetail = aFile({
      other_files: [attachment(31, 'receipt.pdf'), attachment(32, 'scan.pdf')],
    });
    const api = fileServer(() => file, {
      'POST /api/delete-otherfiles': () => {
        file = aFile({ other_files: [attachment(32, 'scan.pdf')] });
        return { body: { data: { deleted: 1 } } };
      },
    });
    const { user } = await openPage();
    const other = section('Other files');
    expect(within(other).getByRole('button', { name: 'Remove chosen' })).toBeDisabled();
    await user.click(within(other).getByLabelText('receipt.pdf'));
    await user.click(within(other).getByRole('button', { name: 'Remove chosen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove receipt.pdf?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.calls.some((c) => c.path === '/api/delete-otherfiles')).toBe(false);
    await user.click(within(other).getByRole('button', { name: 'Remove chosen' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Remove receipt.pdf?' })).getByRole('button', {
        name: 'Remove',
      }),
    );
    expect(await screen.findByText('Other file removed')).toBeInTheDocument();
    expect(api.calls.find((c) => c.path === '/api/delete-otherfiles')?.body).toEqual({ ids: [31] });
    await waitFor(() =>
      expect(within(section('Other files')).queryByText('receipt.pdf')).not.toBeInTheDocument(),
    );
  });
});

describe('the file page: comments', () => {
  it('adds a comment, clears the box and shows it', async () => {
    let file: TFileDetail = aFile();
    const api = fileServer(() => file, {
      'POST /api/file-comment': () => {
        const comment = { id: 1, author: olive, comment: 'Looks right', created_at: '2026-01-04T10:00:00Z' };
        file = aFile({ comments: [comment] });
        return { body: { data: comment } };
      },
    });
    const { user } = await openPage();
    const comments = section('Comments');
    expect(within(comments).getByRole('button', { name: 'Comment' })).toBeDisabled();
    await user.type(within(comments).getByLabelText('Add a comment'), 'Looks right');
    await user.click(within(comments).getByRole('button', { name: 'Comment' }));
    expect(await screen.findByText('Comment added')).toBeInTheDocument();
    expect(api.calls.find((c) => c.path === '/api/file-comment')?.body).toEqual({
      file_id: 5,
      comment: 'Looks right',
    });
    expect(within(section('Comments')).getByText('Looks right')).toBeInTheDocument();
    expect(within(section('Comments')).getByLabelText('Add a comment')).toHaveValue('');
  });
});

describe('the file page: history', () => {
  const change = (id: number, message: string, by: string | null) => ({
    id,
    created_at: '2026-01-03T10:00:00Z',
    by,
    action: 'file.updated',
    message,
  });

  it('lists the changes newest first with who made them, and pages through them', async () => {
    const api = fileServer(aFile(), {
      'GET /api/file-activity/5': (call) => {
        const page = Number(new URLSearchParams(call.search).get('page') ?? '1');
        const items =
          page === 1
            ? [
                change(3, 'Renamed "draft.txt" to "report.txt"', 'Olive Oak'),
                change(2, 'Locked "draft.txt"', null),
              ]
            : [change(1, 'Uploaded "draft.txt"', 'Olive Oak')];
        return { body: { data: { items, page, quantity: 10, total: 11, last_page: 2 } } };
      },
    });
    const { user } = await openPage();
    const list = await within(section('History')).findByRole('list', { name: 'Changes, newest first' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows[0]).toHaveTextContent('Renamed "draft.txt" to "report.txt"');
    expect(rows[0]).toHaveTextContent('Olive Oak');
    expect(rows[1]).toHaveTextContent('Quire');
    await user.click(within(section('History')).getByRole('button', { name: /Next/ }));
    await waitFor(() =>
      expect(within(section('History')).getByText('Uploaded "draft.txt"')).toBeInTheDocument(),
    );
    expect(api.calls.filter((c) => c.path === '/api/file-activity/5').length).toBeGreaterThanOrEqual(2);
  });

  it('says when nothing is recorded yet', async () => {
    fileServer(aFile());
    await openPage();
    expect(await within(section('History')).findByText('No changes recorded yet.')).toBeInTheDocument();
  });
});
