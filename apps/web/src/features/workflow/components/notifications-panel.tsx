import { zodResolver } from '@hookform/resolvers/zod';
import {
  RECIPIENT_KINDS,
  STEP_EVENTS,
  type TStep,
  type TStepNotification,
  ZSaveNotificationBody,
} from '@quire/contract';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormDialog } from '../../../components/form-dialog';
import { Field, FormField, SelectField, wordOptions } from '../../../components/form-field';
import { fieldBinder, numberOrNull } from '../../../lib/form';
import { useFormSubmit } from '../../../lib/use-form-submit';
import { useDeleteNotification } from '../api/delete-notification';
import { useSaveNotification } from '../api/save-notification';
import { EVENT_WORDS, RECIPIENT_WORDS } from '../lib/words';
import { DetailList } from './detail-list';
import { RecipientSelect } from './recipient-select';

type Input = z.input<typeof ZSaveNotificationBody>;
const FIELDS = ['event', 'recipient', 'user_id', 'group_id', 'in_app', 'email', 'subject', 'body'] as const;

function NotificationDialog({
  step,
  notification,
  onClose,
}: {
  step: TStep;
  notification?: TStepNotification;
  onClose: () => void;
}) {
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
  const bind = fieldBinder(form);
  const recipient = form.watch('recipient');
  const onSubmit = useFormSubmit(form, save, {
    fields: FIELDS,
    failure: 'Failed to create/update notification!',
    told: (_saved, body) => ['Notification saved', `${step.name}: ${EVENT_WORDS[body.event].toLowerCase()}.`],
    onDone: onClose,
  });

  return (
    <FormDialog
      title={notification ? 'Edit notification' : 'New notification'}
      onClose={onClose}
      pending={save.isPending}
      onSubmit={onSubmit}
      submitLabel="Save notification"
    >
      <SelectField label="When" {...bind('event')}>
        {wordOptions(STEP_EVENTS, EVENT_WORDS)}
      </SelectField>
      <SelectField label="Tell" {...bind('recipient')}>
        {wordOptions(RECIPIENT_KINDS, RECIPIENT_WORDS)}
      </SelectField>
      {recipient === 'user' ? (
        <RecipientSelect
          kind="user"
          label="User"
          none="Choose a user"
          {...bind('user_id', { setValueAs: numberOrNull })}
        />
      ) : null}
      {recipient === 'group' ? (
        <RecipientSelect
          kind="group"
          label="Group"
          none="Choose a group"
          {...bind('group_id', { setValueAs: numberOrNull })}
        />
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
        {...bind('subject')}
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
    </FormDialog>
  );
}

/** Who hears of which event of a step, in the app and by e-mail. */
export function NotificationsPanel({ step, canWrite }: { step: TStep; canWrite: boolean }) {
  const remove = useDeleteNotification();
  return (
    <div className="stack">
      <DetailList
        items={step.notifications}
        label={`Notifications of ${step.name}`}
        empty="Nobody is told of this step's events yet."
        canWrite={canWrite}
        nameOf={(n) => `the notification: ${EVENT_WORDS[n.event]}`}
        form={(n, onClose) => (
          <NotificationDialog step={step} {...(n ? { notification: n } : {})} onClose={onClose} />
        )}
        deletion={{
          noun: 'notification',
          remove,
          say: () => <p>Nobody will be told when this happens any more.</p>,
        }}
        addLabel="Add notification"
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
    </div>
  );
}
