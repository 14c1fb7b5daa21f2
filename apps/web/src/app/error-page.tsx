import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button } from '../components/button';
import { describeError, reportClientError } from '../lib/error-reporting';
import { ChunkTimeoutError } from './chunk-errors';

/** A script of the app that did not arrive (a deploy replaced it, or the network dropped). */
const CHUNK_FAILURE =
  /dynamically imported module|Importing a module script failed|error loading dynamically imported|Unable to preload CSS/i;

export const CHUNK_FAILURE_TEXT =
  'A part of Quire could not be loaded, perhaps because Quire was updated or the connection dropped. Reload the page to get the latest version.';

/** What broke, in words: never a module URL or a stack. */
export function errorPageText(error: unknown): string {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  if (error instanceof ChunkTimeoutError || CHUNK_FAILURE.test(message)) return CHUNK_FAILURE_TEXT;
  const plain = message.replace(/\b(?:https?:\/\/|\/assets\/|\/src\/)\S*/g, '').trim();
  return plain || 'Something went wrong while showing this page.';
}

/** The app's error page (spec §2, §8): what broke, a Reload, and a way home. */
export function ErrorPage({ error }: { error: unknown }) {
  return (
    <main className="centered-page">
      <title>Unexpected Application Error! · Quire</title>
      <div className="card card--narrow">
        <h1>Unexpected Application Error!</h1>
        <p className="error-detail">{errorPageText(error)}</p>
        <div className="auth-actions">
          <Button variant="primary" onClick={() => window.location.reload()}>
            Reload
          </Button>
          {/* A full page load, so that a stale deploy is replaced by the current one. */}
          <a className="button button--ghost" href="/">
            Go to the home page
          </a>
        </div>
      </div>
    </main>
  );
}

interface ErrorBoundaryProps {
  /** A new value (the next navigation) clears the error and shows the page again. */
  resetKey: unknown;
  children: ReactNode;
}

/** Shows the error page for anything thrown while rendering, and reports it. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, { error: unknown; key: unknown }> {
  override state = { error: null as unknown, key: this.props.resetKey };

  static getDerivedStateFromError(error: unknown) {
    return { error: error ?? new Error('Unknown error') };
  }

  static getDerivedStateFromProps(props: ErrorBoundaryProps, state: { error: unknown; key: unknown }) {
    return props.resetKey === state.key ? null : { error: null, key: props.resetKey };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    reportClientError({
      kind: 'render',
      ...describeError(error),
      component_stack: info.componentStack ?? undefined,
    });
  }

  override render() {
    return this.state.error ? <ErrorPage error={this.state.error} /> : this.props.children;
  }
}
