import { isRouteErrorResponse, useRouteError } from 'react-router';

function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`.trim();
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  return 'Something went wrong while showing this page.';
}

/** The router's default error page (spec §2, §8). */
export function ErrorPage() {
  const error = useRouteError();
  return (
    <main className="centered-page">
      <title>Unexpected Application Error! · Quire</title>
      <div className="card card--narrow">
        <h1>Unexpected Application Error!</h1>
        <p className="error-detail">{describe(error)}</p>
        {/* A full page load, so that a stale deploy is replaced by the current one. */}
        <a className="button button--primary" href="/">
          Go to the home page
        </a>
      </div>
    </main>
  );
}
