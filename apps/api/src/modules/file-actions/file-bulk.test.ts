import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { callAs } from '../../../test/access.js';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { createCategory, createFile, createUser, loginAs } from '../../../test/factories.js';

// The calls on many files at once: move, follow, zip download. Each checks every file's
// right, and one refused file (named) changes nothing; refusals are audited.

let t: TestContext;
const u = { alice: 0, bob: 0 };
const tok = { alice: '', bob: '', auditor: '' };
let cat = 0;
let target = 0;
let viewOnly = 0;
let secret = 0;

beforeAll(async () => {
  t = await createTestApp();
  const alice = await createUser(t.db, { firstName: 'Alice', lastName: 'Able' });
  const bob = await createUser(t.db, { firstName: 'Bob', lastName: 'Baker' });
  Object.assign(u, { alice: alice.id, bob: bob.id });
  tok.alice = await loginAs(t.app, alice, 'user');
  tok.bob = await loginAs(t.app, bob, 'user');
  tok.auditor = await loginAs(t.app, await createUser(t.db, { accessType: 'Auditor' }), 'admin');
  const writers = [
    { userId: alice.id, rights: ['upload', 'edit', 'delete'] as const },
    { userId: bob.id, rights: ['upload', 'edit', 'delete'] as const },
  ].map((g) => ({ ...g, rights: [...g.rights] }));
  cat = (await createCategory(t.db, { grants: writers })).id;
  target = (await createCategory(t.db, { grants: writers })).id;
  viewOnly = (await createCategory(t.db, { grants: [{ userId: alice.id }, ...writers.slice(1)] })).id;
  secret = (await createCategory(t.db, { grants: writers.slice(1) })).id;
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
    await post(tok.alice, '/api/follow', { file_id: b.id });
    const before = await auditCount('file.followed');
    const res = await post(tok.alice, '/api/files/bulk-follow', { file_ids: [a.id, b.id] });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ followed: 1 });
    expect(await followers([a.id, b.id])).toBe(2);
    expect(await auditCount('file.followed')).toBe(before + 1);
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
    const before = await auditCount('file.downloaded');
    const res = await post(tok.alice, '/api/files/download-zip', { file_ids: [a.id, b.id] });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename=.*\.zip/);
    const entries = await unzip(res.rawPayload);
    expect(Object.fromEntries(entries)).toEqual({
      'report.txt': 'first report\n',
      'report (2).txt': 'second report\n',
    });
    expect(await auditCount('file.downloaded')).toBe(before + 2);
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
