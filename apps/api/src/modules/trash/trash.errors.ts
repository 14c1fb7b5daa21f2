import { createError } from '../../lib/errors.js';

export { categoryNotFound, fileNotFound, restoreNeedsCategory } from '../file/file.errors.js';

/** "My deleted files": the caller may no longer delete the file, so they may not restore it. */
export const restoreForbidden = createError({
  code: 'file.forbidden',
  statusCode: 403,
  message: (name: string) =>
    `You may no longer delete "${name}", so you cannot restore it. Ask a File Control admin to restore it.`,
});
