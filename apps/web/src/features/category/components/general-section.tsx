import { zodResolver } from '@hookform/resolvers/zod';
import { type TCategoryInfo, ZStoreCategoryBody } from '@quire/contract';
import type { z } from 'zod';
import { CardForm } from '../../../components/card-form';
import { Field, FormField } from '../../../components/form-field';
import { withEmptyMessages } from '../../../lib/form';
import { pickValues, useValuesForm } from '../../../lib/use-form-submit';
import { useUpdateFolder } from '../api/update-folder';

const ZGeneral = ZStoreCategoryBody.pick({
  name: true,
  description: true,
  incremental_prefix: true,
  inherit_fields: true,
  inherit_permissions: true,
});
const KEYS = ZGeneral.keyof().options;
const FIELDS = ['name', 'description', 'incremental_prefix'] as const;
const resolver = withEmptyMessages(zodResolver(ZGeneral), { name: 'Enter a name for the category' });

/** Name, description, the prefix of its files' running numbers, and what it takes from above. */
export function GeneralSection({ info, canWrite }: { info: TCategoryInfo; canWrite: boolean }) {
  const update = useUpdateFolder();
  const { form, bind, onSubmit } = useValuesForm({
    resolver,
    values: pickValues(info, KEYS),
    save: update,
    fields: FIELDS,
    failure: 'Failed to edit category!',
    body: (values: z.output<typeof ZGeneral>) => ({ folder_id: info.id, ...values }),
    told: (_saved, values) => ['Category saved', `${values.name} was saved.`],
  });
  return (
    <CardForm
      title="General"
      onSubmit={onSubmit}
      pending={update.isPending}
      canWrite={canWrite}
      submitLabel="Save"
    >
      <div className="form-grid">
        <FormField label="Name" autoComplete="off" {...bind('name')} />
        <FormField
          label="Prefix of running numbers"
          autoComplete="off"
          hint="Shown before each file's number here, such as INV-"
          {...bind('incremental_prefix')}
        />
        <Field label="Description" error={bind('description').error} className="field--wide">
          {(control) => <textarea {...control} rows={2} {...form.register('description')} />}
        </Field>
      </div>
      <label className="checkbox">
        <input type="checkbox" {...form.register('inherit_fields')} /> Ask for the fields of the category
        above too
      </label>
      <label className="checkbox">
        <input type="checkbox" {...form.register('inherit_permissions')} /> Give the rights of the category
        above too
      </label>
    </CardForm>
  );
}
