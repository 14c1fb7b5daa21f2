import ExcelJS from 'exceljs';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs } from '../../../test/access.js';
import type { TestContext } from '../../../test/app.js';
import { createFile } from '../../../test/factories.js';
import { multipart } from '../../../test/multipart.js';
import { seed, seededApp } from '../../../test/seed.js';
import { written, writtenSince } from '../../../test/written.js';

// The actions on a file: comments, follows and the followers' bell, favourites, downloads
// with ETag and Range, the trash (all or nothing), locks and check-outs (409 naming the
// holder, released by File Control writers), versions and rollback, the record export.

let t: TestContext;
const u = { alice: 0, bob: 0, viewer: 0 };
const tok = { alice: '', bob: '', viewer: '', stranger: '', admin: '' };
let cat = 0;

beforeAll(async () => {
  const world = await seededApp({
    users: {
      alice: { firstName: 'Alice', lastName: 'Able' },
      bob: { firstName: 'Bob', lastName: 'Baker' },
      viewer: {},
      stranger: {},
      admin: { accessType: 'COMPANY ADMIN' },
    },
    categories: {
      cat: { grants: { alice: ['upload', 'edit', 'delete'], bob: ['upload', 'edit', 'delete'], viewer: [] } },
    },
  });
  t = world.t;
  const { alice, bob, viewer, stranger, admin } = world.users;
  Object.assign(u, { alice: alice.id, bob: bob.id, viewer: viewer.id });
  Object.assign(tok, {
    alice: alice.token,
    bob: bob.token,
    viewer: viewer.token,
    stranger: stranger.token,
    admin: admin.token,
  });
  cat = world.categories.cat.id;
});
afterAll(() => t.close());

const call = (token: string | null, opts: InjectOptions) => callAs(t, token, opts);
const post = (token: string | null, url: string, payload: object) =>
  call(token, { method: 'POST', url, payload });
const newFile = (content = 'version one\n') =>
  createFile(t.db, t.app.deps.blobs, { ownerId: u.alice, categoryId: cat, content: Buffer.from(content) });

describe('comments, follows and the bell', () => {
  it('a comment tells followers (not the author), once even when the job runs twice', async () => {
    const f = await newFile();
    expect((await post(tok.bob, '/api/follow', { file_id: f.id })).statusCode).toBe(200);
    expect((await post(tok.viewer, '/api/follow', { file_id: f.id })).statusCode).toBe(200);
    const res = await post(tok.viewer, '/api/file-comment', { file_id: f.id, comment: 'Looks good' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ comment: 'Looks good', author: { id: u.viewer } });
    const job = await t.db.job.findFirstOrThrow({
      where: { kind: 'notification.file_event', payload: { path: ['type'], equals: 'commented' } },
      orderBy: { id: 'desc' },
    });
    await t.app.jobs.runDue();
    const { notifyFollowers } = await import('../notification/notification.service.js');
    await notifyFollowers(t.app.deps, job.id, job.payload as never); // a second run of the same job
    const bell = await call(tok.bob, { method: 'GET', url: '/api/get-notification' });
    const mine = bell.json().data.items.filter((n: { file_id: number }) => n.file_id === f.id);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      kind: 'file.commented',
      // Who did it: the viewer commented.
      body: expect.stringMatching(/^By Test User \d+$/),
      read: false,
      link: `/files/${f.id}`,
    });
    expect(await t.db.notification.count({ where: { userId: u.viewer, fileId: f.id } })).toBe(0);

    expect((await post(tok.bob, '/api/unfollow', { file_id: f.id })).statusCode).toBe(200);
    await post(tok.viewer, '/api/file-comment', { file_id: f.id, comment: 'again' });
    await t.app.jobs.runDue();
    expect(await t.db.notification.count({ where: { userId: u.bob, fileId: f.id } })).toBe(1);
    expect((await post(tok.viewer, '/api/file-comment', { file_id: f.id, comment: '' })).statusCode).toBe(
      400,
    );
    expect((await post(tok.stranger, '/api/file-comment', { file_id: f.id, comment: 'hi' })).statusCode).toBe(
      404,
    );
  });

  it('favourite and unfavourite show in file-view', async () => {
    const f = await newFile();
    await post(tok.viewer, '/api/favourite-file', { file_id: f.id });
    expect(
      (await call(tok.viewer, { method: 'GET', url: `/api/file-view/${f.id}` })).json().data.is_favourite,
    ).toBe(true);
    await post(tok.viewer, '/api/unfavourite-file', { file_id: f.id });
    expect(
      (await call(tok.viewer, { method: 'GET', url: `/api/file-view/${f.id}` })).json().data.is_favourite,
    ).toBe(false);
  });
});

describe('downloads', () => {
  it('streams the current version with ETag, 304 and Range; refuses who may not see it', async () => {
    const f = await newFile('0123456789');
    const res = await call(tok.viewer, { method: 'GET', url: `/api/download-files/${f.id}` });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('0123456789');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="file-\d+\.txt"/);
    const etag = res.headers.etag as string;
    expect(
      (
        await call(tok.viewer, {
          method: 'GET',
          url: `/api/download-files/${f.id}`,
          headers: { 'if-none-match': etag },
        })
      ).statusCode,
    ).toBe(304);
    const part = await call(tok.viewer, {
      method: 'GET',
      url: `/api/download-files/${f.id}`,
      headers: { range: 'bytes=3-5' },
    });
    expect(part.statusCode).toBe(206);
    expect(part.body).toBe('345');
    expect((await call(tok.stranger, { method: 'GET', url: `/api/download-files/${f.id}` })).statusCode).toBe(
      404,
    );
    expect(
      (await call(tok.viewer, { method: 'GET', url: `/api/download-files/${f.id}?version=9` })).statusCode,
    ).toBe(404);
  });
});

describe('locks and check-outs', () => {
  it('a lock blocks everyone else with a 409 naming the holder; a File Control writer releases it', async () => {
    const f = await newFile();
    expect(
      (await post(tok.alice, '/api/lock-file', { file_id: f.id, status: '1' })).json().data.locked_by.id,
    ).toBe(u.alice);
    const rename = await post(tok.bob, '/api/edit-file-name', { file_id: f.id, name: 'mine now' });
    expect(rename.statusCode).toBe(409);
    expect(rename.json()).toMatchObject({
      code: 'file.locked',
      message: expect.stringContaining('Alice Able'),
    });
    expect((await post(tok.bob, '/api/delete', { file_ids: [f.id] })).statusCode).toBe(409);
    expect((await post(tok.bob, '/api/lock-file', { file_id: f.id, status: '0' })).statusCode).toBe(409);
    expect((await post(tok.viewer, '/api/lock-file', { file_id: f.id, status: '0' })).statusCode).toBe(403);
    const released = await post(tok.admin, '/api/lock-file', { file_id: f.id, status: 0 });
    expect(released.json().data.locked_by).toBeNull();
    expect(
      await t.db.auditEvent.count({ where: { action: 'file.lock_released', targetId: String(f.id) } }),
    ).toBe(1);
    expect((await post(tok.bob, '/api/edit-file-name', { file_id: f.id, name: 'mine now' })).statusCode).toBe(
      200,
    );
  });

  it('check out, check in a new version, roll back as a newer version', async () => {
    const f = await newFile('first\n');
    expect((await post(tok.bob, '/api/check-out', { file_id: f.id })).statusCode).toBe(200);
    const blocked = await post(tok.alice, '/api/check-out', { file_id: f.id });
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json().message).toContain('Bob Baker');
    const notYours = await call(tok.alice, {
      method: 'POST',
      url: '/api/check-in',
      ...multipart({ file_id: String(f.id), file: { content: Buffer.from('x'), filename: 'x.txt' } }),
    });
    expect(notYours.statusCode).toBe(409);
    const checkIn = await call(tok.bob, {
      method: 'POST',
      url: '/api/check-in',
      ...multipart({
        file_id: String(f.id),
        comment: 'second draft',
        file: { content: Buffer.from('second\n'), filename: 'v2.txt' },
      }),
    });
    expect(checkIn.statusCode, checkIn.body).toBe(200);
    expect(checkIn.json().data).toMatchObject({ version: 2, checked_out_by: null });
    expect(checkIn.json().data.versions[0]).toMatchObject({
      number: 2,
      comment: 'second draft',
      author: { id: u.bob },
    });
    const again = await call(tok.bob, {
      method: 'POST',
      url: '/api/check-in',
      ...multipart({ file_id: String(f.id) }),
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('file.not_checked_out');

    const v1 = checkIn.json().data.versions[1].id;
    const back = await post(tok.alice, '/api/rollback-version', { file_id: f.id, version_id: v1 });
    expect(back.statusCode).toBe(200);
    expect(back.json().data).toMatchObject({ number: 3, rolled_back_from: 1, is_current: true });
    const dl = await call(tok.viewer, { method: 'GET', url: `/api/download-files/${f.id}` });
    expect(dl.body).toBe('first\n');
    expect(await t.db.fileVersion.count({ where: { fileId: f.id } })).toBe(3);
    const other = await newFile();
    expect(
      (await post(tok.alice, '/api/rollback-version', { file_id: other.id, version_id: v1 })).statusCode,
    ).toBe(404);
  });

  it('a File Control writer releases a check-out without a new file, audited', async () => {
    const f = await newFile();
    await post(tok.bob, '/api/check-out', { file_id: f.id });
    const res = await call(tok.admin, {
      method: 'POST',
      url: '/api/check-in',
      ...multipart({ file_id: String(f.id) }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.checked_out_by).toBeNull();
    expect(
      await t.db.auditEvent.count({ where: { action: 'file.check_out_released', targetId: String(f.id) } }),
    ).toBe(1);
  });
});

describe('POST /api/delete', () => {
  it('moves many to the trash, all or nothing, naming no hidden file', async () => {
    const a = await newFile();
    const b = await newFile();
    const {
      files: { h },
    } = await seed(t, {
      categories: { hiddenCat: {} },
      files: { h: { owner: { id: u.bob }, category: 'hiddenCat', name: 'secret-plan.txt' } },
    });
    const refused = await post(tok.alice, '/api/delete', { file_ids: [a.id, h.id] });
    expect(refused.statusCode).toBe(404);
    expect(refused.body).not.toContain('secret');
    expect(refused.body).not.toContain(String(h.id));
    expect(await t.db.file.count({ where: { id: { in: [a.id, b.id] }, deletedAt: { not: null } } })).toBe(0);
    expect((await post(tok.viewer, '/api/delete', { file_ids: [a.id] })).statusCode).toBe(403);
    const ok = await post(tok.alice, '/api/delete', { file_ids: [a.id, b.id] });
    expect(ok.json().data.deleted).toBe(2);
    expect((await call(tok.alice, { method: 'GET', url: `/api/file-view/${a.id}` })).statusCode).toBe(404);
    expect((await post(tok.alice, '/api/delete', { file_ids: [] })).statusCode).toBe(400);
  });

  it('audits each file and sends each its deleted event, in the order of their ids', async () => {
    const files = [await newFile(), await newFile(), await newFile()];
    const [a, b, c] = files.map((f) => f.id) as [number, number, number];
    const before = await written(t);
    expect((await post(tok.alice, '/api/delete', { file_ids: [c, a, b] })).statusCode).toBe(200);
    const after = await writtenSince(t, before);
    expect(after.audit).toEqual(
      files.map((f) => ({
        userId: u.alice,
        type: 'file',
        action: 'file.deleted',
        message: `Moved "${f.name}" to the trash`,
        targetType: 'file',
        targetId: String(f.id),
        details: {},
      })),
    );
    expect(after.jobs).toEqual(
      files.flatMap((f) =>
        ['notification.file_event', 'workflow.file_event'].map((kind) => ({
          kind,
          payload: { type: 'deleted', file_id: f.id, category_id: cat, actor_id: u.alice },
        })),
      ),
    );
  });
});

describe('other files', () => {
  it('attach, download, remove (all or nothing)', async () => {
    const f = await newFile();
    const up = await call(tok.alice, {
      method: 'POST',
      url: '/api/other-files-upload',
      ...multipart({ file_id: String(f.id), file: { content: Buffer.from('note'), filename: 'note.txt' } }),
    });
    const [att] = up.json().data;
    expect((await call(tok.viewer, { method: 'GET', url: `/api/download-otherfiles/${att.id}` })).body).toBe(
      'note',
    );
    expect((await post(tok.viewer, '/api/delete-otherfiles', { ids: [att.id] })).statusCode).toBe(403);
    expect((await post(tok.alice, '/api/delete-otherfiles', { ids: [att.id, 999999] })).statusCode).toBe(404);
    expect((await post(tok.alice, '/api/delete-otherfiles', { ids: [att.id] })).json().data.deleted).toBe(1);
    expect(await t.db.attachment.count({ where: { fileId: f.id } })).toBe(0);
  });

  it('attaches several files in one upload, in order: a row, an audit event and a file event each', async () => {
    const f = await newFile();
    const mark = await written(t);
    const up = await call(tok.alice, {
      method: 'POST',
      url: '/api/other-files-upload',
      ...multipart({
        file_id: String(f.id),
        file: [
          { content: Buffer.from('same'), filename: 'one.txt' },
          { content: Buffer.from('other'), filename: 'two.txt' },
          { content: Buffer.from('same'), filename: 'three.txt' },
        ],
      }),
    });
    expect(up.statusCode, up.body).toBe(200);
    const answered = up.json().data as Array<{ id: number; name: string; file_id: number }>;
    expect(answered.map((a) => [a.name, a.file_id])).toEqual([
      ['one.txt', f.id],
      ['two.txt', f.id],
      ['three.txt', f.id],
    ]);
    const rows = await t.db.attachment.findMany({ where: { fileId: f.id }, orderBy: { id: 'asc' } });
    expect(rows.map((a) => [a.id, a.name, a.size, a.uploadedById])).toEqual(
      answered.map((a, i) => [a.id, a.name, [4n, 5n, 4n][i], u.alice]),
    );
    expect(rows[0]?.blobId).toBe(rows[2]?.blobId);
    expect(await t.db.blob.count({ where: { id: { in: rows.map((a) => a.blobId) } } })).toBe(2);
    const after = await writtenSince(t, mark);
    expect(after.audit).toEqual(
      rows.map((a) => ({
        userId: u.alice,
        type: 'file',
        action: 'file.attachment_added',
        message: `Attached "${a.name}" to "${f.name}"`,
        targetType: 'file',
        targetId: String(f.id),
        details: { attachment_id: a.id, blob_id: a.blobId, size: Number(a.size), mime_type: a.mimeType },
      })),
    );
    expect(after.jobs).toEqual(
      rows.map(() => ({
        kind: 'notification.file_event',
        payload: { type: 'attachment_added', file_id: f.id, actor_id: u.alice },
      })),
    );
  });

  it("audits each file's removed files and tells its followers, file by file in the order of their ids", async () => {
    const [f, g] = [await newFile(), await newFile()];
    const attach = async (file: typeof f, name: string) => {
      const { blobId } = await t.db.fileVersion.findFirstOrThrow({ where: { fileId: file.id } });
      return t.db.attachment.create({
        data: { fileId: file.id, blobId, name, mimeType: 'text/plain', size: 4n, uploadedById: u.alice },
      });
    };
    const one = await attach(g, 'one.txt');
    const two = await attach(f, 'two.txt');
    const three = await attach(g, 'three.txt');
    const mark = await written(t);
    const res = await post(tok.alice, '/api/delete-otherfiles', { ids: [three.id, two.id, one.id] });
    expect(res.json().data.deleted).toBe(3);
    const removed = (a: typeof one) => ({ id: a.id, name: a.name, blob_id: a.blobId });
    const after = await writtenSince(t, mark);
    expect(after.audit).toEqual([
      {
        userId: u.alice,
        type: 'file',
        action: 'file.attachment_removed',
        message: `Removed "two.txt" from "${f.name}"`,
        targetType: 'file',
        targetId: String(f.id),
        details: { attachments: [removed(two)] },
      },
      {
        userId: u.alice,
        type: 'file',
        action: 'file.attachment_removed',
        message: `Removed "one.txt", "three.txt" from "${g.name}"`,
        targetType: 'file',
        targetId: String(g.id),
        details: { attachments: [removed(one), removed(three)] },
      },
    ]);
    expect(after.jobs).toEqual(
      [f, g].map((file) => ({
        kind: 'notification.file_event',
        payload: { type: 'attachment_removed', file_id: file.id, category_id: cat, actor_id: u.alice },
      })),
    );
  });
});

describe('GET /api/export-files-main/{id}', () => {
  it("answers the file's record as a spreadsheet", async () => {
    const f = await newFile();
    const res = await call(tok.viewer, { method: 'GET', url: `/api/export-files-main/${f.id}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.rawPayload.subarray(0, 2).toString()).toBe('PK');
    expect(
      (await call(tok.stranger, { method: 'GET', url: `/api/export-files-main/${f.id}` })).statusCode,
    ).toBe(404);
  });

  it('writes text that starts like a formula (= + - @, tab, CR) as text', async () => {
    const f = await newFile();
    await t.db.file.update({ where: { id: f.id }, data: { name: '=HYPERLINK("http://evil.test","click")' } });
    await t.db.fileVersion.updateMany({ where: { fileId: f.id }, data: { comment: '@SUM(A1)' } });
    await t.db.auditEvent.create({
      data: {
        type: 'file',
        action: 'file.updated',
        message: '-2+3',
        targetType: 'file',
        targetId: String(f.id),
      },
    });
    const res = await call(tok.viewer, { method: 'GET', url: `/api/export-files-main/${f.id}` });
    expect(res.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as never);
    const file = book.getWorksheet('File')!;
    expect(file.getRow(1).values).toEqual([undefined, 'Name', `'=HYPERLINK("http://evil.test","click")`]);
    expect(file.getRow(1).getCell(2).formula).toBeUndefined();
    const versions = book.getWorksheet('Versions')!;
    expect(versions.getRow(2).getCell(6).value).toBe("'@SUM(A1)");
    const messages: unknown[] = [];
    book.getWorksheet('Activity')!.eachRow((row) => {
      messages.push(row.getCell(4).value);
    });
    expect(messages).toContain("'-2+3");
  });
});

describe('GET /api/file-activity/{id}', () => {
  it("lists the file's changes newest first, with who made them, to those who may view it", async () => {
    const f = await newFile();
    expect((await post(tok.alice, '/api/lock-file', { file_id: f.id, status: '1' })).statusCode).toBe(200);
    expect((await post(tok.alice, '/api/lock-file', { file_id: f.id, status: '0' })).statusCode).toBe(200);
    // Reads and personal marks change nothing of the file: not in its history.
    expect((await call(tok.viewer, { method: 'GET', url: `/api/file-view/${f.id}` })).statusCode).toBe(200);
    expect((await post(tok.viewer, '/api/follow', { file_id: f.id })).statusCode).toBe(200);
    const res = await call(tok.viewer, { method: 'GET', url: `/api/file-activity/${f.id}?quantity=1` });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json().data;
    expect(page).toMatchObject({ page: 1, quantity: 1, total: 2, last_page: 2 });
    expect(page.items).toEqual([
      expect.objectContaining({
        action: 'file.unlocked',
        by: 'Alice Able',
        message: expect.stringContaining(f.name),
      }),
    ]);
    const second = (
      await call(tok.viewer, { method: 'GET', url: `/api/file-activity/${f.id}?quantity=1&page=2` })
    ).json().data;
    expect(second.items.map((e: { action: string }) => e.action)).toEqual(['file.locked']);
  });

  it('refuses a person who may not see the file (404) and a stranger signed out (401)', async () => {
    const f = await newFile();
    expect((await call(tok.stranger, { method: 'GET', url: `/api/file-activity/${f.id}` })).statusCode).toBe(
      404,
    );
    expect((await call(null, { method: 'GET', url: `/api/file-activity/${f.id}` })).statusCode).toBe(401);
  });

  it('refuses a page size out of bounds or an id that is not one (400 naming the field)', async () => {
    const f = await newFile();
    const bad = await call(tok.viewer, { method: 'GET', url: `/api/file-activity/${f.id}?quantity=0` });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([expect.objectContaining({ path: 'query.quantity' })]);
    const notId = await call(tok.viewer, { method: 'GET', url: '/api/file-activity/abc' });
    expect(notId.statusCode).toBe(400);
    expect(notId.json().errors).toEqual([expect.objectContaining({ path: 'params.id' })]);
  });
});
