import { type Control, Controller, type FieldPath, type FieldValues } from 'react-hook-form';
import { MultiPicker, type MultiPickerProps } from './multi-picker';

/** A MultiPicker bound to a react-hook-form field holding ids, its error the field's. */
export function FormMultiPicker<T extends FieldValues, TValues = T>({
  control,
  name,
  ...picker
}: { control: Control<T, unknown, TValues>; name: FieldPath<T> } & Omit<
  MultiPickerProps,
  'name' | 'selected' | 'onChange' | 'error'
>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <MultiPicker
          {...picker}
          name={field.name}
          selected={(field.value ?? []) as number[]}
          onChange={field.onChange}
          error={fieldState.error?.message}
        />
      )}
    />
  );
}
