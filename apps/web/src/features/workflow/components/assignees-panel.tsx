import type { TStep } from '@quire/contract';
import { useState } from 'react';
import { Button } from '../../../components/button';
import { MultiPicker } from '../../../components/multi-picker';
import { useNotify } from '../../../components/notifications/notification-context';
import { PendingButton } from '../../../components/pending-button';
import { useDeleteAssignee } from '../api/delete-assignee';
import { useRecipients } from '../api/get-recipients';
import { useSaveAssignees } from '../api/save-assignees';

/** Who acts in a step: users and groups (a group's members each get the work). */
export function AssigneesPanel({ step, canWrite }: { step: TStep; canWrite: boolean }) {
  const notify = useNotify();
  const recipients = useRecipients();
  const save = useSaveAssignees();
  const remove = useDeleteAssignee();
  const [users, setUsers] = useState(() => step.assignees.flatMap((a) => (a.user_id ? [a.user_id] : [])));
  const [groups, setGroups] = useState(() => step.assignees.flatMap((a) => (a.group_id ? [a.group_id] : [])));

  const onSave = () =>
    save.mutate(
      { workflow_step_id: step.id, user_ids: users, group_ids: groups },
      {
        onSuccess: (saved) =>
          notify.success('Assignees saved', `${saved.length} assignee(s) act in ${step.name}.`),
        onError: (error) => notify.notifyFailure('Failed to update assignees!', error),
      },
    );

  return (
    <div className="stack">
      <p className="muted">
        Files entering the step wait on these people. Completion:{' '}
        {step.completion === 'quorum'
          ? `${step.quorum} approvals`
          : step.completion === 'all'
            ? 'everyone approves'
            : 'one approval'}
        . Changes apply to files that enter the step afterwards.
      </p>
      {step.assignees.length ? (
        <ul className="detail-list" aria-label={`Assignees of ${step.name}`}>
          {step.assignees.map((a) => (
            <li key={a.id} className="detail-list__item">
              <span>
                {a.name} <span className="muted">({a.kind})</span>
              </span>
              {canWrite ? (
                <Button
                  variant="link"
                  small
                  danger
                  aria-label={`Remove ${a.name}`}
                  disabled={remove.isPending}
                  onClick={() =>
                    remove.mutate(a.id, {
                      onSuccess: () => {
                        setUsers((list) => list.filter((id) => id !== a.user_id));
                        setGroups((list) => list.filter((id) => id !== a.group_id));
                        notify.success('Assignee removed', `${a.name} no longer acts in ${step.name}.`);
                      },
                      onError: (error) => notify.notifyFailure('Failed to delete assignee!', error),
                    })
                  }
                >
                  Remove
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">Nobody acts in this step yet.</p>
      )}
      {canWrite ? (
        <>
          <MultiPicker
            label="Users"
            options={(recipients.data?.users ?? []).map((u) => ({
              id: u.id,
              label: u.name,
              detail: u.username,
            }))}
            selected={users}
            onChange={setUsers}
            placeholder="Type a name or username"
            loading={recipients.isPending}
          />
          <MultiPicker
            label="Groups"
            options={(recipients.data?.groups ?? []).map((g) => ({
              id: g.id,
              label: g.name,
              detail: `${g.member_count} member${g.member_count === 1 ? '' : 's'}`,
            }))}
            selected={groups}
            onChange={setGroups}
            placeholder="Type a group's name"
            loading={recipients.isPending}
          />
          <div className="form-actions">
            <PendingButton
              type="button"
              pending={save.isPending}
              pendingLabel="Saving…"
              disabled={users.length + groups.length === 0}
              onClick={onSave}
            >
              Save assignees
            </PendingButton>
          </div>
        </>
      ) : null}
    </div>
  );
}
