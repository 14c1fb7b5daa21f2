import { AppError } from '../../../lib/errors.js';

// The e-mail inbox's own errors (the intake area's others are in ../intake.errors.ts).

/** The test connection did not get through: the IMAP server's trouble, in our words. */
export const inboxTestFailed = (reason: string) =>
  new AppError('intake.inbox_test_failed', 502, `The inbox could not be read: ${reason}`);
