import { AppError, invalidInput, nameTaken, notFound } from '../../lib/errors.js';
import { objectNotFound } from '../../lib/object-guards.js';

/** The same 404 as the object guard's, for a category the caller may not see or that is gone. */
export const categoryNotFound = () => objectNotFound('category');

export const siblingNameTaken = (name: string, path = 'body.name') =>
  invalidInput(`A category named "${name}" already exists here`, [
    { path, message: 'A category with this name already exists at this place' },
  ]);

export const noSuchParent = () =>
  invalidInput('parent_id: no such category', [{ path: 'body.parent_id', message: 'No such category' }]);

export const moveIntoItself = () =>
  invalidInput('A category cannot be moved into itself or one of its sub-categories', [
    { path: 'body.parent_id', message: 'This is the category itself or one of its sub-categories' },
  ]);

/**
 * A delete that would move files to the trash without saying how many. The message gives the
 * number; the call goes through with `confirm_file_count` equal to it.
 */
export function deleteUnconfirmed(
  name: string,
  files: number,
  categories: number,
  given: number | undefined,
) {
  const what = `${files} file${files === 1 ? '' : 's'}`;
  const below = categories > 0 ? ` and its ${categories} sub-categor${categories === 1 ? 'y' : 'ies'}` : '';
  const stale = given === undefined ? '' : ` (you confirmed ${given}: the category has changed since)`;
  return new AppError(
    'category.delete_unconfirmed',
    409,
    `"${name}"${below} hold${categories > 0 ? '' : 's'} ${what}${stale}. Deleting moves ${files === 1 ? 'it' : 'them'} to the trash: confirm with confirm_file_count ${files}.`,
    [{ path: 'body.confirm_file_count', message: `Confirm ${files}` }],
  );
}

export const categoryGroupNotFound = () => notFound('Category group');

export const categoryGroupNameTaken = nameTaken('category group');

export const tagNotFound = () => notFound('Related tag');
