import { zodResolver } from '@hookform/resolvers/zod';
import { ZCreateLegalHoldBody } from '@quire/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Field, SelectField } from '../../../components/form-field';
import { fieldBinder, withEmptyMessages } from '../../../lib/form';
import { useFormSubmit } from '../../../lib/use-form-submit';
import { useCategoryFiles, useCreateLegalHold, useMySavedViews } from '../api/legal-holds';
import { useCategoryOptions } from '../api/retention-rules';
import { CardGridForm } from './card-grid-form';

const FIELDS = ['target', 'target_id', 'reason'] as const;
type HoldInput = z.input<typeof ZCreateLegalHoldBody>;
const resolver = withEmptyMessages(zodResolver(ZCreateLegalHoldBody), {
  target_id: 'Choose what to hold',
  reason: 'Say why it is held',
});

/** Puts a file, a category or one of the person's saved searches on legal hold, saying why. */
export function HoldForm() {
  const create = useCreateLegalHold();
  const categories = useCategoryOptions();
  const views = useMySavedViews();
  // A file is chosen in its category.
  const [fileCategory, setFileCategory] = useState<number | null>(null);
  const files = useCategoryFiles(fileCategory);
  const form = useForm<HoldInput, unknown, z.output<typeof ZCreateLegalHoldBody>>({
    resolver,
    defaultValues: { target: 'file', reason: '' },
  });
  const { errors } = form.formState;
  const bind = fieldBinder(form);
  const target = form.watch('target');

  const onSubmit = useFormSubmit(form, create, {
    fields: FIELDS,
    failure: 'Failed to set legal hold!',
    told: ({ data }) => [
      'Legal hold set',
      `${data.target_name} is held (${data.file_count} file${data.file_count === 1 ? '' : 's'}).`,
    ],
    onDone: (_saved, body) => form.reset({ target: body.target, reason: '' }),
    whilePending: 'ignore',
  });

  const categoryOptions = categories.data ?? [];
  return (
    <CardGridForm
      title="Put on legal hold"
      onSubmit={onSubmit}
      pending={create.isPending}
      pendingLabel="Setting…"
      submitLabel="Set legal hold"
    >
      <SelectField
        label="Hold"
        options={[
          { value: 'file', label: 'A file' },
          { value: 'category', label: 'A category and its sub-categories' },
          { value: 'saved_view', label: 'The files of one of my saved searches' },
        ]}
        {...bind('target', {
          onChange: () => form.setValue('target_id', undefined as never),
        })}
      />
      {target === 'file' ? (
        <>
          <SelectField
            label="In category"
            placeholder="Choose a category"
            value={fileCategory ?? ''}
            onChange={(e) => {
              setFileCategory(e.target.value ? Number(e.target.value) : null);
              form.setValue('target_id', undefined as never);
            }}
            options={categoryOptions}
          />
          <SelectField
            key={`files-${fileCategory ?? 0}`}
            label="File"
            placeholder={fileCategory === null ? 'Choose a category first' : 'Choose a file'}
            disabled={fileCategory === null}
            options={(files.data?.items ?? []).map((f) => ({ value: f.id, label: f.name }))}
            {...bind('target_id')}
          />
        </>
      ) : target === 'category' ? (
        <SelectField
          key="category"
          label="Category"
          placeholder="Choose a category"
          options={categoryOptions}
          {...bind('target_id')}
        />
      ) : (
        <SelectField
          key="saved-view"
          label="Saved search"
          placeholder={
            (views.data?.items.length ?? 0) ? 'Choose a saved search' : 'You have no saved searches'
          }
          hint="The files it matches now are held; files that match it later are not."
          options={(views.data?.items ?? []).map((v) => ({ value: v.id, label: v.name }))}
          {...bind('target_id')}
        />
      )}
      <Field
        label="Reason"
        error={errors.reason?.message}
        hint="Who asked for it and why: it is shown to anyone refused a change."
        className="field--wide"
      >
        {(control) => <textarea {...control} rows={2} {...form.register('reason')} />}
      </Field>
    </CardGridForm>
  );
}
