import { type TGroup, VENDOR_ADMIN, ZCreateGroupBody } from '@quire/contract';
import { type FormEvent, useRef, useState } from 'react';
import { Dialog } from '../../../components/dialog';
import { Field, FormField } from '../../../components/form-field';
import { MultiPicker } from '../../../components/multi-picker';
import { useNotify } from '../../../components/notifications/notification-context';
import { PendingButton } from '../../../components/pending-button';
import {
  apiFieldErrors,
  emptyFieldErrors,
  type FieldErrors,
  fieldErrorsFrom,
  focusFirstError,
} from '../../../lib/field-errors';
import { useCreateGroup } from '../api/create-group';
import { useEditGroup } from '../api/edit-group';
import { useUserOptions } from '../api/get-user-options';

const FIELDS = ['name', 'description', 'user_ids'];

/** Create or edit a group: its name, what it is for, and who is in it. */
export function GroupFormDialog({ group, onClose }: { group?: TGroup; onClose: () => void }) {
  const notify = useNotify();
  const formRef = useRef<HTMLFormElement>(null);
  const users = useUserOptions();
  const createGroup = useCreateGroup();
  const editGroup = useEditGroup();
  const [name, setName] = useState(group?.name ?? '');
  const [description, setDescription] = useState(group?.description ?? '');
  const [members, setMembers] = useState<number[]>(group?.members.map((m) => m.id) ?? []);
  const [errors, setErrors] = useState<FieldErrors>({});
  const pending = createGroup.isPending || editGroup.isPending;
  const isEdit = group !== undefined;

  const showErrors = (found: FieldErrors) => {
    setErrors(found);
    focusFirstError(formRef.current, found, FIELDS, {});
  };

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const parsed = ZCreateGroupBody.safeParse({ name, description, user_ids: members });
    if (!parsed.success)
      return showErrors({
        ...fieldErrorsFrom(parsed.error.issues),
        ...emptyFieldErrors({ name }, { name: 'Enter a name for the group' }),
      });
    const onError = (title: string) => (error: Error) => {
      showErrors(apiFieldErrors(error));
      notify.notifyFailure(title, error);
    };
    if (isEdit) {
      editGroup.mutate(
        { id: group.id, body: parsed.data },
        {
          onSuccess: (saved) => {
            notify.success('Group updated', `${saved.name} was saved.`);
            onClose();
          },
          onError: onError('Failed to edit group!'),
        },
      );
    } else {
      createGroup.mutate(parsed.data, {
        onSuccess: (created) => {
          notify.success(
            'Group created',
            `${created.name} has ${created.member_count === 1 ? '1 member' : `${created.member_count} members`}.`,
          );
          onClose();
        },
        onError: onError('Failed to create group!'),
      });
    }
  }

  // Members no longer in the pickers (deleted users) are not offered; the API drops them.
  // The vendor's own admin account is nobody's colleague: it is never offered.
  const options = (users.data ?? [])
    .filter((u) => u.access_type !== VENDOR_ADMIN)
    .map((u) => ({
      id: u.id,
      label: u.name || u.username,
      detail: u.username,
    }));

  return (
    <Dialog
      title={isEdit ? `Edit ${group.name}` : 'New group'}
      onClose={onClose}
      busy={pending}
      size="medium"
    >
      <form ref={formRef} className="form" onSubmit={onSubmit} noValidate aria-busy={pending}>
        <FormField
          label="Name"
          name="name"
          value={name}
          autoComplete="off"
          onChange={(e) => {
            setName(e.target.value);
            setErrors((x) => ({ ...x, name: '' }));
          }}
          error={errors.name}
        />
        <Field
          label={
            <>
              Description <span className="muted">(optional)</span>
            </>
          }
          error={errors.description}
        >
          {(control) => (
            <textarea
              {...control}
              name="description"
              value={description}
              rows={2}
              onChange={(e) => setDescription(e.target.value)}
            />
          )}
        </Field>
        <MultiPicker
          label="Members"
          name="user_ids"
          options={options}
          selected={members}
          onChange={setMembers}
          placeholder="Type a name or username"
          emptyText="No users yet."
          loading={users.isPending}
          error={errors.user_ids}
        />
        <div className="form-actions">
          <button type="button" className="button button--ghost" onClick={onClose} disabled={pending}>
            Cancel
          </button>
          <PendingButton pending={pending} pendingLabel="Saving…">
            {isEdit ? 'Save changes' : 'Create group'}
          </PendingButton>
        </div>
      </form>
    </Dialog>
  );
}
