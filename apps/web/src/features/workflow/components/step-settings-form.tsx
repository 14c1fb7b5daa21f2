import { zodResolver } from '@hookform/resolvers/zod';
import { STEP_COMPLETIONS, STEP_ROUTES, type TStep, ZSaveStepBody } from '@quire/contract';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { DialogActions } from '../../../components/dialog-actions';
import { DescriptionField, FormField, SelectField, wordOptions } from '../../../components/form-field';
import { fieldBinder, numberOrNull, withEmptyMessages } from '../../../lib/form';
import { useFormSubmit } from '../../../lib/use-form-submit';
import { useSaveStep } from '../api/save-step';
import { COMPLETION_WORDS, ROUTE_WORDS } from '../lib/words';

type Input = z.input<typeof ZSaveStepBody>;
const FIELDS = [
  'name',
  'description',
  'due_hours',
  'completion',
  'quorum',
  'on_approve',
  'on_approve_step_id',
  'on_reject',
  'on_reject_step_id',
] as const;
const resolver = withEmptyMessages(zodResolver(ZSaveStepBody), { name: 'Enter a name for the step' });

/** A new step (no `step`) or a step's name, due time, completion and routes. */
export function StepSettingsForm({
  workflowId,
  step,
  steps,
  canWrite,
  onSaved,
  onCancel,
}: {
  workflowId: number;
  step?: TStep;
  steps: TStep[];
  canWrite: boolean;
  onSaved?: (saved: TStep) => void;
  onCancel?: () => void;
}) {
  const save = useSaveStep();
  const form = useForm<Input, unknown, z.output<typeof ZSaveStepBody>>({
    resolver,
    values: {
      ...(step ? { id: step.id } : {}),
      workflow_id: workflowId,
      name: step?.name ?? '',
      description: step?.description ?? '',
      due_hours: step?.due_hours ?? null,
      completion: step?.completion ?? 'any',
      quorum: step?.quorum ?? null,
      on_approve: step?.on_approve ?? 'next',
      on_approve_step_id: step?.on_approve_step_id ?? null,
      on_reject: step?.on_reject ?? 'previous',
      on_reject_step_id: step?.on_reject_step_id ?? null,
    },
  });
  const completion = form.watch('completion');
  const onApprove = form.watch('on_approve');
  const onReject = form.watch('on_reject');
  const others = steps.filter((s) => s.id !== step?.id);

  const onSubmit = useFormSubmit(form, save, {
    fields: FIELDS,
    failure: 'Failed to create/update step!',
    whilePending: 'ignore',
    told: (saved) => {
      const told = saved.notifications.some((n) => n.event === 'entered' && n.recipient === 'assignees');
      return [
        step ? 'Step updated' : 'Step added',
        !step && told
          ? `${saved.name} was added. Its assignees are told, in the app and by e-mail, when a file enters it.`
          : `${saved.name} was saved.`,
      ];
    },
    onDone: (saved) => onSaved?.(saved),
  });
  const bind = fieldBinder(form);

  const stepChoice = (name: 'on_approve_step_id' | 'on_reject_step_id', label: string) => (
    <SelectField label={label} {...bind(name, { setValueAs: numberOrNull })} disabled={!canWrite}>
      <option value="">Choose a step</option>
      {[...(step ? [step] : []), ...others]
        .sort((a, b) => a.position - b.position)
        .map((s) => (
          <option key={s.id} value={s.id}>
            {s.position}. {s.name}
          </option>
        ))}
    </SelectField>
  );

  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-busy={save.isPending}>
      <fieldset disabled={!canWrite} className="form-fieldset">
        <FormField label="Name" autoComplete="off" {...bind('name')} />
        <DescriptionField {...bind('description')} />
        <div className="form-grid">
          <FormField
            label={
              <>
                Hours allowed <span className="muted">(optional)</span>
              </>
            }
            type="number"
            min={1}
            inputMode="numeric"
            hint="After this, the step is overdue."
            {...bind('due_hours', { setValueAs: numberOrNull })}
          />
          <SelectField label="Completed when" {...bind('completion')}>
            {wordOptions(STEP_COMPLETIONS, COMPLETION_WORDS)}
          </SelectField>
          {completion === 'quorum' ? (
            <FormField
              label="Approvals needed"
              type="number"
              min={1}
              inputMode="numeric"
              {...bind('quorum', { setValueAs: numberOrNull })}
            />
          ) : null}
        </div>
        <div className="form-grid">
          <SelectField label="When approved, go to" {...bind('on_approve')}>
            {wordOptions(STEP_ROUTES, ROUTE_WORDS)}
          </SelectField>
          {onApprove === 'step' ? stepChoice('on_approve_step_id', 'Step after approval') : null}
          <SelectField label="When rejected, go to" {...bind('on_reject')}>
            {wordOptions(STEP_ROUTES, ROUTE_WORDS)}
          </SelectField>
          {onReject === 'step' ? stepChoice('on_reject_step_id', 'Step after rejection') : null}
        </div>
      </fieldset>
      {canWrite ? (
        <DialogActions onCancel={onCancel} pending={save.isPending} pendingLabel="Saving…">
          {step ? 'Save step' : 'Add step'}
        </DialogActions>
      ) : null}
    </form>
  );
}
