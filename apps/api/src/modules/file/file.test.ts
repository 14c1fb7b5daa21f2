import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { InjectOptions } from 'fastify';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs } from '../../../test/access.js';
import type { TestContext } from '../../../test/app.js';
import { errorPaths } from '../../../test/errors.js';
import { type FilePart, multipart, tinyPng } from '../../../test/multipart.js';
import { type SeededUser, seed, seededApp } from '../../../test/seed.js';
import { written, writtenSince } from '../../../test/written.js';

// The files area's calls through the real app: uploads (type from content, names for
// display, sizes, running numbers), indexing, values, renames, moves, lists, permissions,
// shares and public links, combined downloads.

let t: TestContext;
let people: Record<'owner' | 'viewer' | 'stranger' | 'admin' | 'auditor', SeededUser>;
const u = { owner: 0, viewer: 0, stranger: 0, admin: 0 };
const tok = { owner: '', viewer: '', stranger: '', admin: '', auditor: '' };
let cat = 0; // owner may upload, edit, delete, share; viewer may view
let other = 0; // owner may upload; viewer nothing
let hidden = 0; // nobody but admins

beforeAll(async () => {
  const world = await seededApp(
    {
      users: {
        owner: { firstName: 'Olive', lastName: 'Owner' },
        viewer: { firstName: 'Vic', lastName: 'Viewer' },
        stranger: {},
        admin: { accessType: 'File Control Admin' },
        auditor: { accessType: 'Auditor' },
      },
      categories: {
        cat: { grants: { owner: ['upload', 'edit', 'delete', 'share'], viewer: [] } },
        other: { grants: { owner: ['upload'] } },
        hidden: {},
      },
    },
    { MAX_UPLOAD_BYTES: String(256 * 1024) },
  );
  t = world.t;
  people = world.users;
  const { owner, viewer, stranger, admin, auditor } = world.users;
  Object.assign(u, { owner: owner.id, viewer: viewer.id, stranger: stranger.id, admin: admin.id });
  Object.assign(tok, {
    owner: owner.token,
    viewer: viewer.token,
    stranger: stranger.token,
    admin: admin.token,
    auditor: auditor.token,
  });
  cat = world.categories.cat.id;
  other = world.categories.other.id;
  hidden = world.categories.hidden.id;
});
afterAll(() => t.close());

const call = (token: string | null, opts: InjectOptions) => callAs(t, token, opts);
const pdf = async (pages = 1) => {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage([200, 200]);
  return Buffer.from(await doc.save());
};
const text = (s: string): FilePart => ({
  content: Buffer.from(s),
  filename: 'notes.txt',
  contentType: 'text/plain',
});

function upload(
  token: string | null,
  folderId: number | string,
  files: FilePart[],
  extra: Record<string, string> = {},
) {
  const form = multipart({ folder_id: String(folderId), ...extra, file: files });
  return call(token, { method: 'POST', url: '/api/new-upload', ...form });
}

async function uploaded(files: FilePart[] = [text('hello\n')], folderId = cat) {
  const res = await upload(tok.owner, folderId, files);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.files as Array<{ id: number; name: string; incremental: string; mime_type: string }>;
}

async function indexedFile(name = 'indexed.txt') {
  const [f] = await uploaded([{ content: Buffer.from(`content of ${name}\n`), filename: name }]);
  const res = await call(tok.owner, {
    method: 'POST',
    url: '/api/submitmetas',
    payload: { file_id: f?.id, values: [] },
  });
  expect(res.statusCode, res.body).toBe(200);
  return f as { id: number; name: string };
}

const counts = async () => ({
  files: await t.db.file.count(),
  versions: await t.db.fileVersion.count(),
  blobs: await t.db.blob.count(),
  audits: await t.db.auditEvent.count({ where: { type: 'file' } }),
});
const storedBlobFiles = () =>
  readdirSync(t.app.deps.config.storageDir, { recursive: true, withFileTypes: true }).filter(
    (e) => e.isFile() && !e.parentPath.endsWith(`${path.sep}tmp`),
  ).length;

describe('POST /api/new-upload', () => {
  it('makes unindexed files of the uploader, typed by their content and named for display', async () => {
    const png = tinyPng();
    const files = await uploaded([
      { content: png, filename: '../../etc/\u202Eevil.txt', contentType: 'text/plain' },
      { content: await pdf(), filename: 'report.exe', contentType: 'application/x-msdownload' },
      text('plain words\n'),
    ]);
    expect(files.map((f) => f.mime_type)).toEqual(['image/png', 'application/pdf', 'text/plain']);
    expect(files[0]?.name).toBe('evil.txt');
    const row = await t.db.file.findUniqueOrThrow({
      where: { id: files[0]?.id },
      include: { currentVersion: true },
    });
    expect(row).toMatchObject({ ownerId: u.owner, categoryId: cat, indexStatus: 'unindexed' });
    expect(row.currentVersion).toMatchObject({ number: 1, mimeType: 'image/png', size: BigInt(png.length) });
    const nums = files.map((f) => Number(f.incremental));
    expect(nums[1]).toBe((nums[0] ?? 0) + 1);
    expect(nums[2]).toBe((nums[0] ?? 0) + 2);
    const events = await t.db.job.count({
      where: { kind: 'search.extract', payload: { path: ['file_id'], equals: files[0]?.id } },
    });
    expect(events).toBe(1);
    expect(
      await t.db.auditEvent.count({ where: { action: 'file.uploaded', targetId: String(files[0]?.id) } }),
    ).toBe(1);
  });

  it('never gives two concurrent uploads the same running number', async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => upload(tok.owner, other, [text(`parallel ${i}`)])),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    const numbers = results.map((r) => r.json().data.files[0].incremental);
    expect(new Set(numbers).size).toBe(8);
  });

  it('refuses bad input with a 400 naming the field, writing nothing', async () => {
    const before = await counts();
    const missing = await call(tok.owner, {
      method: 'POST',
      url: '/api/new-upload',
      ...multipart({ file: text('x') }),
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors[0].path).toBe('body.folder_id');
    const noFile = await call(tok.owner, {
      method: 'POST',
      url: '/api/new-upload',
      ...multipart({ folder_id: String(cat) }),
    });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().errors[0].path).toBe('body.file');
    expect(await counts()).toEqual(before);
  });

  it('answers 413 past MAX_UPLOAD_BYTES and keeps nothing of the call (earlier files neither)', async () => {
    const before = await counts();
    const blobFiles = storedBlobFiles();
    const res = await upload(tok.owner, cat, [
      text('small first'),
      { content: Buffer.alloc(300 * 1024, 7), filename: 'big.bin' },
    ]);
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('upload.too_large');
    expect(await counts()).toEqual(before);
    // The first file's blob may be on disk, but no row refers to it: the collector frees it.
    expect(storedBlobFiles()).toBeLessThanOrEqual(blobFiles + 1);
  });

  it('is refused: 401 signed out, 404 for a category you may not see, 403 without upload', async () => {
    const before = await counts();
    expect((await upload(null, cat, [text('x')])).statusCode).toBe(401);
    const hiddenRes = await upload(tok.owner, hidden, [text('x')]);
    expect(hiddenRes.statusCode).toBe(404);
    expect(hiddenRes.json().code).toBe('category.not_found');
    expect((await upload(tok.viewer, cat, [text('x')])).statusCode).toBe(403);
    expect(await counts()).toEqual(before);
    expect(
      await t.db.auditEvent.count({ where: { action: 'access.not_found', userId: u.owner } }),
    ).toBeGreaterThan(0);
  });
});

describe('indexing', () => {
  it('lists your unindexed files, checks values against the category fields, and indexes', async () => {
    const {
      categories: { category },
      fields: { amount, kind, due },
    } = await seed(t, {
      fields: {
        amount: { name: 'Amount', type: 'number', required: true, minNumber: 0, maxNumber: 100 },
        kind: { name: 'Kind', type: 'select', items: ['Invoice', 'Receipt'] },
        due: { name: 'Due', type: 'date' },
      },
      users: { owner: people.owner },
      categories: {
        category: { grants: { owner: ['upload', 'edit'] }, fields: ['amount', 'kind', 'due'] },
      },
    });
    const [file] = await uploaded([text('to index')], category.id);

    const list = await call(tok.owner, { method: 'GET', url: `/api/unindex-file?folder_id=${category.id}` });
    expect(list.json().data.items.map((f: { id: number }) => f.id)).toEqual([file?.id]);
    expect(
      (await call(tok.viewer, { method: 'GET', url: `/api/unindex-file?folder_id=${category.id}` })).json()
        .data.total,
    ).toBe(0);

    const bad = await call(tok.owner, {
      method: 'POST',
      url: '/api/submitmetas',
      payload: {
        file_id: file?.id,
        values: [
          { field_id: amount.id, value: 500 },
          { field_id: kind.id, value: 9 },
          { field_id: due.id, value: '2026-02-30' },
        ],
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(errorPaths(bad).sort()).toEqual(
      [`body.fields.${amount.id}`, `body.fields.${kind.id}`, `body.fields.${due.id}`].sort(),
    );
    const missing = await call(tok.owner, {
      method: 'POST',
      url: '/api/submitmetas',
      payload: { file_id: file?.id, values: [] },
    });
    expect(missing.json().errors).toEqual([
      { path: `body.fields.${amount.id}`, message: `"${amount.name}" is required` },
    ]);
    expect((await t.db.file.findUniqueOrThrow({ where: { id: file?.id } })).indexStatus).toBe('unindexed');

    const ok = await call(tok.owner, {
      method: 'POST',
      url: '/api/submitmetas',
      payload: {
        file_id: file?.id,
        values: [
          { field_id: amount.id, value: '42.5' },
          { field_id: kind.id, value: 2 },
          { field_id: due.id, value: '2026-03-01' },
        ],
      },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.index_status).toBe('indexed');
    expect(ok.json().data.values.map((v: { display: string }) => v.display)).toEqual([
      '42.5',
      'Receipt',
      '2026-03-01',
    ]);
    const again = await call(tok.owner, {
      method: 'POST',
      url: '/api/submitmetas',
      payload: { file_id: file?.id, values: [] },
    });
    expect(again.statusCode).toBe(409);

    const edit = await call(tok.owner, {
      method: 'POST',
      url: '/api/edit-file-user-field',
      payload: { file_id: file?.id, values: [{ field_id: amount.id, value: 7 }] },
    });
    expect(edit.json().data.values[0].value).toBe(7);
    expect(
      await t.db.job.count({
        where: { kind: 'notification.file_event', payload: { path: ['type'], equals: 'values_changed' } },
      }),
    ).toBeGreaterThan(0);
  });

  it('cancel-index-file drops an unindexed file and its versions, not an indexed one', async () => {
    const [file] = await uploaded([text('cancel me')]);
    const res = await call(tok.owner, {
      method: 'POST',
      url: '/api/cancel-index-file',
      payload: { file_id: file?.id },
    });
    expect(res.statusCode).toBe(200);
    expect(await t.db.file.count({ where: { id: file?.id } })).toBe(0);
    expect(await t.db.fileVersion.count({ where: { fileId: file?.id } })).toBe(0);
    const indexed = await indexedFile();
    expect(
      (
        await call(tok.owner, {
          method: 'POST',
          url: '/api/cancel-index-file',
          payload: { file_id: indexed.id },
        })
      ).statusCode,
    ).toBe(409);
  });
});

describe('one file', () => {
  it('file-view shows the whole file to who may see it; another user gets 404', async () => {
    const f = await indexedFile('view.txt');
    const res = await call(tok.viewer, { method: 'GET', url: `/api/file-view/${f.id}` });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      id: f.id,
      name: 'view.txt',
      folder_id: cat,
      version: 1,
      preview: 'text',
      permissions: { view: true, download: true, edit: false, delete: false, share: false },
      links: [],
    });
    expect((await call(tok.stranger, { method: 'GET', url: `/api/file-view/${f.id}` })).statusCode).toBe(404);
    expect((await call(null, { method: 'GET', url: `/api/file-view/${f.id}` })).statusCode).toBe(401);
  });

  it('renames (names sanitised), refuses a viewer (403) and an empty name (400)', async () => {
    const f = await indexedFile();
    const rename = (token: string, name: string) =>
      call(token, { method: 'POST', url: '/api/edit-file-name', payload: { file_id: f.id, name } });
    expect((await rename(tok.owner, 'a/b/Minutes\u200B.txt')).json().data.name).toBe('Minutes.txt');
    expect((await rename(tok.viewer, 'x')).statusCode).toBe(403);
    expect((await rename(tok.owner, '  ')).statusCode).toBe(400);
  });

  it('moves to a category you may upload into, with its next running number; not into a hidden one', async () => {
    const f = await indexedFile();
    const next = (await call(tok.owner, { method: 'GET', url: `/api/incremental-value/${other}` })).json()
      .data.next_value;
    const res = await call(tok.owner, {
      method: 'POST',
      url: '/api/update-file-category',
      payload: { file_id: f.id, folder_id: other },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ folder_id: other, incremental_value: next });
    const refused = await call(tok.owner, {
      method: 'POST',
      url: '/api/update-file-category',
      payload: { file_id: f.id, folder_id: hidden },
    });
    expect(refused.statusCode).toBe(404);
  });

  it('version-preview shows safe types inline and downloads the rest', async () => {
    const [txt, html] = await uploaded([
      text('inline me'),
      { content: Buffer.from('<!doctype html><script>1</script>'), filename: 'page.txt' },
    ]);
    const v1 = await t.db.file.findUniqueOrThrow({ where: { id: txt?.id } });
    const v2 = await t.db.file.findUniqueOrThrow({ where: { id: html?.id } });
    const a = await call(tok.owner, { method: 'GET', url: `/api/version-preview/${v1.currentVersionId}` });
    expect(a.headers['content-disposition']).toMatch(/^inline/);
    expect(a.headers['content-security-policy']).toBe('sandbox');
    expect(a.body).toBe('inline me');
    const b = await call(tok.owner, { method: 'GET', url: `/api/version-preview/${v2.currentVersionId}` });
    expect(b.headers['content-disposition']).toMatch(/^attachment/);
    expect(b.headers['content-type']).toContain('application/octet-stream');
    expect(
      (await call(tok.stranger, { method: 'GET', url: `/api/version-preview/${v1.currentVersionId}` }))
        .statusCode,
    ).toBe(404);
  });
});

describe('lists', () => {
  it('checked-out and favourites list only your files you may still see', async () => {
    const f = await indexedFile();
    await call(tok.owner, { method: 'POST', url: '/api/check-out', payload: { file_id: f.id } });
    await call(tok.viewer, { method: 'POST', url: '/api/favourite-file', payload: { file_id: f.id } });
    const out = await call(tok.owner, { method: 'GET', url: '/api/checked-out-files' });
    expect(out.json().data.items.map((x: { id: number }) => x.id)).toContain(f.id);
    expect(out.json().data.quantity).toBe(20);
    const favs = await call(tok.viewer, { method: 'GET', url: '/api/favorite-files' });
    expect(favs.json().data.items.map((x: { id: number }) => x.id)).toEqual([f.id]);
    // Restricted to its own grants (none for the viewer): it leaves the viewer's favourites.
    await call(tok.owner, {
      method: 'POST',
      url: '/api/update-file-permission',
      payload: { file_id: f.id, inherit_category: false, grants: [] },
    });
    expect((await call(tok.viewer, { method: 'GET', url: '/api/favorite-files' })).json().data.total).toBe(0);
    await call(tok.owner, { method: 'POST', url: '/api/check-in', ...multipart({ file_id: String(f.id) }) });
  });
});

describe('per-file permissions', () => {
  it('grants add to the category; restricted files take only their own; no right beyond yours', async () => {
    const f = await indexedFile();
    const res = await call(tok.owner, {
      method: 'POST',
      url: '/api/update-file-permission',
      payload: { file_id: f.id, grants: [{ user_id: u.stranger, download: true }] },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.grants).toHaveLength(1);
    expect((await call(tok.stranger, { method: 'GET', url: `/api/file-view/${f.id}` })).statusCode).toBe(200);
    expect((await call(tok.viewer, { method: 'GET', url: `/api/file-view/${f.id}` })).statusCode).toBe(200);

    await call(tok.owner, {
      method: 'POST',
      url: '/api/update-file-permission',
      payload: { file_id: f.id, inherit_category: false, grants: [{ user_id: u.stranger }] },
    });
    expect((await call(tok.viewer, { method: 'GET', url: `/api/file-view/${f.id}` })).statusCode).toBe(404);
    expect(
      (await call(tok.stranger, { method: 'GET', url: `/api/file-permissions/${f.id}` })).json().data.mine,
    ).toMatchObject({ view: true, edit: false });

    // The stranger holds share now and tries to hand out edit, which they lack.
    await call(tok.owner, {
      method: 'POST',
      url: '/api/update-file-permission',
      payload: { file_id: f.id, inherit_category: false, grants: [{ user_id: u.stranger, share: true }] },
    });
    const escalate = await call(tok.stranger, {
      method: 'POST',
      url: '/api/update-file-permission',
      payload: {
        file_id: f.id,
        inherit_category: false,
        grants: [{ user_id: u.stranger, share: true, edit: true }],
      },
    });
    expect(escalate.statusCode).toBe(403);
    expect(escalate.json().code).toBe('file.grant_beyond_yours');
    const bad = await call(tok.owner, {
      method: 'POST',
      url: '/api/update-file-permission',
      payload: { file_id: f.id, grants: [{ user_id: u.stranger, group_id: 1 }] },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('takes grants of one file sent at once one after the other: replaced whole, each audit from the last', async () => {
    const f = await indexedFile('raced.txt');
    const sets = [
      [u.stranger],
      [u.viewer],
      [u.stranger, u.viewer],
      [],
      [u.viewer],
      [u.stranger],
      [],
      [u.viewer],
    ];
    const answers = await Promise.all(
      sets.map((ids) =>
        call(tok.owner, {
          method: 'POST',
          url: '/api/update-file-permission',
          payload: { file_id: f.id, grants: ids.map((user_id) => ({ user_id })) },
        }),
      ),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(sets.map(() => 200));
    // The users granted, as each event found them and left them (named alike before and after).
    type Grants = { grants: Array<{ user_id: number }> };
    const users = (g: Grants) => g.grants.map((x) => x.user_id).sort();
    const events = await t.db.auditEvent.findMany({
      where: { action: 'file.permissions_changed', targetId: String(f.id) },
      orderBy: { id: 'asc' },
    });
    let granted: unknown[] = [];
    for (const e of events) {
      const { before, after } = e.details as { before: Grants; after: Grants };
      expect(users(before), `audit event ${e.id}`).toEqual(granted);
      granted = users(after);
    }
    const stored = await t.db.filePermission.findMany({ where: { fileId: f.id } });
    expect(stored.map((g) => g.userId).sort()).toEqual(granted);
  });
});

describe('sharing', () => {
  it('adds a grant a person or group lacks and widens one they have, never narrowing it', async () => {
    const f = await indexedFile('widened.txt');
    const {
      users: { a, b },
      groups: { g, h },
    } = await seed(t, { users: { a: { signIn: false }, b: { signIn: false } }, groups: { g: ['a'], h: [] } });
    const share = async (payload: object) => {
      const res = await call(tok.owner, { method: 'POST', url: `/api/share-file/${f.id}`, payload });
      expect(res.statusCode, res.body).toBe(200);
    };
    await share({ user_ids: [a.id], group_ids: [g.id], download: true, edit: false });
    await share({ user_ids: [b.id, a.id, b.id], group_ids: [h.id, g.id], download: false, edit: true });
    const grants = await t.db.filePermission.findMany({ where: { fileId: f.id }, orderBy: { id: 'asc' } });
    // Each grant as [user, group, download, edit]: all can view; none can delete or share.
    expect(
      grants.map((x) => {
        expect(x).toMatchObject({ canView: true, canDelete: false, canShare: false, grantedById: u.owner });
        return [x.userId, x.groupId, x.canDownload, x.canEdit];
      }),
    ).toEqual([
      [a.id, null, true, true],
      [null, g.id, true, true],
      [b.id, null, false, true],
      [null, h.id, false, true],
    ]);
  });

  it('shares with users and groups: grants, a notification and an e-mail each', async () => {
    const f = await indexedFile('shared.txt');
    const {
      users: { member },
      groups: { group },
    } = await seed(t, { users: { member: { signIn: false } }, groups: { group: ['member'] } });
    const res = await call(tok.owner, {
      method: 'POST',
      url: `/api/share-file/${f.id}`,
      payload: { user_ids: [u.stranger], group_ids: [group.id], message: 'Have a look' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(
      res
        .json()
        .data.shared_with.map((p: { id: number }) => p.id)
        .sort(),
    ).toEqual([u.stranger, member.id].sort());
    expect(await t.db.notification.count({ where: { fileId: f.id, kind: 'file.shared' } })).toBe(2);
    expect(await t.db.mailJob.count({ where: { kind: 'file_shared' } })).toBeGreaterThanOrEqual(2);
    expect((await call(tok.stranger, { method: 'GET', url: `/api/file-view/${f.id}` })).statusCode).toBe(200);
    // The viewer may not share (403), a stranger to a hidden file gets 404.
    expect(
      (
        await call(tok.viewer, {
          method: 'POST',
          url: `/api/share-file/${f.id}`,
          payload: { public_link: true },
        })
      ).statusCode,
    ).toBe(403);
    const bad = await call(tok.owner, {
      method: 'POST',
      url: `/api/share-file/${f.id}`,
      payload: { user_ids: [999999] },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('e-mails each active person told but the sharer, in the order of their ids, each with its job', async () => {
    const f = await indexedFile('mailed.txt');
    const {
      users: { a, b, c },
      groups: { g },
    } = await seed(t, {
      users: {
        a: { firstName: 'Ann', lastName: 'Ash', signIn: false },
        b: { firstName: 'Ben', lastName: 'Birch', signIn: false },
        c: { firstName: 'Cy', lastName: 'Cole', signIn: false },
        gone: { status: 'deactivated', signIn: false },
      },
      groups: { g: ['b', 'gone', { id: u.owner }, 'a'] },
    });
    const mark = await written(t);
    const lastMail = await t.db.mailJob.findFirst({ orderBy: { id: 'desc' }, select: { id: true } });
    const res = await call(tok.owner, {
      method: 'POST',
      url: `/api/share-file/${f.id}`,
      payload: { user_ids: [c.id, a.id], group_ids: [g.id], message: 'Have a look' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const mails = await t.db.mailJob.findMany({
      where: { id: { gt: lastMail?.id ?? 0 } },
      orderBy: { id: 'asc' },
    });
    const subject = `${people.owner.username} shared "mailed.txt" with you`;
    const body = (name: string) =>
      [
        `Hello ${name},`,
        '',
        `${people.owner.username} shared the file "mailed.txt" with you in Quire.`,
        '',
        'Have a look',
        '',
        `Open it at ${t.app.deps.config.publicUrl}/files/${f.id}`,
      ].join('\n');
    // Each mail as [kind, to, subject, text]: queued, plain text, by the sharer, 5 attempts.
    expect(
      mails.map((m) => {
        expect(m).toMatchObject({
          status: 'queued',
          html: null,
          createdById: u.owner,
          maxAttempts: 5,
          attempts: 0,
        });
        return [m.kind, m.to, m.subject, m.text];
      }),
    ).toEqual([
      ['file_shared', a.email, subject, body('Ann Ash')],
      ['file_shared', b.email, subject, body('Ben Birch')],
      ['file_shared', c.email, subject, body('Cy Cole')],
    ]);
    const after = await writtenSince(t, mark);
    expect(after.jobs).toEqual(mails.map((m) => ({ kind: 'mail.send', payload: { mail_id: m.id } })));
    const jobs = await t.db.job.findMany({ where: { id: { gt: mark.job } }, orderBy: { id: 'asc' } });
    expect(jobs.map((j) => [j.key, j.status, j.maxAttempts])).toEqual(
      mails.map((m) => [`mail:${m.id}`, 'queued', 5]),
    );
    expect(after.audit).toEqual([
      {
        userId: u.owner,
        type: 'file',
        action: 'file.shared',
        message: 'Shared "mailed.txt" with 3 people',
        targetType: 'file',
        targetId: String(f.id),
        details: {
          user_ids: [c.id, a.id],
          group_ids: [g.id],
          download: true,
          edit: false,
          link: null,
          revoked: [],
        },
      },
    ]);
  });

  it('a public link works signed out while live: expiry, password, revocation, counted downloads', async () => {
    const f = await indexedFile('public.txt');
    const made = await call(tok.owner, {
      method: 'POST',
      url: `/api/share-file/${f.id}`,
      payload: { public_link: true },
    });
    const link = made.json().data.link;
    expect(link.token.length).toBeGreaterThanOrEqual(43); // 32 random bytes: 256 bits
    expect(await t.db.share.count({ where: { tokenHash: link.token } })).toBe(0); // only its hash is kept
    const view = await call(null, { method: 'GET', url: `/api/public/file-view/${link.token}` });
    expect(view.json().data).toMatchObject({ password_required: false, name: 'public.txt', preview: 'text' });
    const dl = await call(null, { method: 'GET', url: `/api/public/file-content/${link.token}` });
    expect(dl.statusCode).toBe(200);
    expect(dl.headers['content-disposition']).toMatch(/^attachment/);
    expect((await t.db.share.findUniqueOrThrow({ where: { id: link.id } })).downloadCount).toBe(1);
    // A file id is never a link.
    const wrong = await call(null, { method: 'GET', url: `/api/public/file-view/${f.id}` });
    expect(wrong.statusCode).toBe(404);

    // Revoked: the same answer as a wrong token.
    await call(tok.owner, {
      method: 'POST',
      url: `/api/share-file/${f.id}`,
      payload: { revoke_link_ids: [link.id] },
    });
    const revoked = await call(null, { method: 'GET', url: `/api/public/file-view/${link.token}` });
    expect(revoked.statusCode).toBe(404);
    expect(revoked.json()).toEqual(wrong.json());

    const past = await call(tok.owner, {
      method: 'POST',
      url: `/api/share-file/${f.id}`,
      payload: { public_link: true, expires_at: '2000-01-01T00:00:00Z' },
    });
    expect(past.statusCode).toBe(400);

    const locked = (
      await call(tok.owner, {
        method: 'POST',
        url: `/api/share-file/${f.id}`,
        payload: { public_link: true, password: 'open sesame 1' },
      })
    ).json().data.link;
    expect(
      (await call(null, { method: 'GET', url: `/api/public/file-view/${locked.token}` })).json().data,
    ).toMatchObject({ password_required: true, name: null });
    expect(
      (await call(null, { method: 'GET', url: `/api/public/file-content/${locked.token}` })).statusCode,
    ).toBe(404);
    const badPassword = await call(null, {
      method: 'POST',
      url: `/api/public/file-unlock/${locked.token}`,
      payload: { password: 'nope nope' },
    });
    const badToken = await call(null, {
      method: 'POST',
      url: '/api/public/file-unlock/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      payload: { password: 'open sesame 1' },
    });
    expect(badPassword.statusCode).toBe(404);
    expect(badPassword.json()).toEqual(badToken.json());
    const ok = await call(null, {
      method: 'POST',
      url: `/api/public/file-unlock/${locked.token}`,
      payload: { password: 'open sesame 1' },
    });
    const access = ok.json().data.access;
    const inline = await call(null, {
      method: 'GET',
      url: `/api/public/file-content/${locked.token}?access=${access}&disposition=inline`,
    });
    expect(inline.statusCode).toBe(200);
    expect(inline.body).toBe('content of public.txt\n');
  });

  it('guessing is rate-limited', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++)
      statuses.push(
        (
          await call(null, {
            method: 'POST',
            url: `/api/public/file-unlock/guess${i}xxxxxxxxxxxxxxxx`,
            payload: { password: 'x' },
            remoteAddress: '10.9.9.9',
          })
        ).statusCode,
      );
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(404));
    expect(statuses.slice(10)).toEqual([429, 429]);
  });
});

describe('POST /api/download-many-other-files', () => {
  it('combines PDFs and images into selected_files.pdf; all or nothing', async () => {
    const f = await indexedFile();
    const form = multipart({
      file_id: String(f.id),
      file: [
        { content: await pdf(2), filename: 'a.pdf' },
        { content: tinyPng(4, 3), filename: 'b.png' },
        text('c'),
      ],
    });
    const att = await call(tok.owner, { method: 'POST', url: '/api/other-files-upload', ...form });
    expect(att.statusCode, att.body).toBe(200);
    const [a, b, c] = att.json().data as Array<{ id: number }>;
    const res = await call(tok.viewer, {
      method: 'POST',
      url: '/api/download-many-other-files',
      payload: { ids: [a?.id, b?.id] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('selected_files.pdf');
    const doc = await PDFDocument.load(res.rawPayload);
    expect(doc.getPageCount()).toBe(3);
    const mixed = await call(tok.owner, {
      method: 'POST',
      url: '/api/download-many-other-files',
      payload: { ids: [a?.id, c?.id] },
    });
    expect(mixed.statusCode).toBe(400);
    const hiddenOne = await call(tok.stranger, {
      method: 'POST',
      url: '/api/download-many-other-files',
      payload: { ids: [a?.id] },
    });
    expect(hiddenOne.statusCode).toBe(404);
    expect(hiddenOne.body).not.toContain(String(a?.id));
  });
});

describe('as admins', () => {
  it('a File Control Admin sees every file, the Auditor views but does not edit', async () => {
    const {
      files: { f },
    } = await seed(t, { files: { f: { owner: { id: u.owner }, category: { id: hidden } } } });
    expect((await call(tok.admin, { method: 'GET', url: `/api/file-view/${f.id}` })).statusCode).toBe(200);
    expect((await call(tok.auditor, { method: 'GET', url: `/api/file-view/${f.id}` })).statusCode).toBe(200);
    expect(
      (
        await call(tok.auditor, {
          method: 'POST',
          url: '/api/edit-file-name',
          payload: { file_id: f.id, name: 'x' },
        })
      ).statusCode,
    ).toBe(403);
  });
});
