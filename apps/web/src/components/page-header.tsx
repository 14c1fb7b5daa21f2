import type { ReactNode } from 'react';

/** The top of a page: its h1 (also the document title) and one line about it. */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <header className="page-header">
      <title>{`${title} · Quire`}</title>
      <h1>{title}</h1>
      {children ? <p className="page-header__lead">{children}</p> : null}
    </header>
  );
}
