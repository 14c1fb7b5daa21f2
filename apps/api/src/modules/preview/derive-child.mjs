// Thumbnails and Office previews, made in a child process of its own (preview.derive.ts runs
// it through lib/child-task.ts with a heap, a resident-memory and a time limit): a hostile
// file can exhaust only this process.
//   thumbnail  the first page of a PDF, an image (PNG, JPEG, TIFF), a DOCX or an XLSX drawn
//              by MuPDF (WebAssembly, `mupdf`) at most `size` pixels wide and high, written as
//              WebP by libwebp (WebAssembly, `@jsquash/webp`; about half the bytes of a PNG);
//              (a WebP image is decoded and scaled by libwebp and this file, MuPDF not reading
//              it); an image declaring more than `maxPixels` is refused from its header, undecoded
//   preview    a DOCX as HTML (mammoth: headings, paragraphs, lists, tables; no images) or
//              the first sheets of an XLSX as tables (exceljs' streaming reader), cut at
//              `maxHtml` characters, every text escaped
//
// In: one IPC message { bytes, mime, thumbnail: boolean, preview: 'docx' | 'xlsx' | null,
// size, maxPixels, maxHtml, maxRows, maxColumns }.
// Out: one IPC message { thumbnail?: { webp, width, height } | { error },
// preview?: { html, truncated } | { error } }, then exit.
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { webpSize } from '../../lib/webp-size.mjs';

const input = await new Promise((resolve) => process.once('message', resolve));
const bytes = new Uint8Array(input.bytes);
const { mime, size, maxPixels, maxHtml, maxRows, maxColumns } = input;

const message = (err) => (err instanceof Error ? err.message : String(err));

/** A WebAssembly module of @jsquash/webp, read from the installed package (never fetched). */
async function wasmOf(file) {
  return WebAssembly.compile(
    await readFile(fileURLToPath(import.meta.resolve(`@jsquash/webp/codec/${file}`))),
  );
}

/** WebP (quality 80) of RGBA pixels: libwebp's encoder. */
async function encodeWebp(image) {
  const { default: encode, init } = await import('@jsquash/webp/encode.js');
  // The SIMD build, which `init` picks on Node 24 (WebAssembly SIMD is always there).
  await init(await wasmOf('enc/webp_enc_simd.wasm'));
  return new Uint8Array(await encode(image, { quality: 80 }));
}

/** WebP of an RGB pixmap of MuPDF. */
async function webpOf(pixmap) {
  const width = pixmap.getWidth();
  const height = pixmap.getHeight();
  const rgb = pixmap.getPixels();
  const rgba = new Uint8ClampedArray(width * height * 4);
  for (let i = 0, j = 0; i < width * height; i++, j += 3) {
    rgba[i * 4] = rgb[j];
    rgba[i * 4 + 1] = rgb[j + 1];
    rgba[i * 4 + 2] = rgb[j + 2];
    rgba[i * 4 + 3] = 255;
  }
  return encodeWebp({ data: rgba, width, height });
}

/**
 * An uploaded WebP (MuPDF does not read WebP): its size checked from the header, decoded by
 * libwebp, scaled down to `size` by averaging each output pixel's source box, alpha laid on
 * white, written as WebP again.
 */
async function webpThumbnail() {
  const declared = webpSize(bytes);
  if (!declared) throw new Error('The WebP header could not be read');
  if (declared.width * declared.height > maxPixels) throw tooManyPixels(declared.width, declared.height);
  const { default: decode, init } = await import('@jsquash/webp/decode.js');
  await init(await wasmOf('dec/webp_dec.wasm'));
  const source = await decode(bytes.slice().buffer);
  const scale = Math.min(1, size / Math.max(source.width, source.height));
  const width = Math.max(1, Math.round(source.width * scale));
  const height = Math.max(1, Math.round(source.height * scale));
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    const y0 = Math.floor((y * source.height) / height);
    const y1 = Math.max(y0 + 1, Math.floor(((y + 1) * source.height) / height));
    for (let x = 0; x < width; x++) {
      const x0 = Math.floor((x * source.width) / width);
      const x1 = Math.max(x0 + 1, Math.floor(((x + 1) * source.width) / width));
      let r = 0;
      let g = 0;
      let b = 0;
      let n = 0;
      for (let sy = y0; sy < y1; sy++)
        for (let sx = x0; sx < x1; sx++) {
          const i = (sy * source.width + sx) * 4;
          const a = source.data[i + 3] / 255;
          r += source.data[i] * a + 255 * (1 - a);
          g += source.data[i + 1] * a + 255 * (1 - a);
          b += source.data[i + 2] * a + 255 * (1 - a);
          n += 1;
        }
      const o = (y * width + x) * 4;
      data[o] = r / n;
      data[o + 1] = g / n;
      data[o + 2] = b / n;
      data[o + 3] = 255;
    }
  }
  return { webp: await encodeWebp({ data, width, height }), width, height };
}

function tooManyPixels(width, height) {
  return new Error(
    `The image is ${width} x ${height} pixels, more than the ${Math.round(maxPixels / 1e6)} megapixels a thumbnail is made from`,
  );
}

async function thumbnail() {
  if (mime === 'image/webp') return webpThumbnail();
  const mupdf = await import('mupdf');
  if (mime.startsWith('image/')) {
    // The header only: MuPDF decodes an image when it is drawn, not when it is opened.
    const image = new mupdf.Image(bytes);
    const width = image.getWidth();
    const height = image.getHeight();
    image.destroy();
    if (width * height > maxPixels) throw tooManyPixels(width, height);
  }
  const doc = mupdf.Document.openDocument(bytes, mime);
  if (doc.countPages() < 1) throw new Error('The document has no page');
  const page = doc.loadPage(0);
  const [x0, y0, x1, y1] = page.getBounds();
  const scale = Math.min(size / Math.max(1, x1 - x0), size / Math.max(1, y1 - y0));
  const pixmap = page.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceRGB, false);
  const out = { webp: await webpOf(pixmap), width: pixmap.getWidth(), height: pixmap.getHeight() };
  pixmap.destroy();
  page.destroy();
  doc.destroy();
  return out;
}

const escapeHtml = (s) =>
  String(s).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
  );

/** HTML pieces up to maxHtml characters; `full` once reached. */
function html() {
  const parts = [];
  let length = 0;
  let truncated = false;
  return {
    get full() {
      return truncated;
    },
    add(piece) {
      if (truncated) return;
      if (length + piece.length > maxHtml) {
        truncated = true;
        return;
      }
      parts.push(piece);
      length += piece.length;
    },
    done: () => ({ html: parts.join(''), truncated }),
  };
}

async function docx() {
  const mammoth = (await import('mammoth')).default;
  const { value } = await mammoth.convertToHtml(
    { buffer: Buffer.from(bytes) },
    // No images (they would be data: URLs of any size) and no external links followed.
    { convertImage: mammoth.images.imgElement(() => ({ src: '' })), ignoreEmptyParagraphs: true },
  );
  // mammoth writes only the elements it knows, with text escaped; links keep their target,
  // which the page shows inert (a sandboxed frame without scripts). Images are dropped.
  const out = html();
  out.add(value.replace(/<img[^>]*>/g, ''));
  return out.done();
}

async function xlsx() {
  const ExcelJS = (await import('exceljs')).default;
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([Buffer.from(bytes)]), {
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    worksheets: 'emit',
  });
  const out = html();
  let sheets = 0;
  for await (const sheet of reader) {
    sheets += 1;
    if (sheets > 5 || out.full) break;
    out.add(`<h2>${escapeHtml(sheet.name ?? `Sheet ${sheets}`)}</h2><table><tbody>`);
    let rows = 0;
    for await (const row of sheet) {
      rows += 1;
      if (rows > maxRows || out.full) break;
      const cells = [];
      row.eachCell({ includeEmpty: true }, (cell, col) => {
        if (col > maxColumns) return;
        const v = cell.value;
        let text = '';
        if (v === null || v === undefined) text = '';
        else if (v instanceof Date) text = v.toISOString().slice(0, 10);
        else if (typeof v === 'object') {
          if ('richText' in v) text = v.richText.map((r) => r.text).join('');
          else if ('text' in v) text = String(v.text);
          else if ('result' in v && v.result !== undefined) text = String(v.result);
          else if ('formula' in v) text = `=${v.formula}`;
        } else text = String(v);
        cells[col - 1] = `<td>${escapeHtml(text)}</td>`;
      });
      out.add(`<tr>${Array.from(cells, (c) => c ?? '<td></td>').join('')}</tr>`);
    }
    out.add('</tbody></table>');
  }
  return out.done();
}

const result = {};
if (input.thumbnail) {
  try {
    result.thumbnail = await thumbnail();
  } catch (err) {
    result.thumbnail = { error: message(err) };
  }
}
if (input.preview) {
  try {
    result.preview = await (input.preview === 'docx' ? docx() : xlsx());
  } catch (err) {
    result.preview = { error: message(err) };
  }
}
process.send(result, () => process.exit(0));
