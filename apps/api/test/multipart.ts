import { randomBytes } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import ExcelJS from 'exceljs';

// Builders for upload tests: a multipart/form-data body for app.inject, and small real files.

export interface FilePart {
  content: Buffer;
  filename: string;
  contentType?: string;
}

/**
 * `{ payload, headers }` for app.inject; fields are sent in the order given, an array as the
 * same field repeated.
 */
export function multipart(parts: Record<string, string | FilePart | Array<string | FilePart>>) {
  const boundary = `----quire${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  const flat = Object.entries(parts).flatMap(([name, value]) =>
    (Array.isArray(value) ? value : [value]).map((v) => [name, v] as const),
  );
  for (const [name, value] of flat) {
    if (typeof value === 'string') {
      chunks.push(
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
      );
    } else {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${value.filename}"\r\n` +
            `Content-Type: ${value.contentType ?? 'application/octet-stream'}\r\n\r\n`,
        ),
        value.content,
        Buffer.from('\r\n'),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

function chunk(type: string, data: Buffer) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid PNG of `width` x `height` grey pixels. */
export function tinyPng(width = 2, height = 2): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  const rows = Buffer.concat(
    Array.from({ length: height }, () => Buffer.concat([Buffer.from([0]), Buffer.alloc(width, 0x80)])),
  );
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The first bytes of a JPEG (SOI + JFIF APP0), enough for a content check. */
export function tinyJpegHead(): Buffer {
  return Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9]);
}

/** An .xlsx whose first sheet holds `rows` (row 1 first); `null` leaves a cell empty. */
export async function xlsx(rows: unknown[][], sheetName = 'Sheet1'): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(sheetName);
  for (const row of rows) ws.addRow(row);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** A valid 1x1 lossless WebP. */
export function tinyWebp(): Buffer {
  return Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');
}
