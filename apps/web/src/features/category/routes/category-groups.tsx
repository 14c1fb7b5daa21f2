import type { TCategoryGroup } from '@quire/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DataTable, QueryState, RowAction } from '../../../components/data-table';
import { useNotify } from '../../../components/notifications/notification-context';
import { PageHeader } from '../../../components/page-header';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { useDeleteCategoryGroup } from '../api/delete-category-group';
import { useCategoryGroups } from '../api/get-category-groups';
import { CategoryGroupDialog } from '../components/category-group-dialog';
import { catalogAccess } from '../lib/catalog-access';

type Open =
  | { kind: 'create' }
  | { kind: 'edit'; group: TCategoryGroup }
  | { kind: 'delete'; group: TCategoryGroup }
  | null;
const PREVIEW = 3;

/** Category groups: named sets of categories, to organise the tree and grant rights on many at once. */
export function CategoryGroupsPage() {
  const notify = useNotify();
  const { canWrite } = catalogAccess();
  const groups = useCategoryGroups();
  const remove = useDeleteCategoryGroup();
  useFailureToast(groups.error, groups.errorUpdatedAt, 'Failed to load category groups');
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);
  const rows = groups.data ?? [];

  return (
    <>
      <PageHeader title="Category groups">
        Named sets of categories. Rights given to a group hold on each of its categories.
      </PageHeader>
      <Link to="/admin/category">Back to the tree</Link>
      <div className="section-header">
        {canWrite ? (
          <button
            type="button"
            className="button button--primary"
            onClick={() => setOpen({ kind: 'create' })}
          >
            New category group
          </button>
        ) : (
          <span className="badge badge--neutral">Read only</span>
        )}
      </div>
      <QueryState
        query={groups}
        loadingText="Loading category groups…"
        failedText="The category groups could not be loaded"
        isEmpty={rows.length === 0}
        empty={
          <>
            <h2>No category groups yet</h2>
            <p className="muted">
              A group gathers categories, so that rights can be given on all of them at once.
            </p>
          </>
        }
      >
        <DataTable
          caption="Category groups"
          columns={['Name', 'Categories', 'Rights given to']}
          actions={canWrite}
        >
          {rows.map((g) => (
            <tr key={g.id}>
              <td>
                <strong>{g.name}</strong>
                {g.description ? <div className="cell-muted">{g.description}</div> : null}
              </td>
              <td>
                {g.categories.length === 0 ? (
                  <span className="muted">None</span>
                ) : (
                  <>
                    {g.categories
                      .slice(0, PREVIEW)
                      .map((c) => c.path)
                      .join(', ')}
                    {g.categories.length > PREVIEW ? ` and ${g.categories.length - PREVIEW} more` : ''}
                  </>
                )}
              </td>
              <td>
                {g.grants?.length ? (
                  g.grants.map((x) => x.grantee.name).join(', ')
                ) : (
                  <span className="muted">Nobody</span>
                )}
              </td>
              {canWrite ? (
                <td className="cell-actions">
                  <span className="row-actions">
                    <RowAction label={`Edit ${g.name}`} onClick={() => setOpen({ kind: 'edit', group: g })}>
                      Edit
                    </RowAction>
                    <RowAction
                      label={`Delete ${g.name}`}
                      danger
                      onClick={() => setOpen({ kind: 'delete', group: g })}
                    >
                      Delete
                    </RowAction>
                  </span>
                </td>
              ) : null}
            </tr>
          ))}
        </DataTable>
      </QueryState>
      {open?.kind === 'create' ? <CategoryGroupDialog onClose={close} /> : null}
      {open?.kind === 'edit' ? <CategoryGroupDialog group={open.group} onClose={close} /> : null}
      {open?.kind === 'delete' ? (
        <ConfirmDialog
          title={`Delete the category group ${open.group.name}?`}
          confirmLabel="Delete group"
          pendingLabel="Deleting…"
          tone="danger"
          pending={remove.isPending}
          onCancel={close}
          onConfirm={() =>
            remove.mutate(open.group.id, {
              onSuccess: () => {
                notify.success(
                  'Category group deleted',
                  `${open.group.name} was deleted; its categories stay.`,
                );
                close();
              },
              onError: (e) => notify.notifyFailure('Failed to delete category group!', e),
            })
          }
        >
          <p>The categories stay; the rights given through the group stop holding on them.</p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
