import { AppError, createError, invalidInput, nameTaken, notFound } from '../../lib/errors.js';

export const fieldNotFound = () => notFound('Metadata field');

export const fieldNameTaken = nameTaken('metadata field');

export const unknownValueList = () =>
  invalidInput('value_list_id: no such value list', [
    { path: 'body.value_list_id', message: 'No such value list' },
  ]);

/** A field in use keeps its type and value list: its values and settings depend on them. */
export const fieldTypeLocked = createError({
  code: 'metadata.type_locked',
  statusCode: 409,
  message: (name: string, where: string) =>
    `The type and value list of "${name}" cannot change: it is used by ${where}`,
});

/** Deleting a field that is used somewhere: the message says where. */
export function fieldInUse(name: string, where: string): AppError {
  return new AppError(
    'metadata.in_use',
    409,
    `"${name}" cannot be deleted: it is used by ${where}. Remove it there first.`,
  );
}
