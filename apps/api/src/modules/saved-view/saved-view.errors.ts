import { SAVED_VIEWS_MAX } from '@quire/contract';
import { AppError, createError, invalidInput } from '../../lib/errors.js';

// The errors of saved views.

/** Another person's view, or one that does not exist: the same answer. */
export const savedViewNotFound = () =>
  new AppError('saved_view.not_found', 404, 'Saved view not found', undefined, { refusal: true });

export const savedViewNameTaken = (name: string) =>
  invalidInput(`You already have a saved view named "${name}". Choose another name.`, [
    { path: 'body.name', message: 'You already have a view with this name' },
  ]);

export const tooManySavedViews = createError({
  code: 'saved_view.too_many',
  statusCode: 409,
  message: `You have ${SAVED_VIEWS_MAX} saved views, the most one person may keep. Delete one you no longer use, then save again.`,
});
