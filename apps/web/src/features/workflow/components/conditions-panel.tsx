import { zodResolver } from '@hookform/resolvers/zod';
import {
  CONDITION_OPERATOR_WORDS,
  conditionWords,
  type TConditionOperator,
  type TStep,
  type TStepCondition,
  type TWorkflow,
  ZSaveConditionBody,
} from '@quire/contract';
import { type Resolver, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormDialog } from '../../../components/form-dialog';
import { Field, SelectField, wordOptions } from '../../../components/form-field';
import { fieldBinder } from '../../../lib/form';
import { useFormSubmit } from '../../../lib/use-form-submit';
import { useDeleteCondition } from '../api/delete-condition';
import { useSaveCondition } from '../api/save-condition';
import { operatorsFor } from '../lib/words';
import { DetailList, type StepPanelProps } from './detail-list';

import { ValueInput } from './value-input';

type Mode = 'PRE' | 'POST';
type Body = z.output<typeof ZSaveConditionBody>;
interface Values {
  mode: Mode;
  field_id: number;
  on_workflow_field: boolean;
  operator: TConditionOperator;
  value: string;
  /** in_list: the chosen values. */
  list: string[];
  join: 'and' | 'or';
}
const FIELDS = ['mode', 'field_id', 'on_workflow_field', 'operator', 'value', 'join'] as const;
const VALUELESS: TConditionOperator[] = ['empty', 'not_empty'];

function toBody(v: Values, stepId: number, id?: number) {
  const value = VALUELESS.includes(v.operator)
    ? null
    : v.operator === 'in_list'
      ? v.list.length
        ? v.list
        : null
      : v.value.trim() || null;
  return {
    ...(id ? { id } : {}),
    workflow_step_id: stepId,
    mode: v.mode,
    field_id: v.field_id,
    on_workflow_field: v.on_workflow_field,
    operator: v.operator,
    value,
    join: v.join,
  };
}

/** The condition as a sentence: "Amount is greater than 100". */
export function conditionText(
  c: Pick<TStepCondition, 'field_name' | 'operator' | 'value' | 'on_workflow_field'>,
) {
  return conditionWords(`${c.field_name}${c.on_workflow_field ? ' (workflow)' : ''}`, c.operator, c.value);
}

function ConditionDialog({
  step,
  workflow,
  mode,
  condition,
  onClose,
}: {
  step: TStep;
  workflow: TWorkflow;
  mode: Mode;
  condition?: TStepCondition;
  onClose: () => void;
}) {
  const save = useSaveCondition();
  const choices = workflow.field_choices;
  const resolver: Resolver<Values, unknown, Body> = (values, context, options) =>
    zodResolver(ZSaveConditionBody)(
      toBody(values, step.id, condition?.id) as never,
      context,
      options as never,
    ) as never;
  const initial = condition?.value;
  const form = useForm<Values, unknown, Body>({
    resolver,
    defaultValues: {
      mode: condition?.mode ?? mode,
      field_id: condition?.field_id ?? choices[0]?.field_id ?? 0,
      on_workflow_field: condition?.on_workflow_field ?? false,
      operator: condition?.operator ?? 'eq',
      value: typeof initial === 'string' ? initial : '',
      list: Array.isArray(initial) ? initial : [],
      join: condition?.join ?? 'and',
    },
  });
  const { errors } = form.formState;
  const bind = fieldBinder(form);
  const fieldId = Number(form.watch('field_id'));
  const field = choices.find((f) => f.field_id === fieldId);
  const operator = form.watch('operator');
  const list = form.watch('list');

  const onSubmit = useFormSubmit(form, save, {
    fields: FIELDS,
    failure: 'Failed to create/update condition!',
    told: (saved) => ['Condition saved', conditionText(saved)],
    onDone: onClose,
  });

  return (
    <FormDialog
      title={
        condition ? 'Edit condition' : mode === 'PRE' ? 'New condition to enter' : 'New condition to approve'
      }
      description={
        mode === 'PRE'
          ? `Must hold for a file to enter ${step.name}.`
          : `Must hold for ${step.name} to be approved.`
      }
      onClose={onClose}
      pending={save.isPending}
      onSubmit={onSubmit}
      submitLabel="Save condition"
    >
      <SelectField label="Field" {...bind('field_id', { valueAsNumber: true })}>
        {choices.map((f) => (
          <option key={f.field_id} value={f.field_id}>
            {f.name}
          </option>
        ))}
      </SelectField>
      <label className="checkbox">
        <input type="checkbox" {...form.register('on_workflow_field')} /> Test the run's workflow metadata
        (not the file's)
      </label>
      <SelectField label="Comparison" {...bind('operator')}>
        {wordOptions(operatorsFor(field?.type ?? 'text'), CONDITION_OPERATOR_WORDS)}
      </SelectField>
      {field && operator === 'in_list' && field.options.length ? (
        <fieldset className="choice-group">
          <legend>Values</legend>
          {field.options.map((o) => (
            <label key={o.key} className="checkbox">
              <input
                type="checkbox"
                checked={list.includes(String(o.key))}
                onChange={(e) =>
                  form.setValue(
                    'list',
                    e.target.checked ? [...list, String(o.key)] : list.filter((k) => k !== String(o.key)),
                  )
                }
              />{' '}
              {o.label}
            </label>
          ))}
          {errors.value?.message ? <p className="field__error">{errors.value.message}</p> : null}
        </fieldset>
      ) : field && operator === 'in_list' ? (
        <Field label="Values" hint="Separate them with commas." error={errors.value?.message}>
          {(control) => (
            <input
              {...control}
              value={list.join(', ')}
              onChange={(e) =>
                form.setValue(
                  'list',
                  e.target.value
                    .split(',')
                    .map((s) => s.trim())
                    .filter(Boolean),
                )
              }
            />
          )}
        </Field>
      ) : field && !VALUELESS.includes(operator) ? (
        <Field label="Value" error={errors.value?.message}>
          {(control) => (
            <ValueInput
              field={operator === 'contains' ? { ...field, type: 'text' } : field}
              control={control}
              value={form.watch('value')}
              onChange={(raw) => form.setValue('value', raw)}
            />
          )}
        </Field>
      ) : null}
      <SelectField
        label="Joined to the condition before by"
        hint="“and” binds first: a and b or c holds when (a and b) or c."
        {...bind('join')}
      >
        <option value="and">and</option>
        <option value="or">or</option>
      </SelectField>
    </FormDialog>
  );
}

/** The PRE conditions (to enter) and POST conditions (to approve) of a step. */
export function ConditionsPanel({ step, workflow, canWrite }: StepPanelProps) {
  const remove = useDeleteCondition();
  const section = (mode: Mode, title: string, help: string) => {
    const list = step.conditions.filter((c) => c.mode === mode).sort((a, b) => a.position - b.position);
    return (
      <section className="stack" aria-labelledby={`conditions-${mode}`}>
        <h3 id={`conditions-${mode}`}>{title}</h3>
        <p className="muted">{help}</p>
        <DetailList
          items={list}
          label={title}
          ordered
          empty="None."
          canWrite={canWrite}
          nameOf={(c) => `the condition ${conditionText(c)}`}
          form={(c, onClose) => (
            <ConditionDialog
              step={step}
              workflow={workflow}
              mode={mode}
              {...(c ? { condition: c } : {})}
              onClose={onClose}
            />
          )}
          deletion={{
            noun: 'condition',
            remove,
            detail: conditionText,
            say: (c) => <p>{conditionText(c)}</p>,
          }}
          addLabel={mode === 'PRE' ? 'Add condition to enter' : 'Add condition to approve'}
          addDisabled={workflow.field_choices.length === 0}
        >
          {(c, i) => (
            <>
              {i > 0 ? <span className="badge badge--neutral">{c.join}</span> : null} {conditionText(c)}
            </>
          )}
        </DetailList>
      </section>
    );
  };
  return (
    <div className="stack">
      {workflow.field_choices.length === 0 ? (
        <p className="alert alert--info">
          Conditions test metadata fields: create some in Metadata fields first.
        </p>
      ) : null}
      {section('PRE', 'To enter the step (PRE)', 'A file enters the step only when these hold.')}
      {section('POST', 'To approve the step (POST)', 'The step is approved only when these hold.')}
    </div>
  );
}
