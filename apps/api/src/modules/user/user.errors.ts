import { createError, invalidInput, notFound } from '../../lib/errors.js';

export const userNotFound = () => notFound('User');

export const signatureNotFound = () => notFound('Signature');

export const vendorAdminRefused = createError({
  code: 'user.vendor_admin_refused',
  statusCode: 403,
  message: 'Vendor Admin accounts cannot be created or assigned here',
});

export { moreAccessThanYours, vendorAdminProtected } from '../../lib/errors.js';

export const ownAccessUnchangeable = createError({
  code: 'user.own_access',
  statusCode: 403,
  message: 'You cannot change your own access type or role',
});

export const ownPasswordHere = createError({
  code: 'user.own_password',
  statusCode: 403,
  message: 'Change your own password in your profile',
});

export const deletedIsFinal = createError({
  code: 'user.deleted_is_final',
  statusCode: 409,
  message: 'A deleted user cannot be reactivated',
});

export const deletedUnchangeable = createError({
  code: 'user.deleted_is_final',
  statusCode: 409,
  message: 'A deleted user cannot be changed',
});

export const sessionNotFound = () => notFound('Session');

export const ownSessionHere = createError({
  code: 'user.own_session',
  statusCode: 403,
  message: 'This is your own session: sign out to end it',
});

export const ownStatusUnchangeable = createError({
  code: 'user.own_status',
  statusCode: 403,
  message: (verb: string) => `You cannot ${verb} your own account`,
});

export const othersSignatureRefused = createError({
  code: 'user.signature_forbidden',
  statusCode: 403,
  message: (verb: string) => `You are not allowed to ${verb} another user's signature`,
});

export const notAnImage = () =>
  invalidInput('The signature must be a PNG or JPEG image', [
    { path: 'body.file', message: 'Not a PNG or JPEG image' },
  ]);

export const notASpreadsheet = () =>
  invalidInput('The file is not a readable .xlsx spreadsheet', [
    { path: 'body.file', message: 'Not a readable .xlsx spreadsheet' },
  ]);

export const tooManyRows = (max: number) =>
  invalidInput(`The spreadsheet has more than ${max} users. Import at most ${max} at a time.`, [
    { path: 'body.file', message: `More than ${max} users` },
  ]);
