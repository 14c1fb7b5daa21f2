import type { ReactNode } from 'react';
import type { FieldPath, FieldValues, UseFormReturn } from 'react-hook-form';
import { fieldBinder } from '../lib/form';
import { type SaveMutation, useFormSubmit } from '../lib/use-form-submit';
import type { DialogProps } from './dialog';
import { FormDialog } from './form-dialog';
import { DescriptionField, FormField } from './form-field';
import { FormMultiPicker } from './form-multi-picker';
import type { MultiPickerProps } from './multi-picker';

/** What the dialog's one picker offers: the form field holding its ids, then the picker's props. */
type NamedPicker<T extends FieldValues> = { name: FieldPath<T> } & Omit<
  MultiPickerProps,
  'name' | 'selected' | 'onChange' | 'error'
>;

/**
 * The dialog that creates or edits a named thing (a group, a category group, a workflow):
 * Name, an optional Description, a picker of what it holds, the rest of its form, then Cancel
 * and the submit button. `editing` is the name of the thing edited (none: a new `noun`,
 * created by `createLabel`). Submitting saves the checked values through `save`; success
 * toasts `created` or `edited` (as the title and the submit button say which), calls
 * `onSaved` and closes; a refusal puts its errors beside Name, Description, `fields` and the
 * picker, and toasts `failure` ("Failed to create <noun>!" or "Failed to edit <noun>!" unless given). A
 * submit while the last one runs does nothing.
 */
export function NamedFormDialog<TInput extends FieldValues, TValues, TSaved>({
  noun,
  editing,
  createLabel,
  size,
  onClose,
  form,
  save,
  submit,
  picker,
  beforePicker,
  children,
}: {
  noun: string;
  editing: string | undefined;
  createLabel: string;
  size?: DialogProps['size'];
  onClose: () => void;
  form: UseFormReturn<TInput, unknown, TValues>;
  save: SaveMutation<TValues, TSaved>;
  submit: {
    /** The fields of `beforePicker` (Name, Description and the picker go without saying). */
    fields?: readonly FieldPath<TInput>[];
    failure?: string;
    /** The success toast for a new thing, and for one edited. */
    created: (saved: TSaved) => readonly [string, string];
    edited: (saved: TSaved) => readonly [string, string];
    onSaved?: (saved: TSaved) => void;
  };
  picker: NamedPicker<TInput>;
  /** Fields that stand between the Description and the picker. */
  beforePicker?: ReactNode;
  children?: ReactNode;
}) {
  const {
    onSaved,
    failure = `Failed to ${editing === undefined ? 'create' : 'edit'} ${noun}!`,
    created,
    edited,
    fields = [],
  } = submit;
  // In the order they stand in, for the focus to go to the first at fault.
  const named = ['name', 'description'] as FieldPath<TInput>[];
  const onSubmit = useFormSubmit(form, save, {
    fields: [...named, ...fields, picker.name],
    failure,
    told: editing === undefined ? created : edited,
    onDone: (saved) => {
      onSaved?.(saved);
      onClose();
    },
    whilePending: 'ignore',
  });
  const bind = fieldBinder(form);
  // Every named thing's form has these two fields; the generic form cannot say so to the type.
  const field = (name: 'name' | 'description') => bind(name as FieldPath<TInput>);
  return (
    <FormDialog
      title={editing === undefined ? `New ${noun}` : `Edit ${editing}`}
      submitLabel={editing === undefined ? createLabel : 'Save changes'}
      size={size}
      onClose={onClose}
      pending={save.isPending}
      onSubmit={onSubmit}
    >
      <FormField label="Name" autoComplete="off" {...field('name')} />
      <DescriptionField {...field('description')} />
      {beforePicker}
      <FormMultiPicker control={form.control} {...picker} />
      {children}
    </FormDialog>
  );
}
