import type { TFilterFilesBody, TSavedView } from '@quire/contract';
import { lazy, Suspense, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { Button } from '../../../components/button';
import { ConfirmMutationDialog } from '../../../components/confirm-mutation-dialog';
import { MenuButton, type MenuItem } from '../../../components/menu-button';
import { useNotify } from '../../../components/notifications/notification-context';
import { readSearch, searchPath, searchQueryOf } from '../../../lib/search-params';
import { useDeleteSavedView } from '../api/delete-saved-view';
import { useUpdateSavedView } from '../api/update-saved-view';
import { ViewsCard } from './views-card';

// Its form's schema (zod) loads when a view is first saved or renamed, not with the search page.
const ViewNameDialog = lazy(() => import('./view-name-dialog').then((m) => ({ default: m.ViewNameDialog })));

// The search page's saved views: "Save view…" for the search shown, and the person's views
// to open, rename, give the search shown, pin or unpin, move up or down, and delete (after
// asking).

type Open = { kind: 'rename'; view: TSavedView } | { kind: 'delete'; view: TSavedView };

function ViewActions({
  view,
  index,
  count,
  shown,
  onOpen,
}: {
  view: TSavedView;
  index: number;
  count: number;
  /** The search on the page, when it is not this view's: the view may take it. */
  shown: TFilterFilesBody | null;
  onOpen: (open: Open) => void;
}) {
  const notify = useNotify();
  const update = useUpdateSavedView();
  const change = (
    body: { pinned?: boolean; position?: number; query?: TFilterFilesBody },
    done: [string, string],
  ) =>
    update.mutate(
      { id: view.id, ...body },
      {
        onSuccess: () => notify.success(...done),
        onError: (error) => notify.notifyFailure('Failed to change view!', error),
      },
    );
  const items: MenuItem[] = [
    { label: 'Rename…', name: `Rename ${view.name}`, onSelect: () => onOpen({ kind: 'rename', view }) },
    ...(shown
      ? [
          {
            label: 'Save the search shown into it',
            name: `Save the search shown into ${view.name}`,
            onSelect: () =>
              change({ query: shown }, ['View saved', `${view.name} now opens the search shown.`]),
          },
        ]
      : []),
    view.pinned
      ? {
          label: 'Unpin from dashboard',
          name: `Unpin ${view.name} from the dashboard`,
          onSelect: () => change({ pinned: false }, ['View unpinned', `${view.name} left your dashboard.`]),
        }
      : {
          label: 'Pin to dashboard',
          name: `Pin ${view.name} to the dashboard`,
          onSelect: () => change({ pinned: true }, ['View pinned', `${view.name} is on your dashboard.`]),
        },
    ...(index > 0
      ? [
          {
            label: 'Move up',
            name: `Move ${view.name} up`,
            onSelect: () => change({ position: index - 1 }, ['View moved', `${view.name} moved up.`]),
          },
        ]
      : []),
    ...(index < count - 1
      ? [
          {
            label: 'Move down',
            name: `Move ${view.name} down`,
            onSelect: () => change({ position: index + 1 }, ['View moved', `${view.name} moved down.`]),
          },
        ]
      : []),
    {
      label: 'Delete…',
      name: `Delete ${view.name}`,
      danger: true,
      onSelect: () => onOpen({ kind: 'delete', view }),
    },
  ];
  return <MenuButton label="More" name={`Actions for ${view.name}`} items={items} />;
}

function DeleteViewDialog({ view, onClose }: { view: TSavedView; onClose: () => void }) {
  const remove = useDeleteSavedView();
  return (
    <ConfirmMutationDialog
      title={`Delete ${view.name}`}
      confirmLabel="Delete"
      pendingLabel="Deleting…"
      tone="danger"
      mutation={remove}
      value={view.id}
      success={['View deleted', `${view.name} was deleted. The files it found are untouched.`]}
      failure="Failed to delete view!"
      onClose={onClose}
    >
      <p>The saved search goes{view.pinned ? ', and leaves your dashboard' : ''}. No file is changed.</p>
    </ConfirmMutationDialog>
  );
}

/** The "Save view…" button (for `query`, the search shown; none: nothing to save yet). */
export function SaveViewButton({ query }: { query: TFilterFilesBody | null }) {
  const [open, setOpen] = useState(false);
  if (!query) return null;
  return (
    <>
      <Button variant="ghost" onClick={() => setOpen(true)}>
        Save view…
      </Button>
      <Suspense fallback={null}>
        {open ? <ViewNameDialog query={query} onClose={() => setOpen(false)} /> : null}
      </Suspense>
    </>
  );
}

/** The person's saved views, each opening the search it holds, with its actions. */
export function SavedViewsPanel() {
  const [open, setOpen] = useState<Open | null>(null);
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  const shown = searchQueryOf(readSearch(new URLSearchParams(location.search)));
  return (
    <>
      <ViewsCard
        className="card saved-views"
        headingId="saved-views-heading"
        title="Saved views"
        none="None yet. Search or choose filters, then Save view… to come back to them in one click."
      >
        {(items) =>
          items.map((view, index) => (
            <li key={view.id} className="saved-views__item">
              <Link
                to={searchPath(view.query)}
                aria-current={searchPath(view.query) === here ? 'page' : undefined}
              >
                {view.name}
              </Link>
              {view.pinned ? <span className="badge">Pinned</span> : null}
              <ViewActions
                view={view}
                index={index}
                count={items.length}
                shown={shown && searchPath(shown) !== searchPath(view.query) ? shown : null}
                onOpen={setOpen}
              />
            </li>
          ))
        }
      </ViewsCard>
      <Suspense fallback={null}>
        {open?.kind === 'rename' ? <ViewNameDialog view={open.view} onClose={() => setOpen(null)} /> : null}
      </Suspense>
      {open?.kind === 'delete' ? <DeleteViewDialog view={open.view} onClose={() => setOpen(null)} /> : null}
    </>
  );
}
