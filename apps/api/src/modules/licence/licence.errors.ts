import { AppError, createError, refusedAt } from '../../lib/errors.js';

/** A licence that does not verify (forged, altered, not a licence): its reason, on the field. */
export const licenceRefused = (reason: string) => refusedAt('licence.invalid', 'body.licence', reason);

export const licenceAlreadyExpired = (date: string) =>
  refusedAt(
    'licence.already_expired',
    'body.licence',
    `This licence expired on ${date}. Ask the vendor for a current one.`,
  );

export const licenceAlreadyInstalled = createError({
  code: 'licence.already_installed',
  statusCode: 409,
  message: 'This licence has been installed before.',
});

export const seatLimitReached = createError({
  code: 'licence.seats_exhausted',
  statusCode: 409,
  message: (seats: number, used: number) =>
    `The licence allows ${seats} active user${seats === 1 ? '' : 's'} and ${used} ${used === 1 ? 'is' : 'are'} active. Deactivate a user or ask the vendor for more seats.`,
});

/** Writes refused after expiry: sign-in, viewing and downloading keep working. */
export const readOnlyAfterExpiry = createError({
  code: 'licence.expired',
  statusCode: 403,
  message: (date: string) =>
    `The licence expired on ${date}, so Quire is read-only: you can sign in, view and download, but not change anything until the vendor installs a new licence.`,
});

/** What the licence screen and every refused write say when the installed licence does not verify. */
export const invalidLicenceMessage = (reason: string) =>
  `The installed licence is not valid (${reason.replace(/\.$/, '')}), so Quire is read-only and takes no new users until the vendor installs a valid licence.`;

/** Writes and new seats refused: the licence row's document does not verify (edited in the database or a backup). */
export const licenceNotValid = (reason: string) =>
  new AppError('licence.not_valid', 403, invalidLicenceMessage(reason));
