import type { TSavedView } from '@quire/contract';
import type { ReactNode } from 'react';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { useSavedViews } from '../api/list-saved-views';

/**
 * A card of the person's saved views (all of them, or the pinned ones): its heading, then
 * "Loading…", why there are none (or that they could not be loaded), or the list.
 */
export function ViewsCard({
  className,
  headingId,
  title,
  pick = (items) => items,
  none,
  children,
}: {
  className: string;
  headingId: string;
  /** "Saved views": the heading; "Loading saved views…" and the failure say it too. */
  title: string;
  /** Which of the views the card lists. */
  pick?: (items: TSavedView[]) => TSavedView[];
  /** What to say when there is none. */
  none: ReactNode;
  children: (views: TSavedView[]) => ReactNode;
}) {
  const views = useSavedViews();
  useFailureToast(views.error, views.errorUpdatedAt, 'Failed to load saved views');
  const items = pick(views.data?.items ?? []);
  const lower = title.toLowerCase();
  return (
    <section className={className} aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      {views.isPending ? (
        <p className="muted" role="status">
          Loading {lower}…
        </p>
      ) : items.length === 0 ? (
        <p className="muted">{views.isError ? `Your ${lower} could not be loaded.` : none}</p>
      ) : (
        <ul className="saved-views__list">{children(items)}</ul>
      )}
    </section>
  );
}
