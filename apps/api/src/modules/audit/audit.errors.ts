import { invalidInput, refusedAt } from '../../lib/errors.js';

/** The most events one export holds. */
export const EXPORT_MAX_EVENTS = 100_000;

export const exportTooLarge = () =>
  refusedAt(
    'audit.export_too_large',
    'query',
    `More than ${EXPORT_MAX_EVENTS.toLocaleString('en')} events match: narrow the filters (a date range, a type or a user) and export again`,
  );

export const unknownUser = () =>
  invalidInput('user_id: there is no such user', [
    { path: 'query.user_id', message: 'There is no such user' },
  ]);
