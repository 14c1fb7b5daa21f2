// The width and height a WebP declares, read from its header without decoding it: the
// children that read images (text recognition, thumbnails) check the pixel limit with it
// before any decoder sees the file.

/** Width and height of a WebP (VP8X, VP8L or VP8 chunk); null when the header is unreadable. */
export function webpSize(b) {
  const tag = Buffer.from(b.subarray(12, 16)).toString('latin1');
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (tag === 'VP8X' && b.length >= 30)
    return {
      width: 1 + (v.getUint16(24, true) | (v.getUint8(26) << 16)),
      height: 1 + (v.getUint16(27, true) | (v.getUint8(29) << 16)),
    };
  if (tag === 'VP8L' && b.length >= 25) {
    const bits = v.getUint32(21, true);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) };
  }
  if (tag === 'VP8 ' && b.length >= 30)
    return { width: v.getUint16(26, true) & 0x3fff, height: v.getUint16(28, true) & 0x3fff };
  return null;
}
