// Media types and what the product makes of them (thumbnails, Office previews): plain values,
// no zod, so a page that only shows files (a list's thumbnails) loads nothing of the schemas.

/** An .xlsx workbook's media type (imports, templates, exports, previews, search). */
export const XLSX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** A .docx document's media type (previews, search). */
export const DOCX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** The types a thumbnail is made of (WebP decoded by libwebp, the rest drawn by MuPDF). */
export const THUMBNAIL_TYPES: ReadonlySet<string> = new Set([
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/tiff',
  'image/webp',
  DOCX_MEDIA_TYPE,
  XLSX_MEDIA_TYPE,
]);

/** The Office types previewed as HTML on the file page. */
export const OFFICE_PREVIEW_TYPES: Readonly<Record<string, 'docx' | 'xlsx'>> = {
  [DOCX_MEDIA_TYPE]: 'docx',
  [XLSX_MEDIA_TYPE]: 'xlsx',
};

const baseType = (mimeType: string) => mimeType.toLowerCase().split(';')[0]?.trim() ?? '';

/** Whether content of `mimeType` gets a thumbnail. */
export const hasThumbnail = (mimeType: string | null | undefined) =>
  mimeType ? THUMBNAIL_TYPES.has(baseType(mimeType)) : false;

/** 'docx' or 'xlsx' when content of `mimeType` gets an Office preview. */
export const officePreviewKind = (mimeType: string | null | undefined) =>
  mimeType ? (OFFICE_PREVIEW_TYPES[baseType(mimeType)] ?? null) : null;
