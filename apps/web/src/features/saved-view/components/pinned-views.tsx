import type { TSavedView } from '@quire/contract';
import { Link } from 'react-router';
import { searchPath } from '../../../lib/search-params';
import { useViewHitCount } from '../api/view-hit-count';
import { ViewsCard } from './views-card';

// The dashboard's "Pinned views": each pinned saved view opens the search it holds, with how
// many files it finds now (for the first COUNTED: each count is a search on the server, about
// as costly as opening the view).

/** How many of the pinned views show their hit count. */
export const COUNTED = 10;

function HitCount({ view }: { view: TSavedView }) {
  const count = useViewHitCount(view.query);
  if (!count.data) return null;
  const { total, exact } = count.data;
  return (
    <span className="muted">
      {total}
      {exact ? '' : '+'} file{total === 1 ? '' : 's'}
    </span>
  );
}

export function PinnedViews() {
  return (
    <ViewsCard
      className="card dashboard__table"
      headingId="dashboard-pinned-views"
      title="Pinned views"
      pick={(items) => items.filter((v) => v.pinned)}
      none={
        <>
          Save a search from <Link to="/search">Find files</Link> and pin it to see it here.
        </>
      }
    >
      {(pinned) =>
        pinned.map((view, index) => (
          <li key={view.id} className="saved-views__item">
            <Link to={searchPath(view.query)}>{view.name}</Link>
            {index < COUNTED ? <HitCount view={view} /> : null}
          </li>
        ))
      }
    </ViewsCard>
  );
}
