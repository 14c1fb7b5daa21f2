import { z } from 'zod';
import { ZIdParams } from './common.js';
import { endpoint } from './http.js';

// Derived content of a file's current version (made by the preview.derive job, never a
// version): its thumbnail, and an Office file's preview as bounded HTML. Both need only the
// view right: neither is the original's bytes. Spread into the `file` area.

export {
  hasThumbnail,
  OFFICE_PREVIEW_TYPES,
  officePreviewKind,
  THUMBNAIL_TYPES,
} from './media-types.js';

/** A DOCX or XLSX shown on the file page: HTML made on the server, every text escaped. */
export const ZOfficePreview = z.object({
  version_id: z.number().int(),
  kind: z.enum(['docx', 'xlsx']),
  /** Paragraphs, headings, lists and tables (DOCX, no images) or the first sheets as tables (XLSX). */
  html: z.string(),
  /** Cut at the preview's limit (the first 500 rows of a sheet, 2 MB of HTML). */
  truncated: z.boolean(),
});
export type TOfficePreview = z.infer<typeof ZOfficePreview>;

export const previewContract = {
  fileThumbnail: endpoint({
    method: 'GET',
    path: '/api/previews/thumbnail/{id}',
    guard: 'signedIn',
    object: { file: 'view' },
    produces: 'file',
    mediaType: 'image/webp',
    summary:
      "A small WebP image (PNG if made before WebP) of a file's current version (first page of a PDF or Office file, or the image), with its ETag; 404 while there is none",
    params: ZIdParams,
    extension: true,
  }),
  officePreview: endpoint({
    method: 'GET',
    path: '/api/previews/office/{id}',
    guard: 'signedIn',
    object: { file: 'view' },
    summary:
      "A DOCX or XLSX file's current version as bounded HTML for its page (view right only: never the original); 404 while there is none",
    params: ZIdParams,
    response: ZOfficePreview,
    extension: true,
  }),
};
