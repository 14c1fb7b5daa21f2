import { zodResolver } from '@hookform/resolvers/zod';
import {
  RECIPIENT_KINDS,
  STEP_EVENTS,
  type TStep,
  type TStepNotification,
  ZSaveNotificationBody,
} from '@quire/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { ConfirmDeleteDialog } from '../../../components/confirm-delete-dialog';
import { Dialog } from '../../../components/dialog';
import { DialogActions } from '../../../components/dialog-actions';
import { Field, FormField } from '../../../components/form-field';
import { useNotify } from '../../../components/notifications/notification-context';
import { setServerErrors } from '../../../lib/form';
import { useDeleteNotification } from '../api/delete-notification';
import { useRecipients } from '../api/get-recipients';
import { useSaveNotification } from '../api/save-notification';
import { EVENT_WORDS, RECIPIENT_WORDS } from '../lib/words';
import { DetailList } from './detail-list';

type Input = z.input<typeof ZSaveNotificationBody>;
const FIELDS = ['event', 'recipient', 'user_id', 'group_id', 'in_app', 'email', 'subject', 'body'] as const;
const idOrNull = (v: unknown) => (v === '' || v === null || v === undefined ? null : Number(v));

function NotificationDialog({
  step,
  notification,
  onClose,
}: {
  step: TStep;
  notification?: TStepNotification;
  onClose: () => void;
}) {
  const notify = useNotify();
  const recipients = useRecipients();
  const save = useSaveNotification();
  const form = useForm<Input, unknown, z.output<typeof ZSaveNotificationBody>>({
    resolver: zodResolver(ZSaveNotificationBody),
    defaultValues: {
      ...(notification ? { id: notification.id } : {}),
      workflow_step_id: step.id,
      event: notification?.event ?? 'entered',
      recipient: notification?.recipient ?? 'assignees',
      user_id: notification?.user_id ?? null,
      group_id: notification?.group_id ?? null,
      in_app: notification?.in_app ?? true,
      email: notification?.email ?? true,
      subject: notification?.subject ?? '',
      body: notification?.body ?? '',
    },
  });
  const { errors } = form.formState;
  const recipient = form.watch('recipient');
  const onSubmit = form.handleSubmit((body) =>
    save.mutate(body, {
      onSuccess: () => {
        notify.success('Notification saved', `${step.name}: ${EVENT_WORDS[body.event].toLowerCase()}.`);
        onClose();
      },
      onError: (error) => {
        setServerErrors(form, error, FIELDS);
        notify.notifyFailure('Failed to create/update notification!', error);
      },
    }),
  );

  return (
    <Dialog
      title={notification ? 'Edit notification' : 'New notification'}
      onClose={onClose}
      busy={save.isPending}
    >
      <form className="form" onSubmit={onSubmit} noValidate aria-busy={save.isPending}>
        <Field label="When" error={errors.event?.message}>
          {(control) => (
            <select {...control} {...form.register('event')}>
              {STEP_EVENTS.map((e) => (
                <option key={e} value={e}>
                  {EVENT_WORDS[e]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Tell" error={errors.recipient?.message}>
          {(control) => (
            <select {...control} {...form.register('recipient')}>
              {RECIPIENT_KINDS.map((r) => (
                <option key={r} value={r}>
                  {RECIPIENT_WORDS[r]}
                </option>
              ))}
            </select>
          )}
        </Field>
        {recipient === 'user' ? (
          <Field label="User" error={errors.user_id?.message}>
            {(control) => (
              <select {...control} {...form.register('user_id', { setValueAs: idOrNull })}>
                <option value="">Choose a user</option>
                {(recipients.data?.users ?? []).map((u) => (
                  <option key={u.id} value={u.id}>
                    {u.name} ({u.username})
                  </option>
                ))}
              </select>
            )}
          </Field>
        ) : null}
        {recipient === 'group' ? (
          <Field label="Group" error={errors.group_id?.message}>
            {(control) => (
              <select {...control} {...form.register('group_id', { setValueAs: idOrNull })}>
                <option value="">Choose a group</option>
                {(recipients.data?.groups ?? []).map((g) => (
                  <option key={g.id} value={g.id}>
                    {g.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
        ) : null}
        <fieldset className="choice-group">
          <legend>How</legend>
          <label className="checkbox">
            <input type="checkbox" {...form.register('in_app')} /> In the app
          </label>
          <label className="checkbox">
            <input type="checkbox" {...form.register('email')} /> By e-mail
          </label>
          {errors.in_app?.message ? <p className="field__error">{errors.in_app.message}</p> : null}
        </fieldset>
        <FormField
          label={
            <>
              Subject <span className="muted">(optional)</span>
            </>
          }
          hint="{file}, {step}, {workflow}, {user} and {comment} are filled in."
          error={errors.subject?.message}
          {...form.register('subject')}
        />
        <Field
          label={
            <>
              Message <span className="muted">(optional)</span>
            </>
          }
          error={errors.body?.message}
        >
          {(control) => <textarea {...control} rows={3} {...form.register('body')} />}
        </Field>
        <DialogActions onCancel={onClose} pending={save.isPending} pendingLabel="Saving…">
          Save notification
        </DialogActions>
      </form>
    </Dialog>
  );
}

/** Who hears of which event of a step, in the app and by e-mail. */
export function NotificationsPanel({ step, canWrite }: { step: TStep; canWrite: boolean }) {
  const remove = useDeleteNotification();
  const [open, setOpen] = useState<
    { kind: 'edit'; n?: TStepNotification } | { kind: 'delete'; n: TStepNotification } | null
  >(null);
  return (
    <div className="stack">
      <DetailList
        items={step.notifications}
        label={`Notifications of ${step.name}`}
        empty="Nobody is told of this step's events yet."
        canWrite={canWrite}
        nameOf={(n) => `the notification: ${EVENT_WORDS[n.event]}`}
        onEdit={(n) => setOpen({ kind: 'edit', n })}
        onDelete={(n) => setOpen({ kind: 'delete', n })}
        addLabel="Add notification"
        onAdd={() => setOpen({ kind: 'edit' })}
      >
        {(n) => (
          <>
            <strong>{EVENT_WORDS[n.event]}</strong>: {n.recipient_name ?? RECIPIENT_WORDS[n.recipient]}
            <span className="cell-muted">
              {[n.in_app ? 'in the app' : null, n.email ? 'by e-mail' : null].filter(Boolean).join(' and ')}
              {n.subject ? ` · “${n.subject}”` : ''}
            </span>
          </>
        )}
      </DetailList>
      {open?.kind === 'edit' ? (
        <NotificationDialog
          step={step}
          {...(open.n ? { notification: open.n } : {})}
          onClose={() => setOpen(null)}
        />
      ) : null}
      {open?.kind === 'delete' ? (
        <ConfirmDeleteDialog
          noun="notification"
          remove={remove}
          value={open.n.id}
          onClose={() => setOpen(null)}
        >
          <p>Nobody will be told when this happens any more.</p>
        </ConfirmDeleteDialog>
      ) : null}
    </div>
  );
}
