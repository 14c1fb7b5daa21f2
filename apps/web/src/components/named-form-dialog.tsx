import type { ComponentProps } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { FormDialog } from './form-dialog';
import { DescriptionField, FormField } from './form-field';

type NamedField = UseFormRegisterReturn & { error?: string | undefined };

/**
 * The dialog that creates or edits a named thing (a group, a category group, a workflow):
 * Name, an optional Description, the rest of its form, then Cancel and the submit button.
 * `editing` is the name of the thing edited (none: a new `noun`, created by `createLabel`);
 * `bind` gives the Name and Description fields' props (`fieldBinder(form)`).
 */
export function NamedFormDialog({
  noun,
  editing,
  createLabel,
  bind,
  children,
  ...dialog
}: Omit<ComponentProps<typeof FormDialog>, 'description' | 'title' | 'submitLabel'> & {
  noun: string;
  editing: string | undefined;
  createLabel: string;
  bind: (name: 'name' | 'description') => NamedField;
}) {
  return (
    <FormDialog
      {...dialog}
      title={editing === undefined ? `New ${noun}` : `Edit ${editing}`}
      submitLabel={editing === undefined ? createLabel : 'Save changes'}
    >
      <FormField label="Name" autoComplete="off" {...bind('name')} />
      <DescriptionField {...bind('description')} />
      {children}
    </FormDialog>
  );
}
