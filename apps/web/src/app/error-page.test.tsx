import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { mockApi } from '../testing/mock-api';
import { ChunkTimeoutError } from './chunk-errors';
import { CHUNK_FAILURE_TEXT, ErrorBoundary, errorPageText } from './error-page';

function Broken({ error }: { error: Error }): never {
  throw error;
}

function Harness({ error }: { error: Error }) {
  const [key, setKey] = useState(0);
  return (
    <>
      <button type="button" onClick={() => setKey((k) => k + 1)}>
        Navigate
      </button>
      <ErrorBoundary resetKey={key}>{key === 0 ? <Broken error={error} /> : <p>Next page</p>}</ErrorBoundary>
    </>
  );
}

describe('the error page', () => {
  it("is titled 'Unexpected Application Error!', says what broke, offers Reload and home, and reports it", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { calls } = mockApi({ 'POST /v1/log/error': { body: { data: null } } });
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    render(<Harness error={new Error('Cannot read the file list')} />);
    expect(
      screen.getByRole('heading', { level: 1, name: 'Unexpected Application Error!' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Cannot read the file list')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
    await userEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(reload).toHaveBeenCalledOnce();
    expect(calls.map((c) => (c.body as { data: { kind: string } }).data.kind)).toEqual(['render']);
  });

  it('goes away on the next navigation', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    mockApi({ 'POST /v1/log/error': { body: { data: null } } });
    render(<Harness error={new Error('Boom')} />);
    await userEvent.click(screen.getByRole('button', { name: 'Navigate' }));
    expect(screen.getByText('Next page')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Unexpected Application Error!' })).toBeNull();
  });

  it('never shows a module address: a chunk that failed to load is said in words', () => {
    const failed = new TypeError(
      'Failed to fetch dynamically imported module: http://127.0.0.1:3000/assets/users-RTWhLdw5.js',
    );
    expect(errorPageText(failed)).toBe(CHUNK_FAILURE_TEXT);
    expect(errorPageText(new ChunkTimeoutError(120_000))).toBe(CHUNK_FAILURE_TEXT);
    expect(errorPageText(new Error('x is undefined at http://127.0.0.1:3000/assets/a.js:1:2'))).toBe(
      'x is undefined at',
    );
    expect(errorPageText(undefined)).toBe('Something went wrong while showing this page.');
  });
});
