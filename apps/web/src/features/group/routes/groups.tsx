import type { TGroup } from '@quire/contract';
import { useState } from 'react';
import { ConfirmDeleteDialog } from '../../../components/confirm-delete-dialog';
import { EmptyText, QueryTable, Timestamp } from '../../../components/data-table';
import { type ListDialog, listDialogActions, NewButton, WriteActions } from '../../../components/list-parts';
import { PageHeader } from '../../../components/page-header';
import { useAreaAccess } from '../../../lib/permissions';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { useDeleteGroup } from '../api/delete-group';
import { useGroups } from '../api/get-groups';
import { GroupFormDialog } from '../components/group-form-dialog';

const MEMBER_PREVIEW = 3;
const COLUMNS = ['Name', 'Description', 'Members', 'Created'];

function MemberSummary({ group }: { group: TGroup }) {
  if (group.member_count === 0) return <span className="muted">No members</span>;
  const names = group.members.slice(0, MEMBER_PREVIEW).map((m) => m.name);
  const more = group.member_count - names.length;
  return (
    <>
      <strong>{group.member_count}</strong>
      <div className="cell-muted">
        {names.join(', ')}
        {more > 0 ? ` and ${more} more` : ''}
      </div>
    </>
  );
}

export function GroupsPage() {
  const { canWrite } = useAreaAccess('settings');
  const groups = useGroups();
  const deleteGroup = useDeleteGroup();
  const [open, setOpen] = useState<ListDialog<TGroup>>(null);
  useFailureToast(groups.error, groups.errorUpdatedAt, 'Failed to load groups');
  const rows = groups.data ?? [];
  const close = () => setOpen(null);

  return (
    <>
      <PageHeader title="Groups">Teams of users, to share categories and route work to.</PageHeader>
      <WriteActions canWrite={canWrite}>
        <NewButton onClick={() => setOpen({ kind: 'create' })}>New group</NewButton>
      </WriteActions>

      <QueryTable
        query={groups}
        what="groups"
        rows={rows}
        empty={
          <>
            <EmptyText title="No groups yet">
              Groups gather users, so that access and work can go to a team at once.
            </EmptyText>
            {canWrite ? (
              <NewButton onClick={() => setOpen({ kind: 'create' })}>Create the first group</NewButton>
            ) : null}
          </>
        }
        caption="Groups"
        columns={COLUMNS}
        cells={(group) => (
          <>
            <td>
              <strong>{group.name}</strong>
            </td>
            <td>{group.description || <span className="muted">—</span>}</td>
            <td>
              <MemberSummary group={group} />
            </td>
            <td>
              <Timestamp iso={group.created_at} show="date" />
            </td>
          </>
        )}
        rowActions={listDialogActions(canWrite, (group) => group.name, setOpen)}
      />

      {open?.kind === 'create' ? <GroupFormDialog onClose={close} /> : null}
      {open?.kind === 'edit' ? <GroupFormDialog group={open.item} onClose={close} /> : null}
      {open?.kind === 'delete' ? (
        <ConfirmDeleteDialog
          noun="group"
          name={open.item.name}
          remove={deleteGroup}
          value={open.item.id}
          detail={`${open.item.name} was deleted; its members keep their accounts.`}
          onClose={close}
        >
          <p>
            The group and its{' '}
            {open.item.member_count === 1 ? 'membership' : `${open.item.member_count} memberships`} go; the
            users themselves stay.
          </p>
        </ConfirmDeleteDialog>
      ) : null}
    </>
  );
}
