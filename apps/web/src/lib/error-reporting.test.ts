import { afterEach, describe, expect, it, vi } from 'vitest';
import { aLogin } from '../testing/fixtures';
import { mockApi } from '../testing/mock-api';
import {
  installErrorReporting,
  MAX_REPORTS_PER_WINDOW,
  REPORT_WINDOW_MS,
  reportClientError,
  resetErrorReporting,
} from './error-reporting';
import { authRecordFrom, setAuth } from './storage';

afterEach(() => resetErrorReporting());

const reports = (calls: ReturnType<typeof mockApi>['calls']) =>
  calls.filter((c) => c.path === '/v1/log/error');

describe('error reporting', () => {
  it('sends uncaught errors to POST /v1/log/error with message, stack and url, and the token', async () => {
    setAuth(authRecordFrom(aLogin('user', 'General staff')));
    const { calls } = mockApi({ 'POST /v1/log/error': { body: { data: null } } });
    const stop = installErrorReporting(window);
    const error = new TypeError('Cannot read properties of undefined');
    window.dispatchEvent(
      new ErrorEvent('error', { error, message: error.message, filename: '/assets/a.js', lineno: 3 }),
    );
    stop();
    await vi.waitFor(() => expect(reports(calls)).toHaveLength(1));
    const [call] = reports(calls);
    expect(call?.method).toBe('POST');
    expect(call?.headers.authorization).toBe('Bearer token-123');
    expect(call?.body).toMatchObject({
      data: {
        kind: 'error',
        message: 'Cannot read properties of undefined',
        stack: expect.stringContaining('TypeError'),
        url: window.location.href,
        source: '/assets/a.js',
        line: 3,
      },
    });
  });

  it('sends unhandled promise rejections', async () => {
    const { calls } = mockApi({ 'POST /v1/log/error': { body: { data: null } } });
    const stop = installErrorReporting(window);
    const event = new Event('unhandledrejection') as Event & { reason: unknown };
    event.reason = new Error('Request went nowhere');
    window.dispatchEvent(event);
    stop();
    await vi.waitFor(() => expect(reports(calls)).toHaveLength(1));
    expect(reports(calls)[0]?.body).toMatchObject({
      data: { kind: 'unhandledrejection', message: 'Request went nowhere' },
    });
  });

  it('sends at most a few a minute', () => {
    const { calls } = mockApi({ 'POST /v1/log/error': { body: { data: null } } });
    const start = 1_000_000;
    for (let i = 0; i < 20; i++) reportClientError({ kind: 'error', message: `boom ${i}` }, start + i);
    expect(reports(calls)).toHaveLength(MAX_REPORTS_PER_WINDOW);
    reportClientError({ kind: 'error', message: 'later' }, start + REPORT_WINDOW_MS + 1);
    expect(reports(calls)).toHaveLength(MAX_REPORTS_PER_WINDOW + 1);
  });

  it('never throws, whatever fetch does', async () => {
    vi.stubGlobal('fetch', () => {
      throw new Error('fetch is broken');
    });
    expect(() => reportClientError({ kind: 'error', message: 'x' })).not.toThrow();
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    expect(() => reportClientError({ kind: 'error', message: 'y' })).not.toThrow();
    await new Promise((r) => setTimeout(r, 0));
  });

  it('reports chunk-load failures with their type', async () => {
    const { calls } = mockApi({ 'POST /v1/log/error': { body: { data: null } } });
    const { reportChunkError } = await import('../app/chunk-errors');
    const notify = { error: vi.fn() } as unknown as Parameters<typeof reportChunkError>[0];
    reportChunkError(notify, new Error('Unable to preload CSS for /assets/main.css'));
    expect(reports(calls)[0]?.body).toMatchObject({
      data: { kind: 'chunk', message: 'Loading CSS chunk failed', failure_type: 'style' },
    });
  });
});
