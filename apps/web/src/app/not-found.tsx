import { Link } from 'react-router';

export function NotFoundPage() {
  return (
    <main className="centered-page">
      <title>Page not found · Quire</title>
      <div className="card card--narrow">
        <h1>Page not found</h1>
        <p className="muted">There is no page at this address.</p>
        <Link className="button button--primary" to="/">
          Go to the home page
        </Link>
      </div>
    </main>
  );
}
