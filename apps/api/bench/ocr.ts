// pnpm bench:ocr [--pages N] [--thumbs N] — text recognition, thumbnails and the API's
// answers during recognition, on documents nobody here wrote: the PDFs Debian ships in
// libtasn1-doc and shared-mime-info (`apt-get install libtasn1-doc shared-mime-info`).
//
//  1. Recall: N pages (default 35) with a text layer are rendered to 300-dpi images, put into
//     an image-only PDF (a scan), and read by the real path (ocr-child.mjs through
//     recognizeText: MuPDF renders, Tesseract reads). Word recall of each page against its own
//     text layer; prints the median, seconds a page and the child's peak resident memory.
//  2. A 20-page scan (pages of libtasn1.pdf as images) stored as a new file: seconds until a
//     word found only on page 17 finds it (the search.extract job running in this process,
//     its OCR in the child), and p50/p95 of a search call idle and during that job.
//  3. Thumbnails of N mixed files (default 200: text PDFs, scans, PNG, DOCX, XLSX): time per
//     file and bytes per thumbnail.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as mupdf from 'mupdf';
import { PDFDocument } from 'pdf-lib';
import { emitFileEvent } from '../src/lib/file-events.js';
import { ocrLanguages } from '../src/lib/ocr-languages.js';
import { recognizeText } from '../src/modules/dashboard-and-search/text-recognition.js';
import { deriveVersion } from '../src/modules/preview/preview.service.js';
import { docx } from '../test/documents.js';
import { createCategory, createFile, createUser, loginAs } from '../test/factories.js';
import { scannedImage } from '../test/scans.js';
import { rowXml, workbook } from '../test/xlsx.js';
import { startBenchApp } from './bench-app.js';
import { median, percentile } from './stats.js';

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
};
const PAGES = arg('--pages', 35);
const THUMBS = arg('--thumbs', 200);

const TASN1 = '/usr/share/doc/libtasn1-doc/libtasn1.pdf';
const MIME = '/usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf';
for (const f of [TASN1, MIME])
  if (!existsSync(f)) {
    console.error(`${f} is missing: apt-get install libtasn1-doc shared-mime-info`);
    process.exit(1);
  }

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? [];

/** Pages of `file` with at least 100 words: their text layer and a 300-dpi grey PNG. */
function pagesOf(file: string, count: number, dpi = 300) {
  const doc = mupdf.Document.openDocument(readFileSync(file), 'application/pdf');
  const out: Array<{ label: string; text: string; png: Buffer; width: number; height: number }> = [];
  for (let n = 0; n < doc.countPages() && out.length < count; n++) {
    const page = doc.loadPage(n);
    const text = page.toStructuredText('').asText();
    if (words(text).length < 100) continue;
    const [x0, y0, x1, y1] = page.getBounds();
    const pixmap = page.toPixmap(mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.ColorSpace.DeviceGray, false);
    out.push({
      label: `${path.basename(file)} p${n + 1}`,
      text,
      png: Buffer.from(pixmap.asPNG()),
      width: x1 - x0,
      height: y1 - y0,
    });
  }
  return out;
}

/** An image-only PDF of the pages (each image on a page of its own size): a scan. */
async function scanOf(pages: Array<{ png: Buffer; width: number; height: number }>) {
  const pdf = await PDFDocument.create();
  for (const p of pages) {
    const image = await pdf.embedPng(p.png);
    pdf.addPage([p.width, p.height]).drawImage(image, { x: 0, y: 0, width: p.width, height: p.height });
  }
  return Buffer.from(await pdf.save());
}

/** Recall of `found` against `expected`, as multisets of words. */
function recall(expected: string[], found: string[]) {
  const have = new Map<string, number>();
  for (const w of found) have.set(w, (have.get(w) ?? 0) + 1);
  let hit = 0;
  for (const w of expected) {
    const n = have.get(w) ?? 0;
    if (n > 0) {
      hit += 1;
      have.set(w, n - 1);
    }
  }
  return expected.length ? hit / expected.length : 1;
}

// ---- 1. recall ------------------------------------------------------------------------------

const languages = ocrLanguages('eng');
const half = Math.ceil(PAGES / 2);
const sample = [...pagesOf(TASN1, PAGES - Math.min(half, 15)), ...pagesOf(MIME, Math.min(half, 15))].slice(
  0,
  PAGES,
);
console.info(`1. Recall: ${sample.length} pages of libtasn1.pdf and shared-mime-info-spec.pdf at 300 dpi…`);
const scan = await scanOf(sample);
let peak = 0;
const started = performance.now();
const read = await recognizeText(
  scan,
  { kind: 'pdf', mimeType: 'application/pdf', pages: sample.map((_, i) => i), languages },
  undefined,
  (mb) => {
    peak = mb;
  },
);
const seconds = (performance.now() - started) / 1000;
const recalls = read.map((r) => recall(words(sample[r.page]?.text ?? ''), words(r.text)));
const worst = recalls
  .map((r, i) => [r, sample[i]?.label ?? ''] as const)
  .sort((a, b) => a[0] - b[0])
  .slice(0, 3);
console.info(
  `   word recall: median ${(median(recalls) * 100).toFixed(1)} % over ${recalls.length} pages (lowest: ${worst
    .map(([r, l]) => `${l} ${(r * 100).toFixed(1)} %`)
    .join(', ')})`,
);
console.info(
  `   ${(seconds / sample.length).toFixed(2)} s a page (${seconds.toFixed(1)} s in all, engine start included); child's peak resident memory ${peak.toFixed(0)} MB`,
);

// ---- 2. a 20-page scan, searched while the API answers ---------------------------------------

const bench = await startBenchApp('ocr', { QUIRE_ROLE: 'api' });
try {
  const { db, app } = bench;
  const admin = await createUser(db, { accessType: 'COMPANY ADMIN' });
  const token = await loginAs(app, admin, 'admin');
  const category = (await createCategory(db, { name: 'Scans' })).id;
  const search = (q: string) =>
    app.inject({
      method: 'GET',
      url: `/api/all-search-files?search=${encodeURIComponent(q)}`,
      headers: { authorization: `Bearer ${token}` },
    });

  const twenty = pagesOf(TASN1, 20, 200);
  const elsewhere = new Set(twenty.filter((_, i) => i !== 16).flatMap((p) => words(p.text)));
  const word =
    words(twenty[16]?.text ?? '')
      .filter((w) => /^[a-z]{6,}$/.test(w) && !elsewhere.has(w))
      .sort((a, b) => b.length - a.length)[0] ?? '';
  const timed = async (n: number) => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      await search('asn1');
      out.push(performance.now() - t);
    }
    return out;
  };
  await timed(20); // warm up
  const idle = await timed(200);

  const file = await createFile(db, app.deps.blobs, {
    ownerId: admin.id,
    categoryId: category,
    name: 'scanned-manual.pdf',
    content: await scanOf(twenty),
    mimeType: 'application/pdf',
  });
  const t0 = performance.now();
  await db.$transaction((tx) =>
    emitFileEvent(tx, {
      type: 'uploaded',
      file_id: file.id,
      version_id: file.currentVersionId as number,
      actor_id: admin.id,
    }),
  );
  let done = false;
  const jobs = (async () => {
    while (!done) {
      await app.jobs.runDue();
      const hits = (await search(word)).json().data.items as Array<{
        id: number;
        snippet_page: number | null;
      }>;
      if (hits.some((h) => h.id === file.id)) {
        done = true;
        return hits.find((h) => h.id === file.id)?.snippet_page ?? null;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    return null;
  })();
  const busy: number[] = [];
  while (!done) busy.push(...(await timed(10)));
  const page = await jobs;
  const found = (performance.now() - t0) / 1000;
  console.info(
    `2. A 20-page scan: "${word}" (only on page 17) found after ${found.toFixed(1)} s, on page ${page}`,
  );
  console.info(
    `   search call p50/p95: idle ${percentile(idle, 0.5).toFixed(1)} / ${percentile(idle, 0.95).toFixed(1)} ms (200 calls), during recognition ${percentile(busy, 0.5).toFixed(1)} / ${percentile(busy, 0.95).toFixed(1)} ms (${busy.length} calls)`,
  );

  // ---- 3. thumbnails --------------------------------------------------------------------------

  const kinds: Array<[string, string, () => Promise<Buffer>]> = [
    ['pdf', 'application/pdf', async () => scanOf(pagesOf(MIME, 1, 72))],
    ['pdf', 'application/pdf', async () => readFileSync(MIME)],
    ['png', 'image/png', () => scannedImage('Receipt\nTotal 12.50 EUR')],
    [
      'docx',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      async () => docx(['A letter', 'with two paragraphs']),
    ],
    [
      'xlsx',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      async () => workbook(rowXml(1, ['Item', 'Price']) + rowXml(2, ['Widget', '12']), { sharedStrings: [] }),
    ],
  ];
  const contents = await Promise.all(kinds.map(([, , make]) => make()));
  const versions: number[] = [];
  for (let i = 0; i < THUMBS; i++) {
    const k = i % kinds.length;
    const [ext, mimeType] = kinds[k] as [string, string, unknown];
    const f = await createFile(db, app.deps.blobs, {
      ownerId: admin.id,
      categoryId: category,
      name: `mixed-${i}.${ext}`,
      content: contents[k] as Buffer,
      mimeType,
    });
    versions.push(f.currentVersionId as number);
  }
  const t1 = performance.now();
  for (const v of versions) await deriveVersion(app.deps, v);
  const perFile = (performance.now() - t1) / versions.length;
  const made = await db.versionDerivative.findMany({
    where: { versionId: { in: versions }, kind: 'thumbnail' },
    select: { blob: { select: { size: true } }, error: true },
  });
  const sizes = made.flatMap((m) => (m.blob ? [Number(m.blob.size)] : []));
  console.info(
    `3. Thumbnails of ${versions.length} mixed files: ${perFile.toFixed(0)} ms a file (child process included), ${sizes.length} made, bytes median ${median(sizes)} / max ${Math.max(...sizes)}; ${made.length - sizes.length} not made (${[...new Set(made.flatMap((m) => (m.error ? [m.error.slice(0, 60)] : [])))].join('; ')})`,
  );
} finally {
  await bench.close();
}
