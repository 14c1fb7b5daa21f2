import type { InjectOptions } from 'fastify';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { callAs } from '../../../test/access.js';
import type { TestContext } from '../../../test/app.js';
import { textPdf } from '../../../test/documents.js';
import { createFile } from '../../../test/factories.js';
import { tinyPng } from '../../../test/multipart.js';
import { type SeededUser, seed, seededApp } from '../../../test/seed.js';
import { written, writtenSince } from '../../../test/written.js';

// The calls on many files at once: move, follow, zip and PDF download. Each checks every file's
// right, and one refused file (named) changes nothing; refusals are audited.

let t: TestContext;
const u = { alice: 0, bob: 0 };
const tok = { alice: '', bob: '', auditor: '' };
let cat = 0;
let target = 0;
let viewOnly = 0;
let secret = 0;
let aliceSeeded: SeededUser;

beforeAll(async () => {
  const write = ['upload', 'edit', 'delete'] as const;
  const world = await seededApp({
    users: {
      alice: { firstName: 'Alice', lastName: 'Able' },
      bob: { firstName: 'Bob', lastName: 'Baker' },
      auditor: { accessType: 'Auditor' },
    },
    categories: {
      cat: { grants: { alice: [...write], bob: [...write] } },
      target: { grants: { alice: [...write], bob: [...write] } },
      // Alice may only view here; nothing at all in the secret one.
      viewOnly: { grants: { alice: [], bob: [...write] } },
      secret: { grants: { bob: [...write] } },
    },
  });
  t = world.t;
  const { alice, bob, auditor } = world.users;
  aliceSeeded = alice;
  Object.assign(u, { alice: alice.id, bob: bob.id });
  Object.assign(tok, { alice: alice.token, bob: bob.token, auditor: auditor.token });
  cat = world.categories.cat.id;
  target = world.categories.target.id;
  viewOnly = world.categories.viewOnly.id;
  secret = world.categories.secret.id;
});
afterAll(() => t.close());

const call = (token: string | null, opts: InjectOptions) => callAs(t, token, opts);
const post = (token: string | null, url: string, payload: unknown) =>
  call(token, { method: 'POST', url, payload: payload as object });
const fileIn = (categoryId: number, name?: string, content?: string) =>
  createFile(t.db, t.app.deps.blobs, {
    ownerId: u.bob,
    categoryId,
    name,
    content: content === undefined ? undefined : Buffer.from(content),
  });
const categoriesOf = async (ids: number[]) =>
  (await t.db.file.findMany({ where: { id: { in: ids } }, orderBy: { id: 'asc' } })).map((f) => f.categoryId);
const auditCount = (action: string) => t.db.auditEvent.count({ where: { action } });

describe('POST /api/files/bulk-move', () => {
  it('moves every file, each with its own audit event', async () => {
    const a = await fileIn(cat);
    const b = await fileIn(cat);
    const before = await auditCount('file.moved');
    const res = await post(tok.alice, '/api/files/bulk-move', { file_ids: [a.id, b.id], folder_id: target });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: '2 files moved', data: { moved: 2 } });
    expect(await categoriesOf([a.id, b.id])).toEqual([target, target]);
    expect(await auditCount('file.moved')).toBe(before + 2);
  });

  it('numbers the moved files in turn there, audits each and sends each its moved event', async () => {
    const files = [await fileIn(cat), await fileIn(target), await fileIn(cat)];
    const [a, there, c] = files as [(typeof files)[number], (typeof files)[number], (typeof files)[number]];
    const numbers = async () =>
      new Map(
        (await t.db.file.findMany({ where: { id: { in: files.map((f) => f.id) } } })).map((f) => [
          f.id,
          f.incrementalValue,
        ]),
      );
    const was = await numbers();
    const next = (await t.db.category.findUniqueOrThrow({ where: { id: target } })).nextIncremental;
    const mark = await written(t);
    const res = await post(tok.alice, '/api/files/bulk-move', {
      file_ids: [c.id, there.id, a.id],
      folder_id: target,
    });
    expect(res.json().data).toEqual({ moved: 3 });
    const now = await numbers();
    expect([now.get(a.id), now.get(there.id), now.get(c.id)]).toEqual([next, was.get(there.id), next + 1]);
    const after = await writtenSince(t, mark);
    expect(after.audit).toEqual(
      [a, c].map((f) => ({
        userId: u.alice,
        type: 'file',
        action: 'file.moved',
        message: `Moved "${f.name}" to another category`,
        targetType: 'file',
        targetId: String(f.id),
        details: {
          before: { folder_id: cat, incremental_value: was.get(f.id) },
          after: { folder_id: target, incremental_value: now.get(f.id) },
          dropped_fields: [],
        },
      })),
    );
    expect(after.jobs).toEqual(
      [a, c].flatMap((f) =>
        ['notification.file_event', 'workflow.file_event'].map((kind) => ({
          kind,
          payload: { type: 'moved', file_id: f.id, field_ids: [], category_id: target, actor_id: u.alice },
        })),
      ),
    );
  });

  it("drops the values of fields the new category lacks, each file's own, and says which", async () => {
    const write = ['upload', 'edit', 'delete'] as const;
    const world = await seed(t, {
      users: { alice: aliceSeeded },
      fields: { amount: { type: 'number' }, note: { type: 'text' } },
      categories: {
        from: { grants: { alice: [...write] }, fields: ['amount', 'note'] },
        to: { grants: { alice: [...write] }, fields: ['note'] },
      },
      files: { x: { owner: 'alice', category: 'from' }, y: { owner: 'alice', category: 'from' } },
    });
    const { amount, note } = world.fields;
    const { x, y } = world.files;
    const edit = await post(tok.alice, '/api/edit-file-user-field', {
      file_id: x.id,
      values: [
        { field_id: amount.id, value: 7 },
        { field_id: note.id, value: 'kept' },
      ],
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const mark = await written(t);
    const res = await post(tok.alice, '/api/files/bulk-move', {
      file_ids: [y.id, x.id],
      folder_id: world.categories.to.id,
    });
    expect(res.statusCode, res.body).toBe(200);
    const values = await t.db.fileFieldValue.findMany({
      where: { fileId: { in: [x.id, y.id] } },
      select: { fileId: true, fieldId: true, valueText: true },
    });
    expect(values).toEqual([{ fileId: x.id, fieldId: note.id, valueText: 'kept' }]);
    const after = await writtenSince(t, mark);
    expect(
      after.audit.map((e) => [e.targetId, (e.details as { dropped_fields: number[] }).dropped_fields]),
    ).toEqual([
      [String(x.id), [amount.id]],
      [String(y.id), []],
    ]);
    expect(
      after.jobs.map((j) => [
        j.kind,
        (j.payload as { file_id: number; field_ids: number[] }).file_id,
        (j.payload as { field_ids: number[] }).field_ids,
      ]),
    ).toEqual([
      ['notification.file_event', x.id, [amount.id]],
      ['workflow.file_event', x.id, [amount.id]],
      ['notification.file_event', y.id, []],
      ['workflow.file_event', y.id, []],
    ]);
  });

  it('refuses bad input with 400 naming the field, and moves nothing', async () => {
    const a = await fileIn(cat);
    for (const payload of [
      { file_ids: [], folder_id: target },
      { file_ids: [a.id] },
      { file_ids: ['x'], folder_id: target },
    ]) {
      const res = await post(tok.alice, '/api/files/bulk-move', payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().errors[0].path).toMatch(/^body\.(file_ids|folder_id)/);
    }
    expect(await categoriesOf([a.id])).toEqual([cat]);
  });

  it('refuses the whole list when one file may not be moved (403 naming it), audited', async () => {
    const mine = await fileIn(cat);
    const theirs = await fileIn(viewOnly, 'board-minutes.txt');
    const denied = await t.db.auditEvent.count({ where: { action: 'access.denied' } });
    const moved = await auditCount('file.moved');
    const res = await post(tok.alice, '/api/files/bulk-move', {
      file_ids: [mine.id, theirs.id],
      folder_id: target,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toContain('"board-minutes.txt"');
    expect(await categoriesOf([mine.id, theirs.id])).toEqual([cat, viewOnly]);
    expect(await auditCount('file.moved')).toBe(moved);
    expect(await t.db.auditEvent.count({ where: { action: 'access.denied' } })).toBe(denied + 1);
  });

  it('answers 404 without a name for a file out of sight, 401 signed out, 403 without upload there', async () => {
    const mine = await fileIn(cat);
    const hidden = await fileIn(secret, 'secret-plan.txt');
    const res = await post(tok.alice, '/api/files/bulk-move', {
      file_ids: [mine.id, hidden.id],
      folder_id: target,
    });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('secret-plan');
    expect(await categoriesOf([mine.id])).toEqual([cat]);
    expect(
      (await post(null, '/api/files/bulk-move', { file_ids: [mine.id], folder_id: target })).statusCode,
    ).toBe(401);
    expect(
      (await post(tok.alice, '/api/files/bulk-move', { file_ids: [mine.id], folder_id: viewOnly }))
        .statusCode,
    ).toBe(403);
    expect(
      (await post(tok.auditor, '/api/files/bulk-move', { file_ids: [mine.id], folder_id: target }))
        .statusCode,
    ).toBe(403);
    expect(await categoriesOf([mine.id])).toEqual([cat]);
  });

  it('refuses the list when someone else holds one file (409 naming it)', async () => {
    const a = await fileIn(cat);
    const held = await fileIn(cat, 'held.txt');
    await t.db.file.update({ where: { id: held.id }, data: { lockedById: u.bob, lockedAt: new Date() } });
    const res = await post(tok.alice, '/api/files/bulk-move', {
      file_ids: [a.id, held.id],
      folder_id: target,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/^"held\.txt": .*locked/);
    expect(await categoriesOf([a.id, held.id])).toEqual([cat, cat]);
  });
});

describe('POST /api/files/bulk-follow', () => {
  const followers = (ids: number[]) =>
    t.db.fileFollow.count({ where: { fileId: { in: ids }, userId: u.alice } });

  it('follows every file (view is enough), audited once per file newly followed', async () => {
    const a = await fileIn(viewOnly);
    const b = await fileIn(cat);
    const c = await fileIn(cat);
    await post(tok.alice, '/api/follow', { file_id: b.id });
    const mark = await written(t);
    const res = await post(tok.alice, '/api/files/bulk-follow', { file_ids: [c.id, a.id, b.id] });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ followed: 2 });
    expect(await followers([a.id, b.id, c.id])).toBe(3);
    expect((await writtenSince(t, mark)).audit).toEqual(
      [a, c].map((f) => ({
        userId: u.alice,
        type: 'file',
        action: 'file.followed',
        message: `Followed "${f.name}"`,
        targetType: 'file',
        targetId: String(f.id),
        details: null,
      })),
    );
  });

  it('follows nothing when one file is out of sight (404), or on bad input (400)', async () => {
    const a = await fileIn(cat);
    const hidden = await fileIn(secret);
    expect(
      (await post(tok.alice, '/api/files/bulk-follow', { file_ids: [a.id, hidden.id] })).statusCode,
    ).toBe(404);
    expect((await post(tok.alice, '/api/files/bulk-follow', { file_ids: 'all' })).statusCode).toBe(400);
    expect((await post(null, '/api/files/bulk-follow', { file_ids: [a.id] })).statusCode).toBe(401);
    expect(await followers([a.id])).toBe(0);
  });
});

/** The entries of a zip: name -> content. */
function unzip(body: Buffer): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(body, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const out = new Map<string, string>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            out.set(entry.fileName, Buffer.concat(chunks).toString('utf8'));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(out));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

describe('POST /api/files/download-zip', () => {
  it('streams the current version of each file in one zip (same names kept apart), each download audited', async () => {
    const a = await fileIn(cat, 'report.txt', 'first report\n');
    const b = await fileIn(viewOnly, 'report.txt', 'second report\n');
    const mark = await written(t);
    const res = await post(tok.alice, '/api/files/download-zip', { file_ids: [b.id, a.id] });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename=.*\.zip/);
    const entries = await unzip(res.rawPayload);
    expect(Object.fromEntries(entries)).toEqual({
      'report.txt': 'second report\n',
      'report (2).txt': 'first report\n',
    });
    expect((await writtenSince(t, mark)).audit).toEqual(
      [b, a].map((f) => ({
        userId: u.alice,
        type: 'file',
        action: 'file.downloaded',
        message: `Downloaded version 1 of "report.txt" (in a zip of 2)`,
        targetType: 'file',
        targetId: String(f.id),
        details: { version_id: f.currentVersionId, zip: true },
      })),
    );
  });

  it('refuses the whole zip when one file may not be downloaded (403 naming it), and writes nothing', async () => {
    const a = await fileIn(cat);
    const noDownload = await fileIn(cat, 'view-only.txt');
    await t.db.file.update({ where: { id: noDownload.id }, data: { hasOwnPermissions: true } });
    await t.db.filePermission.create({ data: { fileId: noDownload.id, userId: u.alice, canView: true } });
    const before = await auditCount('file.downloaded');
    const res = await post(tok.alice, '/api/files/download-zip', { file_ids: [a.id, noDownload.id] });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toContain('"view-only.txt"');
    expect(await auditCount('file.downloaded')).toBe(before);
    const hidden = await fileIn(secret);
    expect(
      (await post(tok.alice, '/api/files/download-zip', { file_ids: [a.id, hidden.id] })).statusCode,
    ).toBe(404);
    expect((await post(tok.alice, '/api/files/download-zip', { file_ids: [] })).statusCode).toBe(400);
    expect((await post(null, '/api/files/download-zip', { file_ids: [a.id] })).statusCode).toBe(401);
    expect(await auditCount('file.downloaded')).toBe(before);
  });
});

describe('POST /api/files/download-pdf', () => {
  const pdfIn = (categoryId: number, name: string, content: Buffer, mimeType: string) =>
    createFile(t.db, t.app.deps.blobs, { ownerId: u.bob, categoryId, name, content, mimeType });
  const pages = async (pdf: Buffer) => (await PDFDocument.load(pdf)).getPageCount();

  it('appends PDFs and makes each image a page, in the order given, each download audited', async () => {
    const twoPages = await PDFDocument.create();
    twoPages.addPage();
    twoPages.addPage();
    const a = await pdfIn(cat, 'contract.pdf', Buffer.from(await twoPages.save()), 'application/pdf');
    const b = await pdfIn(viewOnly, 'scan.png', tinyPng(40, 30), 'image/png');
    const c = await pdfIn(cat, 'letter.pdf', textPdf(['Dear Alice']), 'application/pdf');
    const before = await auditCount('file.downloaded');
    const res = await post(tok.alice, '/api/files/download-pdf', { file_ids: [b.id, a.id, c.id] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename=.*\.pdf/);
    const doc = await PDFDocument.load(res.rawPayload);
    expect(doc.getPageCount()).toBe(4);
    // The image's page comes first, shaped as the image (40 x 30), then the PDFs' pages.
    const first = doc.getPage(0).getSize();
    expect(first.width / first.height).toBeCloseTo(40 / 30, 2);
    expect(await auditCount('file.downloaded')).toBe(before + 3);
    const events = await t.db.auditEvent.findMany({
      where: { action: 'file.downloaded', targetId: String(b.id) },
    });
    expect(events.at(-1)).toMatchObject({ userId: u.alice, details: { pdf: true } });
    expect(events.at(-1)?.message).toContain('in a PDF of 3');
  });

  it('refuses the whole call when files cannot become pages, naming each (400), and audits nothing', async () => {
    const a = await pdfIn(cat, 'ok.pdf', textPdf(['fine']), 'application/pdf');
    const sheet = await fileIn(cat, 'budget.txt', 'not a page');
    const zip = await pdfIn(cat, 'archive.zip', Buffer.from('PK\u0003\u0004'), 'application/zip');
    const before = await auditCount('file.downloaded');
    const res = await post(tok.alice, '/api/files/download-pdf', { file_ids: [a.id, sheet.id, zip.id] });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(
      '"budget.txt", "archive.zip" are neither PDFs nor PNG or JPEG images',
    );
    expect(res.json().errors).toEqual([
      { path: 'body.file_ids', message: '"budget.txt" cannot be combined into a PDF' },
      { path: 'body.file_ids', message: '"archive.zip" cannot be combined into a PDF' },
    ]);
    expect(await auditCount('file.downloaded')).toBe(before);
    expect(
      await pages((await post(tok.alice, '/api/files/download-pdf', { file_ids: [a.id] })).rawPayload),
    ).toBe(1);
  });

  it('refuses the whole PDF when one file may not be downloaded (403 naming it, 404 unseen), audited refusals', async () => {
    const a = await pdfIn(cat, 'mine.pdf', textPdf(['mine']), 'application/pdf');
    const noDownload = await pdfIn(cat, 'look-only.pdf', textPdf(['look']), 'application/pdf');
    await t.db.file.update({ where: { id: noDownload.id }, data: { hasOwnPermissions: true } });
    await t.db.filePermission.create({ data: { fileId: noDownload.id, userId: u.alice, canView: true } });
    const before = await auditCount('file.downloaded');
    const denied = await auditCount('access.denied');
    const res = await post(tok.alice, '/api/files/download-pdf', { file_ids: [a.id, noDownload.id] });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toContain('"look-only.pdf"');
    expect(await auditCount('access.denied')).toBe(denied + 1);
    const hidden = await pdfIn(secret, 'secret.pdf', textPdf(['secret']), 'application/pdf');
    expect(
      (await post(tok.alice, '/api/files/download-pdf', { file_ids: [a.id, hidden.id] })).statusCode,
    ).toBe(404);
    const bad = await post(tok.alice, '/api/files/download-pdf', { file_ids: [] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].path).toBe('body.file_ids');
    expect((await post(null, '/api/files/download-pdf', { file_ids: [a.id] })).statusCode).toBe(401);
    expect(await auditCount('file.downloaded')).toBe(before);
  });
});
