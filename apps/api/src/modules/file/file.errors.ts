import { AppError, createError, type FieldError, invalidInput } from '../../lib/errors.js';
import { objectNotFound } from '../../lib/object-guards.js';

// The files area's named errors (file, file-actions and trash calls share them).

/** A file that does not exist, is in the trash, or that the caller may not see: one answer. */
export const fileNotFound = () => objectNotFound('file');

export const categoryNotFound = () => objectNotFound('category');

export const versionNotFound = () => objectNotFound('version');

export const attachmentNotFound = () => objectNotFound('attachment');

export const fileLocked = createError({
  code: 'file.locked',
  statusCode: 409,
  message: (holder: string) =>
    `${holder} has locked this file. Ask them to unlock it, or a File Control admin to release it.`,
});

export const fileCheckedOut = createError({
  code: 'file.checked_out',
  statusCode: 409,
  message: (holder: string) =>
    `${holder} has checked this file out. Ask them to check it in, or a File Control admin to release it.`,
});

export const notCheckedOut = createError({
  code: 'file.not_checked_out',
  statusCode: 409,
  message: 'This file is not checked out. Check it out before checking a new version in.',
});

export const alreadyIndexed = createError({
  code: 'file.already_indexed',
  statusCode: 409,
  message: 'This file is already indexed. Change its values from the file page.',
});

export const notIndexed = createError({
  code: 'file.not_indexed',
  statusCode: 409,
  message: 'This file is not indexed yet. Index it from your unindexed files first.',
});

export const contentMissing = createError({
  code: 'file.content_missing',
  statusCode: 404,
  message: "This file's content is missing from the store. Ask an administrator to restore it from a backup.",
});

/** A right given on a file that the giver does not hold there. */
export const grantBeyondYours = createError({
  code: 'file.grant_beyond_yours',
  statusCode: 403,
  message: (right: string) => `You cannot give the right to ${right} this file: you do not have it yourself`,
});

export const valuesInvalid = (errors: FieldError[]) => {
  const first = errors[0];
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  return invalidInput(first ? `${first.message}${more}` : 'Check the values', errors);
};

export const unknownPeople = (path: string, ids: number[]) =>
  invalidInput(`${path.replace('body.', '')}: unknown ${ids.join(', ')}`, [
    { path, message: `Unknown: ${ids.join(', ')}` },
  ]);

/**
 * Files that are neither PDFs nor PNG or JPEG images, all named (`path` is the field that chose
 * them: `body.ids` for other files, `body.file_ids` for files).
 */
export const cannotCombine = (names: string[], path = 'body.ids') =>
  invalidInput(
    names.length === 1
      ? `"${names[0]}" is neither a PDF nor a PNG or JPEG image, so it cannot go into one PDF`
      : `${names.map((n) => `"${n}"`).join(', ')} are neither PDFs nor PNG or JPEG images, so they cannot go into one PDF. Leave them out and try again.`,
    names.map((name) => ({ path, message: `"${name}" cannot be combined into a PDF` })),
  );

export const combineTooLarge = createError({
  code: 'file.combine_too_large',
  statusCode: 413,
  message: (limit: string) => `The chosen files add up to more than ${limit}. Choose fewer files.`,
});

export const imageTooLarge = (
  name: string,
  width: number,
  height: number,
  maxPixels: number,
  path = 'body.ids',
) =>
  invalidInput(
    `"${name}" is ${width} x ${height} pixels; images of more than ${maxPixels / 1_000_000} megapixels cannot go into the PDF. Leave it out or choose a smaller copy.`,
    [{ path, message: `"${name}" has too many pixels (${width} x ${height})` }],
  );

export const combineTooHeavy = createError({
  code: 'file.combine_too_heavy',
  statusCode: 413,
  message: 'Making one PDF of the chosen files took too long or needed too much memory. Choose fewer files.',
});

export const previewNeedsDownload = createError({
  code: 'file.preview_needs_download',
  statusCode: 403,
  message:
    'This type of file cannot be shown in the browser, only downloaded, and you may not download it. Ask its owner for the download right.',
});

export const restoreNeedsCategory = () =>
  invalidInput('Its category is gone: choose a category to restore the file into', [
    { path: 'body.folder_id', message: 'Choose a category: the original one was deleted' },
  ]);

/** A public link that is wrong, expired, revoked or whose password is wrong: one answer for all. */
export const shareNotFound = () =>
  new AppError(
    'share.not_found',
    404,
    'This link does not work. It may be mistyped, expired or revoked, or the password is wrong.',
    undefined,
    { refusal: true },
  );

/** A public link hands the file to anyone: its maker must hold the download right. */
export const linkBeyondYours = createError({
  code: 'file.link_beyond_yours',
  statusCode: 403,
  message:
    'You cannot make a public link to this file: a link lets anyone download it, and you may not download it yourself',
});

export const expiryInPast = () =>
  invalidInput('expires_at: choose a time in the future', [
    { path: 'body.expires_at', message: 'Must be in the future' },
  ]);

export const uploadForbidden = createError({
  code: 'category.forbidden',
  statusCode: 403,
  message: 'You are not allowed to upload into this category',
});

export const grantNamedTwice = () =>
  invalidInput('Name each user or group once', [
    { path: 'body.grants', message: 'A user or group is named twice' },
  ]);
