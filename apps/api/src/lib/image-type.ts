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

/**
 * The width and height a PNG or JPEG declares in its header (PNG's IHDR, JPEG's first
 * start-of-frame marker), read without decoding a pixel; null when the header is not there.
 */
export function imageDimensions(bytes: Buffer): { width: number; height: number } | null {
  const type = sniffImage(bytes);
  if (type === 'image/png') {
    if (bytes.length < 24 || bytes.toString('latin1', 12, 16) !== 'IHDR') return null;
    return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  }
  if (type !== 'image/jpeg') return null;
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1] ?? 0;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      at += 2; // markers without a length
      continue;
    }
    // SOF0..SOF15 hold the frame size; C4 (DHT), C8 (JPG) and CC (DAC) are not frames.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (at + 9 > bytes.length) return null;
      return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    }
    at += 2 + bytes.readUInt16BE(at + 2);
  }
  return null;
}
