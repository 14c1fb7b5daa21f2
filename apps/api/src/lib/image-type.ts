// What kind of raster image a file is, by its first bytes (never by its name or claimed type).
// Anything else, SVG included, is not an image here: SVG is a document that can run scripts.

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);

export type ImageType = 'image/png' | 'image/jpeg' | 'image/webp';

/** The image type of content starting with `head` (16 bytes are enough), or null. */
export function sniffImage(head: Buffer): ImageType | null {
  if (head.subarray(0, PNG.length).equals(PNG)) return 'image/png';
  if (head.subarray(0, JPEG.length).equals(JPEG)) return 'image/jpeg';
  if (head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP')
    return 'image/webp';
  return null;
}

export const IMAGE_EXTENSIONS: Record<ImageType, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
};
