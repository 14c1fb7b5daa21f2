import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Caller, callAs, expectAccess, readCase, readCaseOf, writeCase } from '../../../test/access.js';
import type { TestContext } from '../../../test/app.js';
import { createFile } from '../../../test/factories.js';
import { type SeededUser, seed, seededApp } from '../../../test/seed.js';

// The trash: a File Control area (the Auditor reads it, File Control writers restore and purge).

let t: TestContext;
let admin = '';
let ownerId = 0;
let cat = 0;

beforeAll(async () => {
  const world = await seededApp({
    users: { admin: { accessType: 'File Control Admin' }, owner: { signIn: false } },
    categories: { cat: {} },
  });
  t = world.t;
  admin = world.users.admin.token;
  ownerId = world.users.owner.id;
  cat = world.categories.cat.id;
});
afterAll(() => t.close());

const call = (token: string | null, opts: InjectOptions) => callAs(t, token, opts);
const trashed = async (categoryId = cat) => {
  const f = await createFile(t.db, t.app.deps.blobs, { ownerId, categoryId });
  await t.db.file.update({ where: { id: f.id }, data: { deletedAt: new Date(), deletedById: ownerId } });
  return f;
};
const counts = async () => ({
  files: await t.db.file.count(),
  live: await t.db.file.count({ where: { deletedAt: null } }),
  audits: await t.db.auditEvent.count({ where: { type: 'file' } }),
});

const FILE_CONTROL_CALLERS: Caller[] = [
  ['anonymous', null, 'admin', () => 401],
  ['General staff', 'General staff', 'user', () => 403],
  ['User Administration Admin', 'User Administration Admin', 'admin', () => 403],
  ['a Company Admin signed in as user', 'COMPANY ADMIN', 'user', () => 403],
  ['Auditor', 'Auditor', 'admin', (write) => (write ? 403 : 200)],
  ['File Control Admin', 'File Control Admin', 'admin', () => 200],
  ['Company Admin', 'COMPANY ADMIN', 'admin', () => 200],
];

describe('who may use the trash', () => {
  const cases = [
    readCase('/api/files/trash'),
    readCaseOf('GET /api/files/trash-file-view/{id}', async () => ({
      method: 'GET',
      url: `/api/files/trash-file-view/${(await trashed()).id}`,
    })),
    writeCase('POST /api/files/restore-trash-file/{id}', async () => ({
      method: 'POST',
      url: `/api/files/restore-trash-file/${(await trashed()).id}`,
      payload: {},
    })),
    writeCase('DELETE /api/files/trash-file/{id}', async () => ({
      method: 'DELETE',
      url: `/api/files/trash-file/${(await trashed()).id}`,
    })),
  ];
  it.each(FILE_CONTROL_CALLERS)('as %s', (...caller) => expectAccess(t, caller, cases, counts));
});

describe('the trash', () => {
  it('lists trashed files, last first, and shows one; a live file is not in it', async () => {
    const a = await trashed();
    const b = await trashed();
    const res = await call(admin, { method: 'GET', url: '/api/files/trash' });
    const ids = res.json().data.items.map((f: { id: number }) => f.id);
    expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id));
    expect(res.json().data.items[0]).toMatchObject({ folder_live: true, deleted_by: { id: ownerId } });
    expect(
      (await call(admin, { method: 'GET', url: `/api/files/trash-file-view/${a.id}` })).json().data.id,
    ).toBe(a.id);
    const live = await createFile(t.db, t.app.deps.blobs, { ownerId, categoryId: cat });
    expect(
      (await call(admin, { method: 'GET', url: `/api/files/trash-file-view/${live.id}` })).statusCode,
    ).toBe(404);
  });

  it('restores to its category, or to a chosen one when that is gone (400 without one)', async () => {
    const f = await trashed();
    const back = await call(admin, {
      method: 'POST',
      url: `/api/files/restore-trash-file/${f.id}`,
      payload: {},
    });
    expect(back.json().data).toMatchObject({ id: f.id, folder_id: cat });
    expect((await t.db.file.findUniqueOrThrow({ where: { id: f.id } })).deletedAt).toBeNull();

    const {
      categories: { gone },
    } = await seed(t, { categories: { gone: {} } });
    const g = await trashed(gone.id);
    await t.db.category.update({ where: { id: gone.id }, data: { deletedAt: new Date() } });
    const before = await counts();
    const refused = await call(admin, {
      method: 'POST',
      url: `/api/files/restore-trash-file/${g.id}`,
      payload: {},
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors[0].path).toBe('body.folder_id');
    expect(await counts()).toEqual(before);
    const moved = await call(admin, {
      method: 'POST',
      url: `/api/files/restore-trash-file/${g.id}`,
      payload: { folder_id: cat },
    });
    expect(moved.json().data.folder_id).toBe(cat);
    expect(moved.json().data.incremental).not.toBeNull();
  });

  it('purges the row and its dependants, audit kept; the blob is left to the collector', async () => {
    const f = await trashed();
    const version = await t.db.fileVersion.findFirstOrThrow({ where: { fileId: f.id } });
    const res = await call(admin, { method: 'DELETE', url: `/api/files/trash-file/${f.id}` });
    expect(res.statusCode).toBe(200);
    expect(await t.db.file.count({ where: { id: f.id } })).toBe(0);
    expect(await t.db.fileVersion.count({ where: { fileId: f.id } })).toBe(0);
    expect(await t.db.auditEvent.count({ where: { action: 'file.purged', targetId: String(f.id) } })).toBe(1);
    expect(await t.app.deps.blobs.exists(version.blobId)).toBe(true);
    expect((await call(admin, { method: 'DELETE', url: `/api/files/trash-file/${f.id}` })).statusCode).toBe(
      404,
    );
  });
});

describe('my deleted files', () => {
  let staffUser: SeededUser;
  let staff = '';
  let staffId = 0;
  let other = '';
  let writable = 0;
  beforeAll(async () => {
    const world = await seed(t, {
      users: { staff: {}, other: {} },
      categories: { writable: { grants: { staff: ['upload', 'edit', 'delete'] } } },
    });
    staffUser = world.users.staff;
    ({ id: staffId, token: staff } = staffUser);
    other = world.users.other.token;
    writable = world.categories.writable.id;
  });
  /** A category where the staff member has `rights` (view only with []). */
  const staffCategory = async (rights: Array<'delete'> = []) =>
    (await seed(t, { users: { staff: staffUser }, categories: { c: { grants: { staff: rights } } } }))
      .categories.c;
  const deletedBy = async (userId: number, categoryId = writable) => {
    const f = await createFile(t.db, t.app.deps.blobs, { ownerId, categoryId });
    await t.db.file.update({ where: { id: f.id }, data: { deletedAt: new Date(), deletedById: userId } });
    return f;
  };
  const restore = (token: string | null, id: number, payload: object = {}) =>
    call(token, { method: 'POST', url: `/api/files/my-deleted/${id}/restore`, payload });

  it('lists only the files the caller deleted, to anyone signed in', async () => {
    const mine = await deletedBy(staffId);
    const theirs = await deletedBy(ownerId);
    const res = await call(staff, { method: 'GET', url: '/api/files/my-deleted' });
    expect(res.statusCode).toBe(200);
    const ids = res.json().data.items.map((f: { id: number }) => f.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(theirs.id);
    expect(res.json().data.items[0]).toMatchObject({ deleted_by: { id: staffId }, folder_live: true });
    expect((await call(other, { method: 'GET', url: '/api/files/my-deleted' })).json().data.items).toEqual(
      [],
    );
    expect((await call(null, { method: 'GET', url: '/api/files/my-deleted' })).statusCode).toBe(401);
  });

  it('restores a file the caller deleted to its category, audited', async () => {
    const f = await deletedBy(staffId);
    const res = await restore(staff, f.id);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: f.id, folder_id: writable });
    expect((await t.db.file.findUniqueOrThrow({ where: { id: f.id } })).deletedAt).toBeNull();
    const event = await t.db.auditEvent.findFirstOrThrow({
      where: { action: 'file.restored', targetId: String(f.id) },
    });
    expect(event.userId).toBe(staffId);
  });

  it("answers 404 for another person's deleted file and a live one; 403 without the right to delete now", async () => {
    const theirs = await deletedBy(ownerId);
    const before = await counts();
    const notFound = await t.db.auditEvent.count({ where: { action: 'access.not_found' } });
    expect((await restore(staff, theirs.id)).statusCode).toBe(404);
    const live = await createFile(t.db, t.app.deps.blobs, { ownerId, categoryId: writable });
    expect((await restore(staff, live.id)).statusCode).toBe(404);
    expect(await t.db.auditEvent.count({ where: { action: 'access.not_found' } })).toBe(notFound + 2);

    // Deleted by them from a category where they have since lost the right to delete.
    const readOnly = await staffCategory();
    const f = await deletedBy(staffId, readOnly.id);
    const refused = await restore(staff, f.id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toContain(f.name);
    expect(await counts()).toEqual({ ...before, files: before.files + 2, live: before.live + 1 });
    expect((await restore(null, f.id)).statusCode).toBe(401);
  });

  it("takes back an upload cancelled to the trash: restored, it is unindexed in its owner's list again", async () => {
    // The web client's "Cancel upload" moves an unindexed file to the trash (POST /api/delete)
    // rather than cancel-index-file, which deletes it for good.
    const {
      files: { f },
    } = await seed(t, { files: { f: { owner: staffUser, category: { id: writable }, indexed: false } } });
    const unindexed = async () =>
      (await call(staff, { method: 'GET', url: `/api/unindex-file?folder_id=${writable}` }))
        .json()
        .data.items.map((x: { id: number }) => x.id);
    expect(await unindexed()).toContain(f.id);
    const trash = await call(staff, { method: 'POST', url: '/api/delete', payload: { file_ids: [f.id] } });
    expect(trash.statusCode).toBe(200);
    expect(await unindexed()).not.toContain(f.id);
    const mine = (await call(staff, { method: 'GET', url: '/api/files/my-deleted' })).json().data.items;
    expect(mine.map((x: { id: number }) => x.id)).toContain(f.id);
    expect((await restore(staff, f.id)).json().data).toMatchObject({ id: f.id, index_status: 'unindexed' });
    expect(await unindexed()).toContain(f.id);
  });

  it('asks for another category when its own is gone (400), and needs upload there', async () => {
    const gone = await staffCategory(['delete']);
    const f = await deletedBy(staffId, gone.id);
    await t.db.category.update({ where: { id: gone.id }, data: { deletedAt: new Date() } });
    const before = await counts();
    const ask = await restore(staff, f.id);
    expect(ask.statusCode).toBe(400);
    expect(ask.json().errors[0].path).toBe('body.folder_id');
    const readOnly = await staffCategory();
    expect((await restore(staff, f.id, { folder_id: readOnly.id })).statusCode).toBe(403);
    expect((await restore(staff, f.id, { folder_id: 'x' })).statusCode).toBe(400);
    expect(await counts()).toEqual({ ...before, audits: before.audits });
    const moved = await restore(staff, f.id, { folder_id: writable });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().data.folder_id).toBe(writable);
  });
});
