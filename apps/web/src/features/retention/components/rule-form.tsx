import { zodResolver } from '@hookform/resolvers/zod';
import { ZRetentionRuleBody } from '@quire/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormField, SelectField } from '../../../components/form-field';
import { fieldBinder, numberOrNull } from '../../../lib/form';
import { type SaveMutation, useFormSubmit } from '../../../lib/use-form-submit';
import {
  useCategoryOptions,
  useDateFieldOptions,
  useGroupOptions,
  useSetRetentionRule,
} from '../api/retention-rules';
import { CardGridForm } from './card-grid-form';

const FIELDS = ['keep_for', 'unit', 'start_from', 'date_field_id', 'action', 'review_group_id'] as const;
type RuleInput = z.input<typeof ZRetentionRuleBody>;
type RuleValues = z.output<typeof ZRetentionRuleBody>;

/** Sets a category's retention rule: how long, from when, then what. */
export function RuleForm() {
  const categories = useCategoryOptions();
  const dateFields = useDateFieldOptions();
  const groups = useGroupOptions();
  const save = useSetRetentionRule();
  const [categoryId, setCategoryId] = useState('');
  const [categoryError, setCategoryError] = useState<string | undefined>();
  const form = useForm<RuleInput, unknown, RuleValues>({
    resolver: zodResolver(ZRetentionRuleBody),
    // A field shown only for some choices (the date field, the review group) is sent only then.
    shouldUnregister: true,
    defaultValues: {
      keep_for: 7,
      unit: 'years',
      start_from: 'upload',
      action: 'review',
      date_field_id: null,
      review_group_id: null,
    },
  });
  const bind = fieldBinder(form);
  const startFrom = form.watch('start_from');
  const action = form.watch('action');

  // Without a category nothing is sent: the category's select says what is missing.
  const send: SaveMutation<RuleValues, NonNullable<typeof save.data>> = {
    isPending: save.isPending,
    mutate: (body, options) => {
      if (!categoryId) return setCategoryError('Choose a category');
      save.mutate({ categoryId: Number(categoryId), body }, options);
    },
  };
  const onSubmit = useFormSubmit(form, send, {
    fields: FIELDS,
    failure: 'Failed to save retention rule!',
    told: ({ data, message }) => [message ?? 'Retention rule saved', data.summary],
    whilePending: 'ignore',
  });

  return (
    <CardGridForm
      title="Set a category's rule"
      onSubmit={onSubmit}
      pending={save.isPending}
      pendingLabel="Saving…"
      submitLabel="Save rule"
    >
      <SelectField
        label="Category"
        name="category_id"
        placeholder="Choose a category"
        value={categoryId}
        onChange={(e) => {
          setCategoryId(e.target.value);
          setCategoryError(undefined);
        }}
        error={categoryError}
        hint="Its sub-categories follow this rule unless they have their own."
        options={categories.data ?? []}
      />
      <FormField label="Keep for" type="number" min={1} inputMode="numeric" {...bind('keep_for')} />
      <SelectField
        label="Unit"
        options={[
          { value: 'days', label: 'Days' },
          { value: 'months', label: 'Months' },
          { value: 'years', label: 'Years' },
        ]}
        {...bind('unit')}
      />
      <SelectField
        label="Counted from"
        options={[
          { value: 'upload', label: 'The upload' },
          { value: 'field_date', label: 'A date field' },
          { value: 'workflow_end', label: 'The end of its workflow' },
        ]}
        {...bind('start_from')}
      />
      {startFrom === 'field_date' ? (
        <SelectField
          label="Date field"
          placeholder="Choose a date field"
          options={dateFields.data ?? []}
          {...bind('date_field_id', { setValueAs: numberOrNull })}
        />
      ) : null}
      <SelectField
        label="Then"
        options={[
          { value: 'review', label: 'Review by a group' },
          { value: 'trash', label: 'Move to the trash' },
          { value: 'purge', label: 'Purge (delete for good)' },
        ]}
        {...bind('action')}
      />
      {action === 'review' ? (
        <SelectField
          label="Review group"
          placeholder="Choose a group"
          options={groups.data ?? []}
          {...bind('review_group_id', { setValueAs: numberOrNull })}
        />
      ) : null}
    </CardGridForm>
  );
}
