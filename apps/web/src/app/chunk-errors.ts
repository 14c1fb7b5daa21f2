// A deploy replaces the hashed script and style chunks; a page opened before it then fails to
// load the next chunk. Report it to the notification area (spec §8) instead of failing silently.
import type { Notifier } from '../components/notifications/notification-store';
import { describeError, reportClientError } from '../lib/error-reporting';

export type ChunkFailureType = 'script' | 'style' | 'timeout';

/** The spec's chunk load time-out (§9). */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

export class ChunkTimeoutError extends Error {
  override name = 'ChunkLoadTimeout';
  constructor(ms: number) {
    super(`Loading chunk failed: no answer within ${ms / 1000} s (timeout)`);
  }
}

/** Vite's preload helper says "Unable to preload CSS for …" when a style chunk fails. */
export function chunkFailureType(error: unknown): ChunkFailureType {
  if (error instanceof ChunkTimeoutError) return 'timeout';
  const message = error instanceof Error ? error.message : String(error);
  return /\bcss\b/i.test(message) ? 'style' : 'script';
}

const reported = new WeakSet<object>();

export function reportChunkError(notify: Notifier, error: unknown): void {
  // The same failure reaches us twice: as vite:preloadError and as the rejected import.
  if (error !== null && typeof error === 'object') {
    if (reported.has(error)) return;
    reported.add(error);
  }
  const type = chunkFailureType(error);
  const title = type === 'style' ? 'Loading CSS chunk failed' : 'Loading chunk failed';
  const { message, stack } = describeError(error);
  reportClientError({ kind: 'chunk', message: title, failure_type: type, detail: message, stack });
  const detail =
    type === 'timeout'
      ? `A script file of the app did not arrive within ${CHUNK_LOAD_TIMEOUT_MS / 1000} s (timeout failure).`
      : `A ${type} file of the app could not be loaded (${type} failure).`;
  notify.error(title, `${detail} Reload the page to get the latest version.`);
}

/** Listens for Vite's `vite:preloadError`; returns the function that stops listening. */
export function listenForChunkErrors(notify: Notifier): () => void {
  const onPreloadError = (event: Event) => {
    reportChunkError(notify, (event as Event & { payload?: unknown }).payload);
  };
  window.addEventListener('vite:preloadError', onPreloadError);
  return () => window.removeEventListener('vite:preloadError', onPreloadError);
}

/**
 * Wraps a dynamic import so that its failure — or no answer within the spec's 120 s — is
 * reported before React's error page shows.
 */
export function reportingImport<T>(
  notify: Notifier,
  load: () => Promise<T>,
  timeoutMs = CHUNK_LOAD_TIMEOUT_MS,
): () => Promise<T> {
  return () => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ChunkTimeoutError(timeoutMs)), timeoutMs);
    });
    return Promise.race([load(), timeout])
      .catch((error: unknown) => {
        reportChunkError(notify, error);
        throw error;
      })
      .finally(() => clearTimeout(timer));
  };
}
