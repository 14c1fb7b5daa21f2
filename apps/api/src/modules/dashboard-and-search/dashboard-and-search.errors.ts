import { createError, type FieldError, invalidInput } from '../../lib/errors.js';

/** A filter on a field that does not exist (or was deleted). */
export const unknownField = (index: number, id: number) =>
  invalidInput(`fields.${index}.field_id: there is no metadata field ${id}`, [
    { path: `body.fields.${index}.field_id`, message: 'There is no such metadata field' },
  ]);

/** A condition the field's type cannot take (a range on a text field, keys on a number…). */
export const conditionDoesNotFit = (index: number, what: string, message: string) => {
  const errors: FieldError[] = [{ path: `body.fields.${index}.${what}`, message }];
  return invalidInput(`fields.${index}.${what}: ${message}`, errors);
};

/** A cursor (keyset paging, newest first) given with search words (a ranked list). */
export const cursorWithSearch = () =>
  invalidInput('cursor: a ranked search is paged by page, not by cursor', [
    { path: 'query.cursor', message: 'Page a search by page; a cursor pages a list without search words' },
  ]);

/** Text recognition asked for on a file whose current version is not an image or a PDF. */
export const notRecognisable = createError({
  code: 'search.not_recognisable',
  statusCode: 409,
  message: (mimeType: string) =>
    `Text is recognised in images (PNG, JPEG, TIFF, WebP) and PDFs only; this file's current version is ${mimeType}`,
});

/** Text recognition asked for while OCR_LANGUAGES is off. */
export const recognitionOff = createError({
  code: 'search.recognition_off',
  statusCode: 409,
  message:
    'Text recognition is turned off on this server (OCR_LANGUAGES=off); ask the administrator to turn it on',
});
