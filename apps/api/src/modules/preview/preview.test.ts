import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs } from '../../../test/access.js';
import type { TestContext } from '../../../test/app.js';
import { docx } from '../../../test/documents.js';
import { createFile } from '../../../test/factories.js';
import { pixelBombPng, scannedImage, typesetPdf } from '../../../test/scans.js';
import { announceUpload, seededApp } from '../../../test/seed.js';
import { rowXml, workbook } from '../../../test/xlsx.js';

// Thumbnails and Office previews (the preview.derive job and the two calls), through the real
// app: rights, caching headers, hostile images, and that a view-only person never gets the
// original bytes of an Office file.

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

let t: TestContext;
let owner: { id: number; token: string };
let viewOnly: { id: number; token: string };
let outsider: { id: number; token: string };
let category: number;

const as = (who: { token: string } | null, opts: InjectOptions) => callAs(t, who?.token ?? null, opts);
const get = (who: { token: string } | null, url: string, headers: Record<string, string> = {}) =>
  as(who, { method: 'GET', url, headers });

/** A file of `owner` that viewOnly may view (a file grant without download), after the jobs ran. */
async function upload(name: string, content: Buffer, mimeType: string) {
  const file = await createFile(t.db, t.app.deps.blobs, {
    ownerId: owner.id,
    categoryId: category,
    name,
    content,
    mimeType,
  });
  await t.db.file.update({ where: { id: file.id }, data: { hasOwnPermissions: true } });
  await t.db.filePermission.create({
    data: { fileId: file.id, userId: viewOnly.id, canView: true, canDownload: false },
  });
  await announceUpload(t, file, owner.id);
  return { id: file.id, versionId: file.currentVersionId as number };
}

/** Width and height from a WebP's header (lossy VP8 or lossless VP8L), after its RIFF signature. */
function webpSize(b: Buffer) {
  expect(b.toString('latin1', 0, 4)).toBe('RIFF');
  expect(b.toString('latin1', 8, 12)).toBe('WEBP');
  const chunk = b.toString('latin1', 12, 16);
  if (chunk === 'VP8L') {
    const bits = b.readUInt32LE(21);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) };
  }
  expect(chunk).toBe('VP8 ');
  return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
}

beforeAll(async () => {
  const person = (firstName: string) => ({ firstName, lastName: 'Looker' });
  const world = await seededApp({
    users: { owner: person('Olive'), viewOnly: person('Vera'), outsider: person('Oscar') },
    categories: { previews: { name: 'Previews', grants: { owner: [] } } },
  });
  ({
    t,
    users: { owner, viewOnly, outsider },
  } = world);
  category = world.categories.previews.id;
});
afterAll(() => t.close());

describe('GET /api/previews/thumbnail/{id}', () => {
  it('serves the thumbnail of an image to whoever may view the file, with its ETag (304 when unchanged)', async () => {
    const { id } = await upload('receipt.png', await scannedImage('Receipt 77\nThank you'), 'image/png');
    const res = await get(viewOnly, `/api/previews/thumbnail/${id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['cache-control']).toBe('private, no-cache');
    const size = webpSize(res.rawPayload);
    expect(Math.max(size.width, size.height)).toBe(256);
    expect(res.rawPayload.length).toBeLessThan(60_000);
    const again = await get(viewOnly, `/api/previews/thumbnail/${id}`, {
      'if-none-match': res.headers.etag as string,
    });
    expect(again.statusCode).toBe(304);
    expect(
      await t.db.auditEvent.count({ where: { action: 'file.previews_made', targetId: String(id) } }),
    ).toBe(1);
  }, 120_000);

  it('makes one of the first page of a PDF, and stores it as derived content, not a version', async () => {
    const pdf = Buffer.from(await typesetPdf(['Annual report', 'Second page']));
    const { id, versionId } = await upload('report.pdf', pdf, 'application/pdf');
    const res = await get(owner, `/api/previews/thumbnail/${id}`);
    expect(res.statusCode).toBe(200);
    const size = webpSize(res.rawPayload);
    expect(size).toEqual({ width: 256, height: 183 }); // 420 x 300 points, the longer side 256
    expect(await t.db.fileVersion.count({ where: { fileId: id } })).toBe(1);
    const row = await t.db.versionDerivative.findUniqueOrThrow({
      where: { versionId_kind: { versionId, kind: 'thumbnail' } },
    });
    expect(row).toMatchObject({ mimeType: 'image/webp', width: 256, height: 183, error: null });
    // A thumbnail made before WebP (a PNG) is sent as what it is.
    await t.db.versionDerivative.update({
      where: { versionId_kind: { versionId, kind: 'thumbnail' } },
      data: { mimeType: 'image/png' },
    });
    const old = await get(owner, `/api/previews/thumbnail/${id}`);
    expect(old.headers['content-type']).toBe('image/png');
    expect(old.headers['content-disposition']).toContain('report.pdf.png');
  }, 120_000);

  it('refuses a stranger (404, audited) and the anonymous (401)', async () => {
    const { id } = await upload('hidden.png', await scannedImage('Hidden'), 'image/png');
    const before = await t.db.auditEvent.count({
      where: { action: 'access.not_found', userId: outsider.id },
    });
    const hidden = await get(outsider, `/api/previews/thumbnail/${id}`);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.headers['content-type']).toMatch(/json/);
    expect(await t.db.auditEvent.count({ where: { action: 'access.not_found', userId: outsider.id } })).toBe(
      before + 1,
    );
    expect((await get(null, `/api/previews/thumbnail/${id}`)).statusCode).toBe(401);
    expect((await get(owner, '/api/previews/thumbnail/abc')).statusCode).toBe(400);
  }, 120_000);

  it('makes none of a pixel bomb (refused from its header, in a bounded child) and says why', async () => {
    const { id, versionId } = await upload('bomb.png', pixelBombPng(12_000, 12_000), 'image/png');
    const res = await get(owner, `/api/previews/thumbnail/${id}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toMatch(/12000 x 12000 pixels, more than the 40 megapixels/);
    const row = await t.db.versionDerivative.findUniqueOrThrow({
      where: { versionId_kind: { versionId, kind: 'thumbnail' } },
    });
    expect(row.blobId).toBeNull();
  }, 120_000);

  it('makes one of a WebP image (decoded by libwebp), transparency laid on white', async () => {
    // 600 x 300: the left half opaque red, the right half fully transparent.
    const width = 600;
    const height = 300;
    const data = new Uint8ClampedArray(width * height * 4);
    for (let i = 0; i < width * height; i++) if (i % width < width / 2) data.set([220, 20, 20, 255], i * 4);
    const { default: encode, init } = await import('@jsquash/webp/encode.js');
    const codec = (file: string) =>
      readFile(fileURLToPath(import.meta.resolve(`@jsquash/webp/codec/${file}`)));
    await init(await WebAssembly.compile(await codec('enc/webp_enc_simd.wasm')));
    const webp = Buffer.from(await encode({ data, width, height, colorSpace: 'srgb' }, { lossless: 1 }));
    const { id } = await upload('photo.webp', webp, 'image/webp');
    const res = await get(owner, `/api/previews/thumbnail/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(webpSize(res.rawPayload)).toEqual({ width: 256, height: 128 });
    const { default: decode, init: initDecode } = await import('@jsquash/webp/decode.js');
    await initDecode(await WebAssembly.compile(await codec('dec/webp_dec.wasm')));
    const thumb = await decode(new Uint8Array(res.rawPayload).buffer);
    const pixel = (x: number, y: number) => [
      ...thumb.data.subarray((y * 256 + x) * 4, (y * 256 + x) * 4 + 3),
    ];
    const [r, g, b] = pixel(40, 64);
    expect(r).toBeGreaterThan(180);
    expect(g).toBeLessThan(70);
    expect(b).toBeLessThan(70);
    expect(Math.min(...pixel(216, 64))).toBeGreaterThan(235); // white where it was transparent
  }, 120_000);

  it('makes none of a WebP declaring too many pixels (refused from its header)', async () => {
    // A VP8X header declaring 10000 x 10000, with no image data after it.
    const header = Buffer.alloc(30);
    header.write('RIFF', 0, 'latin1');
    header.writeUInt32LE(22, 4);
    header.write('WEBPVP8X', 8, 'latin1');
    header.writeUInt32LE(10, 16);
    header.writeUIntLE(9999, 24, 3);
    header.writeUIntLE(9999, 27, 3);
    const { id } = await upload('huge.webp', header, 'image/webp');
    const res = await get(owner, `/api/previews/thumbnail/${id}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toMatch(/10000 x 10000 pixels, more than the 40 megapixels/);
  }, 120_000);

  it('answers 404 for a type that has no thumbnail', async () => {
    const { id } = await upload('notes.txt', Buffer.from('plain words'), 'text/plain');
    const res = await get(owner, `/api/previews/thumbnail/${id}`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'preview.no_thumbnail' });
  });
});

describe('GET /api/previews/office/{id}', () => {
  it('shows a DOCX as escaped HTML to a view-only person, who still cannot get the original', async () => {
    const { id, versionId } = await upload(
      'letter.docx',
      docx(['Dear Madam, the <b>numbat</b> shipment', 'Kind regards']),
      DOCX,
    );
    const res = await get(viewOnly, `/api/previews/office/${id}`);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ version_id: versionId, kind: 'docx', truncated: false });
    expect(data.html).toContain('<p>Dear Madam, the &lt;b&gt;numbat&lt;/b&gt; shipment</p>');
    // The original bytes stay out of reach: version-preview of a DOCX needs the download right.
    const original = await get(viewOnly, `/api/version-preview/${versionId}`);
    expect(original.statusCode).toBe(403);
    expect(original.rawPayload.includes(Buffer.from('PK'))).toBe(false);
  }, 120_000);

  it('shows the rows of an XLSX as a table, text escaped', async () => {
    const sheet = workbook(rowXml(1, ['Item', 'Price']) + rowXml(2, ['<script>x</script>', '12']));
    const { id } = await upload('prices.xlsx', sheet, XLSX);
    const res = await get(viewOnly, `/api/previews/office/${id}`);
    expect(res.statusCode).toBe(200);
    const { html, kind } = res.json().data;
    expect(kind).toBe('xlsx');
    expect(html).toContain('<tr><td>Item</td><td>Price</td></tr>');
    expect(html).toContain('<td>&lt;script&gt;x&lt;/script&gt;</td>');
    expect(html).not.toContain('<script>');
  }, 120_000);

  it('refuses a stranger (404) and answers 404 with a reason for a file that is not DOCX or XLSX', async () => {
    const { id } = await upload('memo.docx', docx(['Secret memo']), DOCX);
    expect((await get(outsider, `/api/previews/office/${id}`)).statusCode).toBe(404);
    const { id: pdf } = await upload('plain.pdf', Buffer.from(await typesetPdf(['x'])), 'application/pdf');
    const res = await get(owner, `/api/previews/office/${pdf}`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'preview.no_office_preview' });
  }, 120_000);
});
