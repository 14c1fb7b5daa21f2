import { zodResolver } from '@hookform/resolvers/zod';
import {
  FIELD_PATTERN_MAX,
  FIELD_TYPE_LABELS,
  FIELD_TYPES,
  type TMetadataField,
  type TStoreUserFieldBody,
  ZStoreUserFieldBody,
} from '@quire/contract';
import { type Resolver, useForm } from 'react-hook-form';
import { Dialog } from '../../../components/dialog';
import { DialogActions } from '../../../components/dialog-actions';
import { Field, FormField } from '../../../components/form-field';
import { fieldBinder } from '../../../lib/form';
import { useFormSubmit } from '../../../lib/use-form-submit';
import { useValueLists } from '../api/get-value-lists';
import { useStoreField } from '../api/store-field';
import { bodyOf, emptyField, type FieldFormValues, formValuesOf } from '../lib/field-form';

const FIELDS = [
  'name',
  'type',
  'value_list_id',
  'help_text',
  'min_number',
  'max_number',
  'min_date',
  'max_date',
  'max_length',
  'pattern',
] as const;

const schema = zodResolver(ZStoreUserFieldBody);
/** The contract's rules over what the form would send (only the chosen type's options). */
const resolver: Resolver<FieldFormValues, unknown, TStoreUserFieldBody> = async (
  values,
  context,
  options,
) => {
  const result = await schema(bodyOf(values) as never, context, options as never);
  return result as never;
};

/** Create or edit a metadata field: its type, whether it is required, and its validation. */
export function FieldDialog({ field, onClose }: { field?: TMetadataField; onClose: () => void }) {
  const store = useStoreField();
  const lists = useValueLists();
  const form = useForm<FieldFormValues, unknown, TStoreUserFieldBody>({
    resolver,
    defaultValues: field ? formValuesOf(field) : emptyField,
  });
  const { errors } = form.formState;
  const bind = fieldBinder(form);
  const type = form.watch('type');
  const inUse = field ? field.usage.categories + field.usage.files + field.usage.workflows > 0 : false;

  const onSubmit = useFormSubmit(form, store, {
    fields: FIELDS,
    failure: field ? 'Failed to edit metadata field!' : 'Failed to create metadata field!',
    whilePending: 'ignore',
    body: (body) => ({ ...body, ...(field ? { id: field.id } : {}) }),
    told: (saved) => [field ? 'Field saved' : 'Field created', `${saved.name} was saved.`],
    onDone: onClose,
  });

  return (
    <Dialog
      title={field ? `Edit ${field.name}` : 'New metadata field'}
      onClose={onClose}
      busy={store.isPending}
    >
      <form className="form" onSubmit={onSubmit} noValidate aria-busy={store.isPending}>
        <FormField label="Name" autoComplete="off" {...bind('name')} />
        <Field
          label="Type"
          error={errors.type?.message}
          hint={inUse ? 'The field is in use: its type stays as it is.' : undefined}
        >
          {(control) => (
            <select {...control} className="control" disabled={inUse} {...form.register('type')}>
              {FIELD_TYPES.map((t) => (
                <option key={t} value={t}>
                  {FIELD_TYPE_LABELS[t]}
                </option>
              ))}
            </select>
          )}
        </Field>
        {type === 'select' ? (
          <Field label="Value list" error={errors.value_list_id?.message}>
            {(control) => (
              <select {...control} className="control" disabled={inUse} {...form.register('value_list_id')}>
                <option value="">Choose a list…</option>
                {(lists.data ?? []).map((l) => (
                  <option key={l.id} value={l.id}>
                    {`${l.name} (${l.item_count} items)`}
                  </option>
                ))}
              </select>
            )}
          </Field>
        ) : null}
        {type === 'number' ? (
          <div className="form-grid">
            <FormField label="Smallest" type="number" step="any" {...bind('min_number')} />
            <FormField label="Largest" type="number" step="any" {...bind('max_number')} />
          </div>
        ) : null}
        {type === 'date' ? (
          <div className="form-grid">
            <FormField label="Earliest" type="date" {...bind('min_date')} />
            <FormField label="Latest" type="date" {...bind('max_date')} />
          </div>
        ) : null}
        {type === 'text' ? (
          <div className="form-grid">
            <FormField label="Longest (characters)" type="number" min={1} {...bind('max_length')} />
            <FormField
              label="Pattern"
              autoComplete="off"
              maxLength={FIELD_PATTERN_MAX}
              hint="A regular expression the whole value must match, such as [A-Z]{3}-\d+"
              {...bind('pattern')}
            />
          </div>
        ) : null}
        <label className="checkbox">
          <input type="checkbox" {...form.register('required')} /> Required when a file is indexed
        </label>
        <Field
          label={
            <>
              Help text <span className="muted">(optional)</span>
            </>
          }
          error={errors.help_text?.message}
        >
          {(control) => <textarea {...control} rows={2} {...form.register('help_text')} />}
        </Field>
        <DialogActions onCancel={onClose} pending={store.isPending} pendingLabel="Saving…">
          {field ? 'Save changes' : 'Create field'}
        </DialogActions>
      </form>
    </Dialog>
  );
}
