import type { ComponentProps } from 'react';
import { FormDialog } from './form-dialog';
import { DescriptionField, FormField, type FormFieldProps } from './form-field';

/**
 * The dialog that creates or edits a named thing (a group, a category group, a workflow):
 * Name, an optional Description, the rest of its form, then Cancel and the submit button.
 * `name` and `description` are the fields' props (`fieldBinder(form)('name')`).
 */
export function NamedFormDialog({
  name,
  description,
  children,
  ...dialog
}: Omit<ComponentProps<typeof FormDialog>, 'description'> & {
  name: Omit<FormFieldProps, 'label'>;
  description: ComponentProps<typeof DescriptionField>;
}) {
  return (
    <FormDialog {...dialog}>
      <FormField label="Name" autoComplete="off" {...name} />
      <DescriptionField {...description} />
      {children}
    </FormDialog>
  );
}
