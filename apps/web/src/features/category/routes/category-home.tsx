import type { TCategory } from '@quire/contract';
import { lazy, Suspense, useMemo, useState } from 'react';
import type { Key } from 'react-aria-components';
import { Link, useSearchParams } from 'react-router';
import { EmptyText, QueryState } from '../../../components/data-table';
import { useNotify } from '../../../components/notifications/notification-context';
import { PageHeader } from '../../../components/page-header';
import { TreeView } from '../../../components/tree-view';
import { getSelectedCategoryId, setSelectedCategoryId } from '../../../lib/storage';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { useDuplicateFolder } from '../api/duplicate-folder';
import { useFolderInfo } from '../api/get-folder-info';
import { useFolders } from '../api/get-folders';
import { useUpdateFolder } from '../api/update-folder';
import { type CategoryAction, CategoryDetail } from '../components/category-detail';
import { DeleteCategoryDialog } from '../components/delete-category-dialog';
import { MoveDialog } from '../components/move-dialog';
import { catalogAccess } from '../lib/catalog-access';
import { pathTo, toTree } from '../lib/tree';

// Its form's schema (zod) loads when a category is first created or renamed: people who only
// browse categories never load it.
const CategoryNameDialog = lazy(() =>
  import('../components/category-name-dialog').then((m) => ({ default: m.CategoryNameDialog })),
);

type Open =
  | { kind: 'create'; parent: { id: number; name: string } | null }
  | { kind: 'rename'; folder: TCategory }
  | { kind: 'move'; folder: TCategory }
  | { kind: 'delete' }
  | null;

/**
 * The category tree (File Control's landing page, and the Categories page of everyone else):
 * the categories the person may view, one chosen at a time with what it holds. File Control
 * writers create, rename, move, reorder, duplicate and delete here; the settings page holds
 * fields, rights and tags.
 */
export function CategoriesPage() {
  const notify = useNotify();
  const { canWrite, readsAll } = catalogAccess();
  const folders = useFolders();
  useFailureToast(folders.error, folders.errorUpdatedAt, 'Failed to load categories');
  const list = folders.data ?? [];
  const tree = useMemo(() => toTree(list), [list]);
  const [searchParams, setSearchParams] = useSearchParams();
  const asked = Number(searchParams.get('id') ?? getSelectedCategoryId() ?? Number.NaN);
  const selected = list.some((f) => f.id === asked) ? asked : (list[0]?.id ?? null);
  const [expanded, setExpanded] = useState<Set<Key> | null>(null);
  // At first the way down to the chosen category is open, and the category itself.
  const shownExpanded =
    expanded ?? new Set<Key>(selected === null ? [] : [...pathTo(list, selected), selected]);
  const info = useFolderInfo(selected);
  useFailureToast(info.error, info.errorUpdatedAt, 'Failed to load the category');
  const update = useUpdateFolder();
  const duplicate = useDuplicateFolder();
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);

  const choose = (id: number) => {
    setSelectedCategoryId(id);
    setSearchParams({ id: String(id) }, { replace: true });
    setExpanded((keys) => new Set([...(keys ?? shownExpanded), ...pathTo(list, id)]));
  };

  const current = list.find((f) => f.id === selected);
  const siblings = current ? list.filter((f) => f.parent_id === current.parent_id) : [];

  const act = (action: CategoryAction) => {
    if (!current || !info.data) return;
    if (action === 'create') setOpen({ kind: 'create', parent: { id: current.id, name: current.name } });
    if (action === 'rename') setOpen({ kind: 'rename', folder: current });
    if (action === 'move') setOpen({ kind: 'move', folder: current });
    if (action === 'delete') setOpen({ kind: 'delete' });
    if (action === 'up' || action === 'down') {
      const index = siblings.findIndex((s) => s.id === current.id);
      update.mutate(
        { folder_id: current.id, position: action === 'up' ? index - 1 : index + 1 },
        { onError: (e) => notify.notifyFailure('Failed to move category!', e) },
      );
    }
    if (action === 'duplicate')
      duplicate.mutate(
        { folder_id: current.id },
        {
          onSuccess: (copy) => {
            notify.success(
              'Category copied',
              `${copy.name} has the fields, tags and rights of ${current.name}, without its files.`,
            );
            choose(copy.id);
          },
          onError: (e) => notify.notifyFailure('Failed to duplicate category!', e),
        },
      );
  };

  return (
    <>
      <PageHeader title="Categories">
        {canWrite
          ? 'The tree files are filed in. Choose a category to see it; its settings hold its fields, rights and tags.'
          : readsAll
            ? 'Every category, read only.'
            : 'The categories open to you.'}
      </PageHeader>
      <div className="section-header">
        {canWrite ? (
          <button
            type="button"
            className="button button--primary"
            onClick={() => setOpen({ kind: 'create', parent: null })}
          >
            New category
          </button>
        ) : readsAll ? (
          <span className="badge badge--neutral">Read only</span>
        ) : null}
        {readsAll ? (
          <Link className="button button--ghost" to="/admin/category-groups">
            Category groups
          </Link>
        ) : null}
      </div>
      <QueryState
        query={folders}
        what="categories"
        isEmpty={list.length === 0}
        empty={
          <EmptyText title="No categories yet">
            {canWrite
              ? 'Categories hold files. Create the first one.'
              : 'No category is open to you yet. Ask a File Control admin for access.'}
          </EmptyText>
        }
      >
        <div className="catalog">
          <section className="card catalog__tree" aria-label="Category tree">
            <TreeView
              label="Categories"
              items={tree}
              selected={selected}
              onSelect={(id) => choose(Number(id))}
              expanded={shownExpanded}
              onExpandedChange={setExpanded}
            />
          </section>
          {info.data && info.data.id === selected ? (
            <CategoryDetail
              info={info.data}
              siblings={siblings}
              canWrite={canWrite}
              settingsPath={readsAll ? `/admin/category/${info.data.id}` : null}
              onAction={act}
              onOpen={choose}
            />
          ) : (
            <div className="card empty-state" role="status">
              <span className="spinner" aria-hidden="true" />
              <p className="muted">Loading the category…</p>
            </div>
          )}
        </div>
      </QueryState>

      <Suspense fallback={null}>
        {open?.kind === 'create' ? (
          <CategoryNameDialog
            parent={open.parent}
            onClose={close}
            onSaved={(id) => {
              close();
              choose(id);
            }}
          />
        ) : null}
        {open?.kind === 'rename' ? (
          <CategoryNameDialog folder={open.folder} onClose={close} onSaved={close} />
        ) : null}
      </Suspense>
      {open?.kind === 'move' ? <MoveDialog folder={open.folder} folders={list} onClose={close} /> : null}
      {open?.kind === 'delete' && info.data ? (
        <DeleteCategoryDialog
          info={info.data}
          onClose={close}
          onDeleted={() => {
            close();
            setSearchParams({}, { replace: true });
          }}
        />
      ) : null}
    </>
  );
}
