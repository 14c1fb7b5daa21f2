import { AppError, createError, invalidInput } from '../../lib/errors.js';
import type { HoldOnFile } from './retention.repository.js';

// The errors of retention rules, legal holds and dispositions.

export { categoryNotFound, fileNotFound } from '../file/file.errors.js';

const day = (d: Date) => d.toISOString().slice(0, 10);

/**
 * A change refused because a legal hold covers the file: 409 naming the file, the hold's
 * reason, who set it and when. Audited as a refusal by the error handler.
 */
export function fileHeld(fileName: string, hold: Omit<HoldOnFile, 'file_id'>) {
  const on =
    hold.target === 'file'
      ? ''
      : hold.target === 'category'
        ? ` (on category "${hold.target_name}")`
        : ` (on the saved search "${hold.target_name}")`;
  return new AppError(
    'retention.legal_hold',
    409,
    `"${fileName}" is under legal hold${on}: ${hold.reason} (set by ${hold.set_by} on ${day(hold.set_at)}). Nothing was changed; the hold must be released first.`,
    undefined,
    { refusal: true },
  );
}

/** A category (or one above it) on legal hold: it cannot be deleted. */
export function categoryHeld(categoryName: string, hold: Omit<HoldOnFile, 'file_id'>) {
  return new AppError(
    'retention.legal_hold',
    409,
    `Category "${categoryName}" is under legal hold (on "${hold.target_name}"): ${hold.reason} (set by ${hold.set_by} on ${day(hold.set_at)}). Nothing was deleted; the hold must be released first.`,
    undefined,
    { refusal: true },
  );
}

/** A backup restore replaces every file: refused while any hold is in force. */
export const restoreWhileHeld = (count: number) =>
  new AppError(
    'retention.legal_hold',
    409,
    `${count} legal hold${count === 1 ? ' is' : 's are'} in force, and a restore would replace the files ${count === 1 ? 'it covers' : 'they cover'}. Release ${count === 1 ? 'it' : 'them'} first (Retention, Legal holds).`,
    undefined,
    { refusal: true },
  );

export const holdNotFound = createError({
  code: 'retention.hold_not_found',
  statusCode: 404,
  message: 'Legal hold not found',
});

export const holdAlreadyReleased = createError({
  code: 'retention.hold_released',
  statusCode: 409,
  message: 'This legal hold was already released',
});

export const ruleNotFound = createError({
  code: 'retention.rule_not_found',
  statusCode: 404,
  message: 'This category has no retention rule of its own',
});

export const holdTargetNotFound = (target: 'file' | 'category' | 'saved_view') =>
  invalidInput(`No ${target === 'saved_view' ? 'saved search' : target} with this id`, [
    {
      path: 'body.target_id',
      message: `No ${target === 'saved_view' ? 'saved search' : target} with this id`,
    },
  ]);

export const dateFieldInvalid = () =>
  invalidInput('The date field must be a metadata field of type date', [
    { path: 'body.date_field_id', message: 'Choose a metadata field of type date' },
  ]);

export const reviewGroupNotFound = () =>
  invalidInput('No group with this id', [{ path: 'body.review_group_id', message: 'No group with this id' }]);

export const dispositionsNotFound = () =>
  invalidInput('Some of these dispositions do not exist', [
    { path: 'body.ids', message: 'Some ids are unknown' },
  ]);

export const dispositionDecided = (fileName: string) =>
  new AppError(
    'retention.disposition_decided',
    409,
    `The disposition of "${fileName}" was already approved. Nothing was changed.`,
  );
