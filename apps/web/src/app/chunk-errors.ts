// A deploy replaces the hashed script and style chunks; a page opened before it then fails to
// load the next chunk. Report it to the notification area (spec §8) instead of failing silently.
import type { Notifier } from '../components/notifications/notification-store';
import { describeError, reportClientError } from '../lib/error-reporting';

export type ChunkFailureType = 'script' | 'style';

/** Vite's preload helper says "Unable to preload CSS for …" when a style chunk fails. */
export function chunkFailureType(error: unknown): ChunkFailureType {
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
  notify.error(
    title,
    `A ${type} file of the app could not be loaded (${type} failure). Reload the page to get the latest version.`,
  );
}

/** Listens for Vite's `vite:preloadError`; returns the function that stops listening. */
export function listenForChunkErrors(notify: Notifier): () => void {
  const onPreloadError = (event: Event) => {
    reportChunkError(notify, (event as Event & { payload?: unknown }).payload);
  };
  window.addEventListener('vite:preloadError', onPreloadError);
  return () => window.removeEventListener('vite:preloadError', onPreloadError);
}

/** Wraps a dynamic import so that its failure is reported before React's error page shows. */
export function reportingImport<T>(notify: Notifier, load: () => Promise<T>): () => Promise<T> {
  return () =>
    load().catch((error: unknown) => {
      reportChunkError(notify, error);
      throw error;
    });
}
