// Sends the client's own failures (uncaught errors, unhandled rejections, chunk-load failures)
// to POST /v1/log/error `{ data }`, a few per minute at most, and never throws. Plain fetch
// and no contract import: this file is part of the first chunk the browser loads.
import { getAccessToken } from './storage';

export const LOG_ERROR_PATH = '/v1/log/error';

/** At most this many reports in any REPORT_WINDOW_MS. */
export const MAX_REPORTS_PER_WINDOW = 5;
export const REPORT_WINDOW_MS = 60_000;

const MAX_TEXT = 4_000;

export interface ErrorReport {
  message: string;
  stack?: string;
  /** What raised it: 'error', 'unhandledrejection', 'chunk', … */
  kind: string;
  [key: string]: unknown;
}

let sentAt: number[] = [];

/** For tests: forget the reports counted so far. */
export function resetErrorReporting(): void {
  sentAt = [];
}

function clip(value: string | undefined): string | undefined {
  return value === undefined ? undefined : value.slice(0, MAX_TEXT);
}

/** The message and stack of anything thrown. */
export function describeError(error: unknown): { message: string; stack?: string } {
  if (error instanceof Error) {
    return { message: clip(error.message || error.name) ?? 'Error', stack: clip(error.stack) };
  }
  if (typeof error === 'string') return { message: clip(error) ?? '' };
  try {
    return { message: clip(JSON.stringify(error)) ?? String(error) };
  } catch {
    return { message: String(error) };
  }
}

/** Sends one report, unless too many went out in the last minute. Never throws. */
export function reportClientError(report: ErrorReport, now: number = Date.now()): void {
  try {
    sentAt = sentAt.filter((t) => now - t < REPORT_WINDOW_MS);
    if (sentAt.length >= MAX_REPORTS_PER_WINDOW) return;
    sentAt.push(now);
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'Content-Type': 'application/json',
    };
    const token = getAccessToken();
    if (token) headers.Authorization = `Bearer ${token}`;
    const data = {
      ...report,
      message: clip(report.message) || 'Unknown error',
      url: window.location.href,
      user_agent: navigator.userAgent,
      at: new Date(now).toISOString(),
    };
    const sent = fetch(LOG_ERROR_PATH, {
      method: 'POST',
      headers,
      body: JSON.stringify({ data }),
      keepalive: true,
    });
    // A report that cannot be sent is dropped: reporting must not cause errors of its own.
    Promise.resolve(sent).catch(() => {});
  } catch {
    // Same: never let reporting break the page.
  }
}

/**
 * Reports uncaught errors and unhandled promise rejections of `target` (the window);
 * returns the function that stops listening.
 */
export function installErrorReporting(target: Window = window): () => void {
  const onError = (event: ErrorEvent) => {
    // A resource that failed to load (img, script) raises an Event, not an ErrorEvent.
    if (!(event instanceof ErrorEvent)) return;
    const described = describeError(event.error ?? event.message);
    reportClientError({
      kind: 'error',
      ...described,
      message: event.message || described.message,
      source: event.filename || undefined,
      line: event.lineno || undefined,
      column: event.colno || undefined,
    });
  };
  const onRejection = (event: PromiseRejectionEvent) => {
    reportClientError({ kind: 'unhandledrejection', ...describeError(event.reason) });
  };
  target.addEventListener('error', onError);
  target.addEventListener('unhandledrejection', onRejection);
  return () => {
    target.removeEventListener('error', onError);
    target.removeEventListener('unhandledrejection', onRejection);
  };
}
