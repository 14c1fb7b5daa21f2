// Text recognition (OCR), run in a child process of its own (text-recognition.ts runs it
// through lib/child-task.ts with a heap, a resident-memory and a time limit): a hostile image
// can exhaust only this process. Offline: pages are rendered by MuPDF (WebAssembly, `mupdf`),
// text is recognised by Tesseract (WebAssembly, `tesseract.js`) with trained data read from
// the installed @tesseract.js-data packages; nothing is fetched.
//
// In: one IPC message { bytes, kind: 'image' | 'pdf', mime, pages (0-based pages of a PDF to
// read), languages: [{ code, file }], dpi, maxPixels }.
// Out: one IPC message { pages: [{ page, text, words }] } or { error }, then exit; `words`
// are Tesseract's word boxes, [x, y, width, height, word] in ten-thousandths of the page
// (so they scale to however large the page is shown), for marking a search's words.
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { webpSize } from '../../lib/webp-size.mjs';
import { cleanText } from './clean-text.mjs';

const input = await new Promise((resolve) => process.once('message', resolve));
const { kind, mime, pages, languages, dpi, maxPixels } = input;
const bytes = new Uint8Array(input.bytes);

function tooManyPixels(width, height) {
  return new Error(
    `The image is ${width} x ${height} pixels, more than the ${Math.round(maxPixels / 1e6)} megapixels text recognition reads`,
  );
}

/** The images to recognise, each as encoded bytes tesseract reads (PNG, or the WebP itself), with its size. */
async function* images(mupdf) {
  if (kind === 'image' && mime === 'image/webp') {
    const size = webpSize(bytes);
    if (!size) throw new Error('The WebP header could not be read');
    if (size.width * size.height > maxPixels) throw tooManyPixels(size.width, size.height);
    yield { page: 0, image: Buffer.from(bytes), ...size };
    return;
  }
  // A PDF page at `dpi`; an image at its own size (MuPDF lays its page out at its resolution).
  let nativeScale = dpi / 72;
  if (kind === 'image') {
    // The header only: MuPDF decodes an image when it is drawn, not when it is opened.
    const image = new mupdf.Image(bytes);
    const width = image.getWidth();
    const height = image.getHeight();
    nativeScale = (image.getXResolution() || 72) / 72;
    image.destroy();
    if (width * height > maxPixels) throw tooManyPixels(width, height);
  }
  const doc = mupdf.Document.openDocument(bytes, kind === 'pdf' ? 'application/pdf' : mime);
  const wanted = kind === 'pdf' ? pages : [0];
  for (const n of wanted) {
    if (n >= doc.countPages()) continue;
    const page = doc.loadPage(n);
    const [x0, y0, x1, y1] = page.getBounds();
    const area = Math.max(1, (x1 - x0) * (y1 - y0));
    const scale = Math.min(nativeScale, Math.sqrt(maxPixels / area));
    const pixmap = page.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceGray, false);
    const png = Buffer.from(pixmap.asPNG());
    const size = { width: pixmap.getWidth(), height: pixmap.getHeight() };
    pixmap.destroy();
    page.destroy();
    yield { page: n, image: png, ...size };
  }
  doc.destroy();
}

/** The words of Tesseract's TSV (level 5 rows), boxed in ten-thousandths of a width x height image. */
function wordBoxes(tsv, width, height) {
  const out = [];
  for (const line of tsv.split('\n')) {
    const c = line.split('\t');
    if (c[0] !== '5' || c.length < 12) continue;
    const word = c.slice(11).join('\t').trim();
    if (!word) continue;
    const [left, top, w, h] = c.slice(6, 10).map(Number);
    const x = (v) => Math.round((v / width) * 10_000);
    const y = (v) => Math.round((v / height) * 10_000);
    out.push([x(left), y(top), x(w), y(h), word]);
  }
  return out;
}

async function main() {
  const mupdf = await import('mupdf');
  const { createWorker, OEM } = await import('tesseract.js');
  // Tesseract reads every language from one folder: links to the installed packages' files.
  const dir = await mkdtemp(path.join(tmpdir(), 'quire-ocr-'));
  try {
    for (const l of languages) await symlink(l.file, path.join(dir, `${l.code}.traineddata.gz`));
    const worker = await createWorker(languages.map((l) => l.code).join('+'), OEM.LSTM_ONLY, {
      langPath: dir,
      gzip: true,
      cacheMethod: 'none',
      cachePath: dir,
    });
    try {
      const out = [];
      for await (const { page, image, width, height } of images(mupdf)) {
        const { data } = await worker.recognize(image, {}, { text: true, tsv: true });
        out.push({ page, text: cleanText(data.text ?? ''), words: wordBoxes(data.tsv ?? '', width, height) });
      }
      return { pages: out };
    } finally {
      await worker.terminate();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

try {
  const result = await main();
  process.send(result, () => process.exit(0));
} catch (err) {
  process.send({ error: err instanceof Error ? err.message : String(err) }, () => process.exit(0));
}
