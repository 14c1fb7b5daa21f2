import { act, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { NotificationArea } from '../components/notifications/notification-area';
import { resetErrorReporting } from '../lib/error-reporting';
import { mockApi } from '../testing/mock-api';
import { renderWithNotifications } from '../testing/notifications';
import { ChunkTimeoutError, chunkFailureType, listenForChunkErrors, reportingImport } from './chunk-errors';

const setup = () => renderWithNotifications(<NotificationArea />).store;

function preloadError(payload: Error) {
  const event = new Event('vite:preloadError', { cancelable: true }) as Event & { payload: Error };
  event.payload = payload;
  act(() => {
    window.dispatchEvent(event);
  });
}

describe('chunk load failures', () => {
  it('tells a script chunk from a style chunk', () => {
    expect(chunkFailureType(new TypeError('Failed to fetch dynamically imported module: /assets/a.js'))).toBe(
      'script',
    );
    expect(chunkFailureType(new Error('Unable to preload CSS for /assets/a.css'))).toBe('style');
  });

  it("reports Vite's preload errors to the notification area", () => {
    const store = setup();
    const stop = listenForChunkErrors(store);
    preloadError(new TypeError('Failed to fetch dynamically imported module: /assets/main-area.js'));
    expect(screen.getByRole('alert')).toHaveTextContent('Loading chunk failed');
    expect(screen.getByRole('alert')).toHaveTextContent('script failure');
    preloadError(new Error('Unable to preload CSS for /assets/main-area.css'));
    expect(screen.getByRole('alert')).toHaveTextContent('Loading CSS chunk failed');
    stop();
  });

  it('reports a failed lazy import once, and still fails it', async () => {
    resetErrorReporting();
    const { calls } = mockApi({ 'POST /v1/log/error': { body: { data: null } } });
    const store = setup();
    const raised = vi.spyOn(store, 'error');
    const stop = listenForChunkErrors(store);
    const failure = new TypeError('Failed to fetch dynamically imported module');
    const load = reportingImport(store, () => Promise.reject(failure));
    // The same failure arrives twice: as Vite's preload error and as the rejected import.
    preloadError(failure);
    await act(async () => {
      await expect(load()).rejects.toBe(failure);
    });
    expect(raised).toHaveBeenCalledTimes(1);
    expect(calls.filter((c) => c.path === '/v1/log/error')).toHaveLength(1);
    expect(screen.getByRole('alert')).toHaveTextContent('Loading chunk failed');
    stop();
  });

  it('gives up on a chunk that has not arrived after 120 s, and says so', async () => {
    vi.useFakeTimers();
    try {
      const store = setup();
      const load = reportingImport(store, () => new Promise<never>(() => {}));
      const pending = load();
      const outcome = expect(pending).rejects.toBeInstanceOf(ChunkTimeoutError);
      await act(async () => {
        await vi.advanceTimersByTimeAsync(119_999);
      });
      expect(screen.queryByRole('alert')).toBeNull();
      await act(async () => {
        await vi.advanceTimersByTimeAsync(1);
      });
      await outcome;
      expect(screen.getByRole('alert')).toHaveTextContent('Loading chunk failed');
      expect(screen.getByRole('alert')).toHaveTextContent('timeout failure');
    } finally {
      vi.useRealTimers();
    }
  });
});
