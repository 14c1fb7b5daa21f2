import { VALUE_LIST_KEY_MAX } from '@quire/contract';
import { AppError, createError, invalidInput, nameTaken, notFound } from '../../lib/errors.js';

export const valueListNotFound = () => notFound('Value list');

export const valueListNameTaken = nameTaken('value list');

export const notASpreadsheet = () =>
  invalidInput('The file is not a readable .xlsx spreadsheet', [
    { path: 'body.file', message: 'Not a readable .xlsx spreadsheet' },
  ]);

/** Every key from 1 to 10000 is taken (archived items keep theirs): no random key is left. */
export const valueListFull = createError({
  code: 'value_list.full',
  statusCode: 409,
  message: (needed: number, free: number) =>
    `The list is full: items take keys 1 to ${VALUE_LIST_KEY_MAX}, ${free} ${free === 1 ? 'is' : 'are'} free and ${needed} ${needed === 1 ? 'is' : 'are'} needed. Remove items first.`,
});

export function valueListInUse(name: string, fields: string[]): AppError {
  const shown = fields
    .slice(0, 5)
    .map((f) => `"${f}"`)
    .join(', ');
  const more = fields.length > 5 ? ` and ${fields.length - 5} more` : '';
  return new AppError(
    'value_list.in_use',
    409,
    `"${name}" cannot be deleted: the metadata field${fields.length === 1 ? '' : 's'} ${shown}${more} ${fields.length === 1 ? 'uses' : 'use'} it. Change or delete ${fields.length === 1 ? 'that field' : 'those fields'} first.`,
  );
}
