import { type FieldError, invalidInput } from '../../lib/errors.js';

/** A filter on a field that does not exist (or was deleted). */
export const unknownField = (index: number, id: number) =>
  invalidInput(`fields.${index}.field_id: there is no metadata field ${id}`, [
    { path: `body.fields.${index}.field_id`, message: 'There is no such metadata field' },
  ]);

/** A condition the field's type cannot take (a range on a text field, keys on a number…). */
export const conditionDoesNotFit = (index: number, what: string, message: string) => {
  const errors: FieldError[] = [{ path: `body.fields.${index}.${what}`, message }];
  return invalidInput(`fields.${index}.${what}: ${message}`, errors);
};
