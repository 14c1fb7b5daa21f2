import { zodResolver } from '@hookform/resolvers/zod';
import {
  TRIGGER_KINDS,
  type TStep,
  type TStepTrigger,
  type TWorkflow,
  ZSaveTriggerBody,
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
import { useDeleteTrigger } from '../api/delete-trigger';
import { useRecipients } from '../api/get-recipients';
import { useSaveTrigger } from '../api/save-trigger';
import { TRIGGER_WORDS } from '../lib/words';
import { DetailList } from './detail-list';

type Input = z.input<typeof ZSaveTriggerBody>;
const FIELDS = [
  'kind',
  'field_id',
  'value',
  'cron',
  'target_step_id',
  'escalate_user_id',
  'escalate_group_id',
  'active',
] as const;
const idOrNull = (v: unknown) => (v === '' || v === null || v === undefined ? null : Number(v));
const textOrNull = (v: unknown) => (typeof v === 'string' && v.trim() ? v : null);

/** "A metadata value changes: Status to Ready, then to Sign". */
export function triggerText(t: TStepTrigger, steps: TStep[]) {
  const target = steps.find((s) => s.id === t.target_step_id)?.name;
  const detail =
    t.kind === 'on_field_change'
      ? `${t.field_name}${t.value ? ` becomes ${t.value}` : ''}`
      : t.kind === 'on_date'
        ? t.field_name
          ? `the date in ${t.field_name}`
          : `schedule ${t.cron}`
        : t.kind === 'overdue'
          ? `escalate to ${t.escalate_name}`
          : '';
  return `${TRIGGER_WORDS[t.kind]}${detail ? `: ${detail}` : ''}${target ? `, then to ${target}` : ''}`;
}

function TriggerDialog({
  step,
  workflow,
  trigger,
  onClose,
}: {
  step: TStep;
  workflow: TWorkflow;
  trigger?: TStepTrigger;
  onClose: () => void;
}) {
  const notify = useNotify();
  const recipients = useRecipients();
  const save = useSaveTrigger();
  const form = useForm<Input, unknown, z.output<typeof ZSaveTriggerBody>>({
    resolver: zodResolver(ZSaveTriggerBody),
    defaultValues: {
      ...(trigger ? { id: trigger.id } : {}),
      workflow_step_id: step.id,
      kind: trigger?.kind ?? 'on_index',
      field_id: trigger?.field_id ?? null,
      value: trigger?.value ?? null,
      cron: trigger?.cron ?? null,
      target_step_id: trigger?.target_step_id ?? null,
      escalate_user_id: trigger?.escalate_user_id ?? null,
      escalate_group_id: trigger?.escalate_group_id ?? null,
      active: trigger?.active ?? true,
    },
  });
  const { errors } = form.formState;
  const kind = form.watch('kind');
  const moves = kind === 'on_field_change' || kind === 'on_date';
  const fields =
    kind === 'on_date' ? workflow.field_choices.filter((f) => f.type === 'date') : workflow.field_choices;

  const onSubmit = form.handleSubmit((body) =>
    save.mutate(body, {
      onSuccess: (saved) => {
        notify.success('Trigger saved', triggerText(saved, workflow.steps));
        onClose();
      },
      onError: (error) => {
        setServerErrors(form, error, FIELDS);
        notify.notifyFailure('Failed to create/update trigger!', error);
      },
    }),
  );

  return (
    <Dialog
      title={trigger ? 'Edit trigger' : 'New trigger'}
      description={`On ${step.name}.`}
      onClose={onClose}
      busy={save.isPending}
    >
      <form className="form" onSubmit={onSubmit} noValidate aria-busy={save.isPending}>
        <Field label="When" error={errors.kind?.message}>
          {(control) => (
            <select {...control} {...form.register('kind')}>
              {TRIGGER_KINDS.map((k) => (
                <option key={k} value={k}>
                  {TRIGGER_WORDS[k]}
                </option>
              ))}
            </select>
          )}
        </Field>
        {kind === 'on_index' ? (
          <p className="muted">
            A file indexed into a category this workflow serves starts its run at this step.
          </p>
        ) : null}
        {moves ? (
          <Field
            label={kind === 'on_date' ? 'Date field' : 'Field'}
            hint={kind === 'on_date' ? 'Or leave it empty and give a schedule.' : undefined}
            error={errors.field_id?.message}
          >
            {(control) => (
              <select {...control} {...form.register('field_id', { setValueAs: idOrNull })}>
                <option value="">{kind === 'on_date' ? 'No field: a schedule' : 'Choose a field'}</option>
                {fields.map((f) => (
                  <option key={f.field_id} value={f.field_id}>
                    {f.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
        ) : null}
        {kind === 'on_field_change' ? (
          <FormField
            label={
              <>
                Only when it becomes <span className="muted">(optional)</span>
              </>
            }
            error={errors.value?.message}
            {...form.register('value', { setValueAs: textOrNull })}
          />
        ) : null}
        {kind === 'on_date' && !form.watch('field_id') ? (
          <FormField
            label="Schedule"
            hint="Five cron fields, such as 0 9 * * 1 (Mondays at 9:00): a file moves on once a due time passes after it entered."
            error={errors.cron?.message}
            {...form.register('cron', { setValueAs: textOrNull })}
          />
        ) : null}
        {moves ? (
          <Field label="Then go to" error={errors.target_step_id?.message}>
            {(control) => (
              <select {...control} {...form.register('target_step_id', { setValueAs: idOrNull })}>
                <option value="">The next step</option>
                {workflow.steps.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.position}. {s.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
        ) : null}
        {kind === 'overdue' ? (
          <>
            <Field label="Escalate to a user" error={errors.escalate_user_id?.message}>
              {(control) => (
                <select {...control} {...form.register('escalate_user_id', { setValueAs: idOrNull })}>
                  <option value="">Nobody</option>
                  {(recipients.data?.users ?? []).map((u) => (
                    <option key={u.id} value={u.id}>
                      {u.name} ({u.username})
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label="Or a group" error={errors.escalate_group_id?.message}>
              {(control) => (
                <select {...control} {...form.register('escalate_group_id', { setValueAs: idOrNull })}>
                  <option value="">No group</option>
                  {(recipients.data?.groups ?? []).map((g) => (
                    <option key={g.id} value={g.id}>
                      {g.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            {step.due_hours ? null : (
              <p className="alert alert--warning">
                Give the step hours allowed (Step tab): without them it is never overdue.
              </p>
            )}
          </>
        ) : null}
        <label className="checkbox">
          <input type="checkbox" {...form.register('active')} /> Active
        </label>
        <DialogActions onCancel={onClose} pending={save.isPending} pendingLabel="Saving…">
          Save trigger
        </DialogActions>
      </form>
    </Dialog>
  );
}

/** What starts or moves a file in this step without a person. */
export function TriggersPanel({
  step,
  workflow,
  canWrite,
}: {
  step: TStep;
  workflow: TWorkflow;
  canWrite: boolean;
}) {
  const remove = useDeleteTrigger();
  const [open, setOpen] = useState<
    { kind: 'edit'; t?: TStepTrigger } | { kind: 'delete'; t: TStepTrigger } | null
  >(null);
  return (
    <div className="stack">
      <DetailList
        items={step.triggers}
        label={`Triggers of ${step.name}`}
        empty="Only people move files in this step."
        canWrite={canWrite}
        nameOf={(t) => `the trigger ${TRIGGER_WORDS[t.kind]}`}
        onEdit={(t) => setOpen({ kind: 'edit', t })}
        onDelete={(t) => setOpen({ kind: 'delete', t })}
        addLabel="Add trigger"
        onAdd={() => setOpen({ kind: 'edit' })}
      >
        {(t) => (
          <>
            {triggerText(t, workflow.steps)}
            {t.active ? null : <span className="badge badge--neutral">Off</span>}
          </>
        )}
      </DetailList>
      {open?.kind === 'edit' ? (
        <TriggerDialog
          step={step}
          workflow={workflow}
          {...(open.t ? { trigger: open.t } : {})}
          onClose={() => setOpen(null)}
        />
      ) : null}
      {open?.kind === 'delete' ? (
        <ConfirmDeleteDialog noun="trigger" remove={remove} value={open.t.id} onClose={() => setOpen(null)}>
          <p>{triggerText(open.t, workflow.steps)}</p>
        </ConfirmDeleteDialog>
      ) : null}
    </div>
  );
}
