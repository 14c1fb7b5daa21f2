import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { PageHeader } from '../../../components/page-header';

const TABS = [
  { path: '/admin/retention', label: 'Rules' },
  { path: '/admin/retention/holds', label: 'Legal holds' },
  { path: '/admin/retention/dispositions', label: 'Dispositions' },
] as const;

/** A retention screen's title and lead, then the tabs. */
export function RetentionHeader({ title, children }: { title: string; children: ReactNode }) {
  return (
    <>
      <PageHeader title={title}>{children}</PageHeader>
      <RetentionTabs />
    </>
  );
}

/** The three screens of retention, as links (each its own page and address). */
export function RetentionTabs() {
  const { pathname } = useLocation();
  return (
    <nav aria-label="Retention" className="tabs__list">
      {TABS.map((tab) => {
        const current = pathname === tab.path;
        return (
          <Link
            key={tab.path}
            to={tab.path}
            className="tabs__tab"
            aria-current={current ? 'page' : undefined}
            data-selected={current || undefined}
          >
            {tab.label}
          </Link>
        );
      })}
    </nav>
  );
}
