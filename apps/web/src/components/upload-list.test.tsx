import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../lib/api-error';
import type { UploadProgress } from '../lib/upload';
import { type StartUpload, useUploads } from '../lib/use-uploads';
import { UploadList } from './upload-list';

/** Uploads the test drives by hand: `pending[i].progress(…)`, `.resolve()`, `.reject(e)`. */
function manualUploads() {
  const pending: Array<{
    file: File;
    signal: AbortSignal;
    progress: (p: UploadProgress) => void;
    resolve: () => void;
    reject: (e: unknown) => void;
  }> = [];
  const start: StartUpload = (file, { signal, onProgress }) =>
    new Promise((resolve, reject) => {
      signal.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
      pending.push({ file, signal, progress: onProgress, resolve: () => resolve(null), reject });
    });
  return { pending, start };
}

function Uploader({ start }: { start: StartUpload }) {
  const uploads = useUploads(start);
  return (
    <>
      <button
        type="button"
        onClick={() => uploads.add([new File(['a'.repeat(2048)], 'a.pdf'), new File(['b'], 'b.txt')])}
      >
        Add
      </button>
      <UploadList items={uploads.items} onCancel={uploads.cancel} onDismiss={uploads.dismiss} />
    </>
  );
}

const bar = (name: string) => screen.getByRole('progressbar', { name });

describe('uploads with progress and cancel', () => {
  it('shows a progress bar per file, moving with the upload, then done', async () => {
    const user = userEvent.setup();
    const { pending, start } = manualUploads();
    render(<Uploader start={start} />);
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(screen.getAllByRole('progressbar')).toHaveLength(2);
    act(() => pending[0]!.progress({ loaded: 512, total: 2048 }));
    expect(bar('a.pdf')).toHaveAttribute('aria-valuenow', '25');
    act(() => pending[0]!.progress({ loaded: 1536, total: 2048 }));
    expect(bar('a.pdf')).toHaveAttribute('aria-valuenow', '75');
    await act(async () => pending[0]!.resolve());
    const first = screen.getAllByRole('listitem')[0]!;
    expect(first).toHaveTextContent('Uploaded');
    expect(within(first).getByRole('button', { name: 'Dismiss a.pdf' })).toBeInTheDocument();
  });

  it('cancels one upload from its own button (keyboard too), aborting its request', async () => {
    const user = userEvent.setup();
    const { pending, start } = manualUploads();
    render(<Uploader start={start} />);
    await user.click(screen.getByRole('button', { name: 'Add' }));
    const cancel = screen.getByRole('button', { name: 'Cancel uploading b.txt' });
    cancel.focus();
    await user.keyboard('{Enter}');
    expect(pending[1]!.signal.aborted).toBe(true);
    expect(pending[0]!.signal.aborted).toBe(false);
    const second = screen.getAllByRole('listitem')[1]!;
    expect(second).toHaveTextContent('Cancelled');
    expect(screen.getByRole('button', { name: 'Cancel uploading a.pdf' })).toBeInTheDocument();
  });

  it('says why an upload failed, in words', async () => {
    const user = userEvent.setup();
    const { pending, start } = manualUploads();
    render(<Uploader start={start} />);
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await act(async () => pending[0]!.reject(new ApiError(413, { message: 'The file is too large' })));
    const first = screen.getAllByRole('listitem')[0]!;
    expect(first).toHaveTextContent('Failed');
    expect(first).toHaveTextContent('The file is too large');
  });

  it('cancels what is still going when the page goes away', async () => {
    const user = userEvent.setup();
    const { pending, start } = manualUploads();
    const { unmount } = render(<Uploader start={start} />);
    await user.click(screen.getByRole('button', { name: 'Add' }));
    unmount();
    expect(pending.every((p) => p.signal.aborted)).toBe(true);
  });
});
