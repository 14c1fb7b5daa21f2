import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs } from '../../../test/access.js';
import type { TestContext } from '../../../test/app.js';
import { pixelBombPng, scannedImage, scannedPdfOf, typesetPdf } from '../../../test/scans.js';
import { seededApp, uploadedFile } from '../../../test/seed.js';
import { joinPages } from './extraction.service.js';

// Text recognition (OCR) on scans made in the test: text set in Helvetica and rendered to
// pixels, so nothing but the image holds the words. Runs the real engine (tesseract.js with
// the installed English data) in its child process.

let t: TestContext;
let editor: { id: number; token: string };
let viewer: { id: number; token: string };
let outsider: { id: number; token: string };
let category: number;

const as = (who: { token: string } | null, opts: InjectOptions) => callAs(t, who?.token ?? null, opts);
const get = (who: { token: string } | null, url: string) => as(who, { method: 'GET', url });

const upload = async (name: string, content: Buffer, mimeType: string) =>
  (await uploadedFile(t, { ownerId: editor.id, categoryId: category, name, content, mimeType })).id;

const found = async (who: { token: string }, word: string) =>
  (await get(who, `/api/all-search-files?search=${word}`)).json().data.items as Array<{
    id: number;
    snippet_html: string | null;
    snippet_page: number | null;
  }>;

beforeAll(async () => {
  const person = (firstName: string) => ({ firstName, lastName: 'Reader' });
  const world = await seededApp({
    users: { editor: person('Edda'), viewer: person('Vic'), outsider: person('Otto') },
    categories: { scans: { name: 'Scans', grants: { editor: ['upload', 'edit'], viewer: [] } } },
  });
  ({
    t,
    users: { editor, viewer, outsider },
  } = world);
  category = world.categories.scans.id;
});
afterAll(() => t.close());

describe('text recognition after upload', () => {
  it('reads a scanned invoice image: found by a word printed on it, and the file page says recognition ran', async () => {
    const png = await scannedImage('INVOICE 4711\nPellegrino Plumbing Ltd\nTotal due 1250 EUR');
    const id = await upload('scan-invoice.png', png, 'image/png');
    const hits = await found(viewer, 'pellegrino');
    expect(hits.map((h) => h.id)).toEqual([id]);
    expect(hits[0]?.snippet_html).toMatch(/<mark>Pellegrino<\/mark>/i);
    const status = (await get(viewer, `/api/search/text-status/${id}`)).json().data;
    expect(status).toMatchObject({
      status: 'done',
      recognisable: true,
      recognition: { pages: 1, languages: 'eng' },
    });
    const audit = await t.db.auditEvent.findFirstOrThrow({
      where: { action: 'file.text_extracted', targetId: String(id) },
    });
    expect(audit.message).toMatch(/recognised on 1 page/);
  }, 120_000);

  it('reads the pages of an image-only PDF: a word from page 2 is found and names its page', async () => {
    const pdf = await scannedPdfOf([
      'Delivery note one\nnothing special here',
      'Second sheet lists\nthe platypus order',
      'Third page closes\nwith a signature',
    ]);
    const id = await upload('scanned-delivery.pdf', pdf, 'application/pdf');
    const hits = await found(viewer, 'platypus');
    expect(hits.map((h) => h.id)).toEqual([id]);
    expect(hits[0]?.snippet_page).toBe(2);
    expect((await found(viewer, 'signature'))[0]?.snippet_page).toBe(3);
    const status = (await get(viewer, `/api/search/text-status/${id}`)).json().data;
    expect(status.recognition).toMatchObject({ pages: 3 });

    // Where the word is on page 2, for the preview to mark it: one box, inside the page,
    // on its second line; none on page 1; every word asked for is marked.
    const marks = (page: number, words: string) =>
      get(viewer, `/api/search/text-marks/${id}?page=${page}&words=${encodeURIComponent(words)}`);
    const onTwo = (await marks(2, 'platypus')).json().data;
    expect(onTwo).toMatchObject({ page: 2, recognised: true, words: ['platypus'] });
    expect(onTwo.marks).toHaveLength(1);
    const box = onTwo.marks[0];
    expect(box.x).toBeGreaterThan(0);
    expect(box.x + box.width).toBeLessThan(1);
    expect(box.width).toBeGreaterThan(box.height); // a word, wider than tall
    const line = (await marks(2, 'Second')).json().data.marks[0];
    expect(box.y).toBeGreaterThan(line.y + line.height / 2); // below the first line
    expect((await marks(1, 'platypus')).json().data.marks).toEqual([]);
    expect((await marks(2, 'PLATYPUS, order!')).json().data.marks).toHaveLength(2);
    // The word boxes are derived content of the version, not a version.
    expect(await t.db.fileVersion.count({ where: { fileId: id } })).toBe(1);
    expect(
      await t.db.versionDerivative.count({
        where: { version: { fileId: id }, mimeType: 'application/vnd.quire.word-boxes+json' },
      }),
    ).toBe(1);

    // Only for whoever may view the file; a bad page or no words is refused, naming the field.
    expect((await get(outsider, `/api/search/text-marks/${id}?page=2&words=platypus`)).statusCode).toBe(404);
    expect((await get(null, `/api/search/text-marks/${id}?page=2&words=platypus`)).statusCode).toBe(401);
    const badPage = await get(viewer, `/api/search/text-marks/${id}?page=0&words=platypus`);
    expect(badPage.statusCode).toBe(400);
    expect(JSON.stringify(badPage.json().errors)).toContain('page');
    const noWords = await get(viewer, `/api/search/text-marks/${id}?page=2`);
    expect(noWords.statusCode).toBe(400);
    expect(JSON.stringify(noWords.json().errors)).toContain('words');
  }, 180_000);

  it('names the page of a word in a PDF with a text layer too, without recognising anything', async () => {
    const pdf = Buffer.from(await typesetPdf(['First page of the report', 'A wallaby on page two']));
    const id = await upload('report.pdf', pdf, 'application/pdf');
    const hits = await found(viewer, 'wallaby');
    expect(hits.map((h) => [h.id, h.snippet_page])).toEqual([[id, 2]]);
    expect((await get(viewer, `/api/search/text-status/${id}`)).json().data.recognition).toBeNull();
    // No word boxes: the browser marks the word from the text layer.
    const marks = (await get(viewer, `/api/search/text-marks/${id}?page=2&words=wallaby`)).json().data;
    expect(marks).toMatchObject({ recognised: false, marks: [] });
  }, 60_000);

  it('refuses a pixel bomb from its header, without decoding it, and the API keeps answering', async () => {
    const bomb = pixelBombPng(12_000, 12_000);
    const started = Date.now();
    const running = upload('bomb.png', bomb, 'image/png');
    // While the job runs, other calls are answered.
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    const id = await running;
    expect(Date.now() - started).toBeLessThan(60_000);
    const status = (await get(viewer, `/api/search/text-status/${id}`)).json().data;
    expect(status.status).toBe('failed');
    expect(status.error).toMatch(/12000 x 12000 pixels, more than the 40 megapixels/);
  }, 90_000);
});

describe('POST /api/search/text-recognition/{id} (run it again)', () => {
  it('lets an editor run recognition again: pending at once, audited, then read by the job', async () => {
    const id = await upload('again.png', await scannedImage('Kookaburra receipt'), 'image/png');
    const res = await as(editor, { method: 'POST', url: `/api/search/text-recognition/${id}` });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.status).toBe('pending');
    expect(
      await t.db.auditEvent.count({
        where: { action: 'file.text_recognition_requested', targetId: String(id), userId: editor.id },
      }),
    ).toBe(1);
    await t.app.jobs.runDue();
    expect((await get(editor, `/api/search/text-status/${id}`)).json().data.status).toBe('done');
    expect((await found(editor, 'kookaburra')).map((h) => h.id)).toEqual([id]);
    // The image's word boxes were made again, in place of the first ones (one row), and mark it.
    const boxes = () =>
      t.db.versionDerivative.findMany({
        where: { version: { fileId: id }, mimeType: 'application/vnd.quire.word-boxes+json' },
      });
    expect(await boxes()).toHaveLength(1);
    const marks = (await get(editor, `/api/search/text-marks/${id}?words=kookaburra`)).json().data;
    expect(marks).toMatchObject({ page: 1, recognised: true });
    expect(marks.marks).toHaveLength(1);
  }, 120_000);

  it('refuses a viewer (403, audited), a stranger (404) and a file that is not an image or a PDF (409)', async () => {
    const text = await upload('plain.txt', Buffer.from('just words'), 'text/plain');
    const before = await t.db.job.count({ where: { kind: 'search.recognize' } });
    const denied = await as(viewer, { method: 'POST', url: `/api/search/text-recognition/${text}` });
    expect(denied.statusCode).toBe(403);
    expect(await t.db.auditEvent.count({ where: { action: 'access.denied', userId: viewer.id } })).toBe(1);
    const hidden = await as(outsider, { method: 'POST', url: `/api/search/text-recognition/${text}` });
    expect(hidden.statusCode).toBe(404);
    const wrongType = await as(editor, { method: 'POST', url: `/api/search/text-recognition/${text}` });
    expect(wrongType.statusCode).toBe(409);
    expect(wrongType.json().code).toBe('search.not_recognisable');
    expect(await t.db.job.count({ where: { kind: 'search.recognize' } })).toBe(before);
    const bad = await as(editor, { method: 'POST', url: '/api/search/text-recognition/abc' });
    expect(bad.statusCode).toBe(400);
  });
});

describe('joinPages', () => {
  it('records where each page starts, in characters as PostgreSQL counts them', () => {
    expect(joinPages(['ab', '', 'c😀d', 'e'], 100)).toEqual({
      text: 'ab\n\nc😀d\ne',
      truncated: false,
      pageStarts: [0, 3, 4, 8],
    });
    expect(joinPages(['abcdef', 'ghij'], 8)).toEqual({
      text: 'abcdef\ng',
      truncated: true,
      pageStarts: [0, 7],
    });
  });
});
