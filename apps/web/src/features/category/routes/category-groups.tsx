import type { TCategoryGroup } from '@quire/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDeleteDialog } from '../../../components/confirm-delete-dialog';
import { EmptyText, QueryTable } from '../../../components/data-table';
import { type ListDialog, listDialogActions, NewButton, WriteActions } from '../../../components/list-parts';
import { PageHeader } from '../../../components/page-header';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { useDeleteCategoryGroup } from '../api/delete-category-group';
import { useCategoryGroups } from '../api/get-category-groups';
import { CategoryGroupDialog } from '../components/category-group-dialog';
import { catalogAccess } from '../lib/catalog-access';

const PREVIEW = 3;

/** Category groups: named sets of categories, to organise the tree and grant rights on many at once. */
export function CategoryGroupsPage() {
  const { canWrite } = catalogAccess();
  const groups = useCategoryGroups();
  const remove = useDeleteCategoryGroup();
  useFailureToast(groups.error, groups.errorUpdatedAt, 'Failed to load category groups');
  const [open, setOpen] = useState<ListDialog<TCategoryGroup>>(null);
  const close = () => setOpen(null);
  const rows = groups.data ?? [];

  return (
    <>
      <PageHeader title="Category groups">
        Named sets of categories. Rights given to a group hold on each of its categories.
      </PageHeader>
      <Link to="/admin/category">Back to the tree</Link>
      <WriteActions canWrite={canWrite}>
        <NewButton onClick={() => setOpen({ kind: 'create' })}>New category group</NewButton>
      </WriteActions>
      <QueryTable
        query={groups}
        what="category groups"
        rows={rows}
        empty={
          <EmptyText title="No category groups yet">
            A group gathers categories, so that rights can be given on all of them at once.
          </EmptyText>
        }
        caption="Category groups"
        columns={['Name', 'Categories', 'Rights given to']}
        cells={(g) => (
          <>
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
          </>
        )}
        rowActions={listDialogActions(canWrite, (g) => g.name, setOpen)}
      />
      {open?.kind === 'create' ? <CategoryGroupDialog onClose={close} /> : null}
      {open?.kind === 'edit' ? <CategoryGroupDialog group={open.item} onClose={close} /> : null}
      {open?.kind === 'delete' ? (
        <ConfirmDeleteDialog
          noun="category group"
          name={open.item.name}
          confirmLabel="Delete group"
          remove={remove}
          value={open.item.id}
          detail={`${open.item.name} was deleted; its categories stay.`}
          onClose={close}
        >
          <p>The categories stay; the rights given through the group stop holding on them.</p>
        </ConfirmDeleteDialog>
      ) : null}
    </>
  );
}
