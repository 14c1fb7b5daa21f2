/** The visible loading indicator while a part of the app loads. */
export function PageLoader({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="page-loader" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

/**
 * A whole page on its way (the routes' Suspense fallback): the loader, and a document title
 * meanwhile, since the page left took its own title with it.
 */
export function PageOnItsWay() {
  return (
    <>
      <title>Loading… · Quire</title>
      <PageLoader />
    </>
  );
}
