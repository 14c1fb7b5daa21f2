import { zodResolver } from '@hookform/resolvers/zod';
import {
  TRIGGER_KINDS,
  type TStep,
  type TStepTrigger,
  type TWorkflow,
  ZSaveTriggerBody,
} from '@quire/contract';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormDialog } from '../../../components/form-dialog';
import { FormField, SelectField, wordOptions } from '../../../components/form-field';
import { fieldBinder, numberOrNull, textOrNull } from '../../../lib/form';
import { useFormSubmit } from '../../../lib/use-form-submit';
import { useDeleteTrigger } from '../api/delete-trigger';
import { useSaveTrigger } from '../api/save-trigger';
import { TRIGGER_WORDS } from '../lib/words';
import { DetailList, type StepPanelProps } from './detail-list';
import { RecipientSelect } from './recipient-select';

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
  const bind = fieldBinder(form);
  const kind = form.watch('kind');
  const moves = kind === 'on_field_change' || kind === 'on_date';
  const fields =
    kind === 'on_date' ? workflow.field_choices.filter((f) => f.type === 'date') : workflow.field_choices;

  const onSubmit = useFormSubmit(form, save, {
    fields: FIELDS,
    failure: 'Failed to create/update trigger!',
    told: (saved) => ['Trigger saved', triggerText(saved, workflow.steps)],
    onDone: onClose,
  });

  return (
    <FormDialog
      title={trigger ? 'Edit trigger' : 'New trigger'}
      description={`On ${step.name}.`}
      onClose={onClose}
      pending={save.isPending}
      onSubmit={onSubmit}
      submitLabel="Save trigger"
    >
      <SelectField label="When" {...bind('kind')}>
        {wordOptions(TRIGGER_KINDS, TRIGGER_WORDS)}
      </SelectField>
      {kind === 'on_index' ? (
        <p className="muted">
          A file indexed into a category this workflow serves starts its run at this step.
        </p>
      ) : null}
      {moves ? (
        <SelectField
          label={kind === 'on_date' ? 'Date field' : 'Field'}
          hint={kind === 'on_date' ? 'Or leave it empty and give a schedule.' : undefined}
          {...bind('field_id', { setValueAs: numberOrNull })}
        >
          <option value="">{kind === 'on_date' ? 'No field: a schedule' : 'Choose a field'}</option>
          {fields.map((f) => (
            <option key={f.field_id} value={f.field_id}>
              {f.name}
            </option>
          ))}
        </SelectField>
      ) : null}
      {kind === 'on_field_change' ? (
        <FormField
          label={
            <>
              Only when it becomes <span className="muted">(optional)</span>
            </>
          }
          {...bind('value', { setValueAs: textOrNull })}
        />
      ) : null}
      {kind === 'on_date' && !form.watch('field_id') ? (
        <FormField
          label="Schedule"
          hint="Five cron fields, such as 0 9 * * 1 (Mondays at 9:00): a file moves on once a due time passes after it entered."
          {...bind('cron', { setValueAs: textOrNull })}
        />
      ) : null}
      {moves ? (
        <SelectField label="Then go to" {...bind('target_step_id', { setValueAs: numberOrNull })}>
          <option value="">The next step</option>
          {workflow.steps.map((s) => (
            <option key={s.id} value={s.id}>
              {s.position}. {s.name}
            </option>
          ))}
        </SelectField>
      ) : null}
      {kind === 'overdue' ? (
        <>
          <RecipientSelect
            kind="user"
            label="Escalate to a user"
            none="Nobody"
            {...bind('escalate_user_id', { setValueAs: numberOrNull })}
          />
          <RecipientSelect
            kind="group"
            label="Or a group"
            none="No group"
            {...bind('escalate_group_id', { setValueAs: numberOrNull })}
          />
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
    </FormDialog>
  );
}

/** What starts or moves a file in this step without a person. */
export function TriggersPanel({ step, workflow, canWrite }: StepPanelProps) {
  const remove = useDeleteTrigger();
  return (
    <div className="stack">
      <DetailList
        items={step.triggers}
        label={`Triggers of ${step.name}`}
        empty="Only people move files in this step."
        canWrite={canWrite}
        nameOf={(t) => `the trigger ${TRIGGER_WORDS[t.kind]}`}
        form={(t, onClose) => (
          <TriggerDialog step={step} workflow={workflow} {...(t ? { trigger: t } : {})} onClose={onClose} />
        )}
        deletion={{ noun: 'trigger', remove, say: (t) => <p>{triggerText(t, workflow.steps)}</p> }}
        addLabel="Add trigger"
      >
        {(t) => (
          <>
            {triggerText(t, workflow.steps)}
            {t.active ? null : <span className="badge badge--neutral">Off</span>}
          </>
        )}
      </DetailList>
    </div>
  );
}
