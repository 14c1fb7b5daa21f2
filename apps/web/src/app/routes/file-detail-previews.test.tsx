import type { TTextStatus } from '@quire/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { aFile, aVersion, fileServer } from '../../testing/file-fixtures';
import { aFileBrief } from '../../testing/fixtures';
import { renderApp } from '../../testing/render-app';

// The file page's Office preview and its text recognition panel.

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

const status = (over: Partial<TTextStatus> = {}): TTextStatus => ({
  file: aFileBrief({
    id: 5,
    name: 'report.txt',
    owner: { id: 7, name: 'Jane Doe' },
    mime_type: 'application/pdf',
    size: 2048,
    created_at: '2026-01-01T10:00:00Z',
    updated_at: '2026-01-02T10:00:00Z',
  }),
  version_id: 202,
  version_number: 2,
  status: 'done',
  error: null,
  truncated: false,
  extracted_at: '2026-01-02T10:00:00Z',
  recognition: { at: '2026-01-02T10:00:00Z', pages: 3, languages: 'eng' },
  recognisable: true,
  ...over,
});

async function openPage(name: string) {
  const app = renderApp('/files/5');
  await screen.findByRole('heading', { level: 1, name }, { timeout: 10_000 });
  return app;
}

describe('the file page: Office preview', () => {
  it('shows a DOCX from the HTML the server made, in a sandboxed frame, without asking for the original', async () => {
    const letter = aFile({
      name: 'letter.docx',
      mime_type: DOCX,
      preview: 'none',
      permissions: { view: true, download: false, edit: false, delete: false, share: false },
      versions: [aVersion(2, { is_current: true, mime_type: DOCX, preview: 'none' })],
    });
    const api = fileServer(letter, {
      'GET /api/previews/office/5': {
        body: { data: { version_id: 202, kind: 'docx', html: '<p>Dear Madam</p>', truncated: false } },
      },
    });
    await openPage('letter.docx');
    const frame = await screen.findByTitle('letter.docx (document preview)');
    expect(frame).toHaveAttribute('sandbox', '');
    expect(frame.getAttribute('srcdoc')).toContain('<p>Dear Madam</p>');
    expect(api.calls.some((c) => c.path.startsWith('/api/version-preview'))).toBe(false);
    expect(screen.queryByText(/No preview for this type/)).toBeNull();
  });

  it('says why when there is no preview', async () => {
    fileServer(aFile({ name: 'broken.docx', mime_type: DOCX, preview: 'none' }), {
      'GET /api/previews/office/5': {
        status: 404,
        body: {
          message: 'This file has no preview: The file could not be read',
          code: 'preview.no_office_preview',
        },
      },
    });
    await openPage('broken.docx');
    expect(
      await screen.findByText('This file has no preview: The file could not be read'),
    ).toBeInTheDocument();
  });
});

describe('the file page: text recognition', () => {
  it('says when recognition ran and on how many pages, and lets an editor run it again', async () => {
    const api = fileServer(aFile(), {
      'GET /api/search/text-status/5': { body: { data: status() } },
      'POST /api/search/text-recognition/5': {
        body: { data: status({ status: 'pending' }), message: 'Text recognition will run again in a moment' },
      },
    });
    const { user } = await openPage('report.txt');
    const panel = await screen.findByRole('region', { name: 'Search' });
    expect(await within(panel).findByText(/Text recognised on 3 pages/)).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Recognise text again' }));
    expect(await within(panel).findByText('Its content is being read for search…')).toBeInTheDocument();
    expect(
      api.calls.filter((c) => c.method === 'POST' && c.path === '/api/search/text-recognition/5'),
    ).toHaveLength(1);
    // While it runs, the button is gone.
    expect(within(panel).queryByRole('button', { name: 'Recognise text again' })).toBeNull();
  });

  it('offers no button to someone who may not edit the file', async () => {
    fileServer(
      aFile({ permissions: { view: true, download: true, edit: false, delete: false, share: false } }),
      {
        'GET /api/search/text-status/5': { body: { data: status() } },
      },
    );
    await openPage('report.txt');
    const panel = await screen.findByRole('region', { name: 'Search' });
    await within(panel).findByText(/Text recognised on 3 pages/);
    expect(within(panel).queryByRole('button', { name: 'Recognise text again' })).toBeNull();
  });
});

describe('the file page: a search hit on a scan', () => {
  it('asks where the words are on the page it opens at, draws them over the image and says how many', async () => {
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:scan'), revokeObjectURL: vi.fn() });
    const scan = aFile({
      name: 'invoice.png',
      mime_type: 'image/png',
      preview: 'image',
      versions: [aVersion(2, { is_current: true, mime_type: 'image/png', preview: 'image' })],
    });
    const api = fileServer(scan, {
      'GET /api/search/text-marks/5': {
        body: {
          data: {
            version_id: 202,
            page: 1,
            words: ['pellegrino'],
            recognised: true,
            marks: [{ x: 0.1, y: 0.3, width: 0.4, height: 0.06 }],
          },
        },
      },
    });
    renderApp('/files/5?mark=Pellegrino');
    await screen.findByRole('heading', { level: 1, name: 'invoice.png' }, { timeout: 10_000 });
    const preview = screen.getByRole('region', { name: 'Preview' });
    expect(await within(preview).findByRole('status')).toHaveTextContent('1 match on page 1');
    expect(preview.querySelectorAll('.file-preview__mark')).toHaveLength(1);
    const call = api.calls.find((c) => c.path === '/api/search/text-marks/5');
    const asked = new URLSearchParams(call?.search);
    expect([asked.get('page'), asked.get('words')]).toEqual(['1', 'Pellegrino']);
    Reflect.deleteProperty(URL, 'createObjectURL');
    Reflect.deleteProperty(URL, 'revokeObjectURL');
  });

  it('asks nothing when the page was not opened from a search', async () => {
    const api = fileServer(aFile());
    await openPage('report.txt');
    expect(api.calls.some((c) => c.path.startsWith('/api/search/text-marks'))).toBe(false);
  });
});
