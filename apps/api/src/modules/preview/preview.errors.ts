import { createError } from '../../lib/errors.js';

// The preview area's named errors (thumbnails and Office previews of a file's current version).

export const noThumbnail = createError({
  code: 'preview.no_thumbnail',
  statusCode: 404,
  message: (why: string) => `This file has no thumbnail: ${why}`,
});

export const noOfficePreview = createError({
  code: 'preview.no_office_preview',
  statusCode: 404,
  message: (why: string) => `This file has no preview: ${why}`,
});
