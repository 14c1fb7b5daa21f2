import type { TSavedView } from '@quire/contract';
import { Link } from 'react-router';
import { searchPath } from '../../../lib/search-params';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { useSavedViews } from '../api/list-saved-views';
import { useViewHitCount } from '../api/view-hit-count';

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
  const views = useSavedViews();
  useFailureToast(views.error, views.errorUpdatedAt, 'Failed to load saved views');
  const pinned = (views.data?.items ?? []).filter((v) => v.pinned);
  return (
    <section className="card dashboard__table" aria-labelledby="dashboard-pinned-views">
      <h2 id="dashboard-pinned-views">Pinned views</h2>
      {views.isPending ? (
        <p className="muted" role="status">
          Loading pinned views…
        </p>
      ) : pinned.length === 0 ? (
        <p className="muted">
          {views.isError ? (
            'Your pinned views could not be loaded.'
          ) : (
            <>
              Save a search from <Link to="/search">Find files</Link> and pin it to see it here.
            </>
          )}
        </p>
      ) : (
        <ul className="saved-views__list">
          {pinned.map((view, index) => (
            <li key={view.id} className="saved-views__item">
              <Link to={searchPath(view.query)}>{view.name}</Link>
              {index < COUNTED ? <HitCount view={view} /> : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
