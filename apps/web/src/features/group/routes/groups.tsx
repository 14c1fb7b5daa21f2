import type { TGroup } from '@quire/contract';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DataTable, QueryState, RowAction, Timestamp } from '../../../components/data-table';
import { useNotify } from '../../../components/notifications/notification-context';
import { PageHeader } from '../../../components/page-header';
import { useAreaAccess } from '../../../lib/permissions';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { useDeleteGroup } from '../api/delete-group';
import { useGroups } from '../api/get-groups';
import { GroupFormDialog } from '../components/group-form-dialog';

type Open = { kind: 'create' } | { kind: 'edit'; group: TGroup } | { kind: 'delete'; group: TGroup } | null;

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
  const notify = useNotify();
  const { canWrite } = useAreaAccess('settings');
  const groups = useGroups();
  const deleteGroup = useDeleteGroup();
  const [open, setOpen] = useState<Open>(null);
  useFailureToast(groups.error, groups.errorUpdatedAt, 'Failed to load groups');
  const rows = groups.data ?? [];
  const close = () => setOpen(null);

  const confirmDelete = (group: TGroup) =>
    deleteGroup.mutate(group.id, {
      onSuccess: () => {
        notify.success('Group deleted', `${group.name} was deleted; its members keep their accounts.`);
        close();
      },
      onError: (error) => notify.notifyFailure('Failed to delete group!', error),
    });

  return (
    <>
      <PageHeader title="Groups">Teams of users, to share categories and route work to.</PageHeader>
      <div className="section-header">
        {canWrite ? (
          <button
            type="button"
            className="button button--primary"
            onClick={() => setOpen({ kind: 'create' })}
          >
            New group
          </button>
        ) : (
          <span className="badge badge--neutral">Read only</span>
        )}
      </div>

      <QueryState
        query={groups}
        loadingText="Loading groups…"
        failedText="The groups could not be loaded"
        isEmpty={rows.length === 0}
        empty={
          <>
            <h2>No groups yet</h2>
            <p className="muted">Groups gather users, so that access and work can go to a team at once.</p>
            {canWrite ? (
              <button
                type="button"
                className="button button--primary"
                onClick={() => setOpen({ kind: 'create' })}
              >
                Create the first group
              </button>
            ) : null}
          </>
        }
      >
        <DataTable caption="Groups" columns={COLUMNS} actions={canWrite}>
          {rows.map((group) => (
            <tr key={group.id}>
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
              {canWrite ? (
                <td className="cell-actions">
                  <span className="row-actions">
                    <RowAction label={`Edit ${group.name}`} onClick={() => setOpen({ kind: 'edit', group })}>
                      Edit
                    </RowAction>
                    <RowAction
                      label={`Delete ${group.name}`}
                      danger
                      onClick={() => setOpen({ kind: 'delete', group })}
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

      {open?.kind === 'create' ? <GroupFormDialog onClose={close} /> : null}
      {open?.kind === 'edit' ? <GroupFormDialog group={open.group} onClose={close} /> : null}
      {open?.kind === 'delete' ? (
        <ConfirmDialog
          title={`Delete the group ${open.group.name}?`}
          confirmLabel="Delete group"
          pendingLabel="Deleting…"
          tone="danger"
          pending={deleteGroup.isPending}
          onConfirm={() => confirmDelete(open.group)}
          onCancel={close}
        >
          <p>
            The group and its{' '}
            {open.group.member_count === 1 ? 'membership' : `${open.group.member_count} memberships`} go; the
            users themselves stay.
          </p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
