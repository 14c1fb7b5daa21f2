import * as mupdf from 'mupdf';
import { PDFDocument, StandardFonts } from 'pdf-lib';

// Scanned documents made in the test: text set in a real font (Helvetica, by pdf-lib) and
// rendered to pixels by MuPDF, as a scanner would give them, so text recognition has
// something real to read and nothing of the text survives but its image.

/** Pages of text as a PDF with a text layer (one page per entry, lines split on \n). */
export async function typesetPdf(pages: string[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const text of pages) {
    const page = pdf.addPage([420, 300]);
    text.split('\n').forEach((line, i) => {
      page.drawText(line, { x: 24, y: 250 - i * 28, size: 18, font });
    });
  }
  return pdf.save();
}

/** Each page of `pdf` as a grey PNG at `dpi`. */
export function renderPages(pdf: Uint8Array, dpi = 200): Buffer[] {
  const doc = mupdf.Document.openDocument(pdf, 'application/pdf');
  const out: Buffer[] = [];
  for (let n = 0; n < doc.countPages(); n++) {
    const pixmap = doc
      .loadPage(n)
      .toPixmap(mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.ColorSpace.DeviceGray, false);
    out.push(Buffer.from(pixmap.asPNG()));
  }
  return out;
}

/** A PNG scan of one page of text. */
export async function scannedImage(text: string): Promise<Buffer> {
  return renderPages(await typesetPdf([text]))[0] as Buffer;
}

/** An image-only PDF (no text layer): each page is the scan of one entry of `pages`. */
export async function scannedPdfOf(pages: string[]): Promise<Buffer> {
  const images = renderPages(await typesetPdf(pages));
  const pdf = await PDFDocument.create();
  for (const png of images) {
    const image = await pdf.embedPng(png);
    const page = pdf.addPage([420, 300]);
    page.drawImage(image, { x: 0, y: 0, width: 420, height: 300 });
  }
  return Buffer.from(await pdf.save());
}

/**
 * A PNG whose header declares `width` x `height` pixels (a "pixel bomb": a few bytes that
 * would decode into gigabytes), with a valid but tiny compressed body.
 */
export function pixelBombPng(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer) => {
    let c = 0xffffffff;
    for (const byte of b) c = (crcTable[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
