import { allEndpoints, objectGuardParts } from '@quire/contract';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs } from '../../../test/access.js';
import type { TestContext } from '../../../test/app.js';
import { TEST_PASSWORD } from '../../../test/factories.js';
import { multipart } from '../../../test/multipart.js';
import { seed, seededApp } from '../../../test/seed.js';

// A legal hold refuses every call that deletes, purges, moves, versions or restores over a
// file, for everyone (here a Company Admin), naming the hold's reason; the same call passes
// once the hold is released. The list of calls is generated from the contract (every entry
// whose object guard asks the edit or delete right on a file, an attachment or a version),
// plus the calls that change files without such a guard; a call added later fails the first
// test until it is put in one of the tables below.

const APP_SECRET = 'retention-tests-secret-0123456789';
const REASON = 'Dispute 2026-17 with Northwind: keep every record';

let t: TestContext;
let admin: string;
let adminId: number;
let fieldId: number;
let elsewhere: number;
let backupId: number;
/** The held parent of the category.updateFolder case. */
let heldParent = 0;

/** Change calls with no object guard on a file: listed by hand. */
const UNGUARDED_CHANGES = [
  'category.updateFolder',
  'fileBulk.bulkMove',
  'trash.deleteTrashFile',
  'category.deleteFolder',
  'backup.restore',
  'retention.decideDispositions',
];

/** Entries with an edit right that change no content of the file: open while it is held. */
const OPEN_WHILE_HELD: Record<string, string> = {
  'workflow.initiateWorkflow': 'starts a run; a run moves, versions or deletes nothing by itself',
  'dashboardAndSearch.recognizeText': 'reads the text again: derived content, never a version',
};

function generatedChangeCalls() {
  return allEndpoints()
    .filter(({ def }) => {
      if (!def.object) return false;
      const { kind, right } = objectGuardParts(def.object);
      return ['file', 'attachment', 'version'].includes(kind) && (right === 'edit' || right === 'delete');
    })
    .map((e) => e.operationId);
}

interface Fixture {
  fileId: number;
  categoryId: number;
  firstVersionId: number;
  attachmentId: number;
}

const body = (method: 'POST' | 'DELETE', url: string, payload?: object): InjectOptions => ({
  method,
  url,
  ...(payload ? { payload } : {}),
});

function upload(url: string, fileId: number, extra: Record<string, string> = {}): InjectOptions {
  const form = multipart({
    file_id: String(fileId),
    ...extra,
    file: { content: Buffer.from('a new version\n'), filename: 'new.txt', contentType: 'text/plain' },
  });
  return { method: 'POST', url, payload: form.payload, headers: form.headers };
}

/** Each held call: how the fixture is prepared, and the request. */
const CALLS: Record<
  string,
  { prepare?: (f: Fixture) => Promise<void>; request: (f: Fixture) => InjectOptions }
> = {
  'file.otherFilesUpload': { request: (f) => upload('/api/other-files-upload', f.fileId) },
  'file.editFileUserField': {
    request: (f) =>
      body('POST', '/api/edit-file-user-field', {
        file_id: f.fileId,
        values: [{ field_id: fieldId, value: 'changed' }],
      }),
  },
  'file.editFileName': {
    request: (f) => body('POST', '/api/edit-file-name', { file_id: f.fileId, name: 'renamed.txt' }),
  },
  'file.updateFileCategory': {
    request: (f) => body('POST', '/api/update-file-category', { file_id: f.fileId, folder_id: elsewhere }),
  },
  'file.submitMetas': {
    prepare: (f) => unindex(f),
    request: (f) =>
      body('POST', '/api/submitmetas', { file_id: f.fileId, values: [{ field_id: fieldId, value: 'x' }] }),
  },
  'file.cancelIndexFile': {
    prepare: (f) => unindex(f),
    request: (f) => body('POST', '/api/cancel-index-file', { file_id: f.fileId }),
  },
  'fileActions.deleteOtherFiles': {
    request: (f) => body('POST', '/api/delete-otherfiles', { ids: [f.attachmentId] }),
  },
  'fileActions.delete': { request: (f) => body('POST', '/api/delete', { file_ids: [f.fileId] }) },
  'fileActions.rollbackVersion': {
    request: (f) =>
      body('POST', '/api/rollback-version', { file_id: f.fileId, version_id: f.firstVersionId }),
  },
  'fileActions.lockFile': {
    request: (f) => body('POST', '/api/lock-file', { file_id: f.fileId, status: '1' }),
  },
  'fileActions.checkOut': { request: (f) => body('POST', '/api/check-out', { file_id: f.fileId }) },
  'fileActions.checkIn': {
    prepare: async (f) => {
      await t.db.file.update({
        where: { id: f.fileId },
        data: { checkedOutById: adminId, checkedOutAt: new Date() },
      });
    },
    request: (f) => upload('/api/check-in', f.fileId),
  },
  'fileBulk.bulkMove': {
    request: (f) => body('POST', '/api/files/bulk-move', { file_ids: [f.fileId], folder_id: elsewhere }),
  },
  'trash.deleteTrashFile': {
    prepare: async (f) => {
      await t.db.file.update({
        where: { id: f.fileId },
        data: { deletedAt: new Date(), deletedById: adminId },
      });
    },
    request: (f) => body('DELETE', `/api/files/trash-file/${f.fileId}`),
  },
  'category.updateFolder': {
    // The file's category sits under a held one; moving it to the top would take its files
    // out of the hold.
    prepare: async (f) => {
      heldParent = (await seed(t, { categories: { held: {} } })).categories.held.id;
      await t.db.category.update({ where: { id: f.categoryId }, data: { parentId: heldParent } });
    },
    request: (f) => body('POST', '/api/update/folder', { folder_id: f.categoryId, parent_id: null }),
  },
  'category.deleteFolder': {
    request: (f) => body('POST', '/api/deleteFolder', { folder_id: f.categoryId, confirm_file_count: 1 }),
  },
  'retention.decideDispositions': {
    request: () => body('POST', '/api/retention/dispositions/decide', { ids: [0], decision: 'approve' }),
  },
  'backup.restore': {
    request: () =>
      body('POST', `/api/restore_backup/${backupId}`, { password: TEST_PASSWORD, confirmation: 'RESTORE' }),
  },
};

async function unindex(f: Fixture) {
  await t.db.file.update({ where: { id: f.fileId }, data: { indexStatus: 'unindexed', indexedAt: null } });
}

/** A file alone in a category of its own, with two versions and one other file. */
async function fixture(): Promise<Fixture> {
  const {
    categories: { category },
    files: { file },
  } = await seed(t, {
    categories: { category: { fields: [{ id: fieldId }] } },
    files: { file: { owner: { id: adminId }, category: 'category' } },
  });
  const first = await t.db.fileVersion.findFirstOrThrow({ where: { fileId: file.id } });
  const second = await t.db.fileVersion.create({
    data: { ...first, id: undefined, number: 2, createdAt: undefined } as never,
  });
  await t.db.file.update({ where: { id: file.id }, data: { currentVersionId: second.id } });
  const attachment = await t.db.attachment.create({
    data: {
      fileId: file.id,
      blobId: first.blobId,
      name: 'note.txt',
      mimeType: 'text/plain',
      size: first.size,
      uploadedById: adminId,
    },
  });
  return { fileId: file.id, categoryId: category.id, firstVersionId: first.id, attachmentId: attachment.id };
}

/** What a refused change must leave as it was. */
async function state(f: Fixture) {
  const file = await t.db.file.findUnique({
    where: { id: f.fileId },
    select: {
      name: true,
      categoryId: true,
      deletedAt: true,
      currentVersionId: true,
      indexStatus: true,
      lockedById: true,
      checkedOutById: true,
      _count: { select: { versions: true, attachments: true, values: true } },
    },
  });
  const category = await t.db.category.findUnique({
    where: { id: f.categoryId },
    select: { deletedAt: true, parentId: true },
  });
  const restoring = await t.db.backup.count({ where: { status: 'restoring' } });
  return { file, category, restoring };
}

const hold = async (target: 'file' | 'category', targetId: number) => {
  const res = await callAs(t, admin, {
    method: 'POST',
    url: '/api/retention/holds',
    payload: { target, target_id: targetId, reason: REASON },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id as number;
};

const release = async (id: number) => {
  const res = await callAs(t, admin, {
    method: 'POST',
    url: `/api/retention/holds/${id}/release`,
    payload: { reason: 'Settled' },
  });
  expect(res.statusCode, res.body).toBe(200);
};

beforeAll(async () => {
  const world = await seededApp(
    {
      users: { admin: { accessType: 'COMPANY ADMIN' } },
      fields: { text: { type: 'text' } },
      categories: { elsewhere: { fields: ['text'] } },
    },
    { APP_SECRET },
  );
  t = world.t;
  ({ id: adminId, token: admin } = world.users.admin);
  fieldId = world.fields.text.id;
  elsewhere = world.categories.elsewhere.id;
  // A backup made before any hold, for the restore's case.
  const made = await callAs(t, admin, { method: 'POST', url: '/api/create_backup' });
  expect(made.statusCode, made.body).toBe(200);
  backupId = made.json().data.id;
  await t.app.jobs.runDue();
  expect((await t.db.backup.findUniqueOrThrow({ where: { id: backupId } })).status).toBe('succeeded');
}, 120_000);
afterAll(() => t.close());

describe('legal hold in the change path', () => {
  it('covers every call that deletes, moves, versions or restores (generated from the contract)', () => {
    const generated = generatedChangeCalls();
    const expected = [...generated.filter((id) => !(id in OPEN_WHILE_HELD)), ...UNGUARDED_CHANGES].sort();
    expect(Object.keys(CALLS).sort()).toEqual(expected);
    for (const id of Object.keys(OPEN_WHILE_HELD)) expect(generated).toContain(id);
    for (const id of UNGUARDED_CHANGES) expect(allEndpoints().map((e) => e.operationId)).toContain(id);
  });

  // The restore replaces the database: it runs last, apart (below).
  const perFile = Object.keys(CALLS).filter((id) => id !== 'backup.restore');

  it.each(perFile)(
    '%s is refused on a held file, audited, and passes once the hold is released',
    async (id) => {
      const call = CALLS[id] as (typeof CALLS)[string];
      const f = await fixture();
      await call.prepare?.(f);
      // A disposition to approve: the file's rule purges it.
      let disposition = 0;
      if (id === 'retention.decideDispositions') {
        const rule = await t.db.retentionRule.create({
          data: { categoryId: f.categoryId, keepFor: 1, unit: 'days', startFrom: 'upload', action: 'purge' },
        });
        disposition = (
          await t.db.retentionDisposition.create({
            data: {
              fileId: f.fileId,
              ruleId: rule.id,
              ruleSummary: 'Keep 1 day from upload, then purge',
              action: 'purge',
              dueAt: new Date(),
            },
          })
        ).id;
      }
      const request = (): InjectOptions => {
        const r = call.request(f);
        return disposition ? { ...r, payload: { ids: [disposition], decision: 'approve' } } : r;
      };
      // Category deletion: the hold on the category itself (its only file is held through it);
      // a category's move: the hold on the category above it.
      const holdId =
        id === 'category.deleteFolder'
          ? await hold('category', f.categoryId)
          : id === 'category.updateFolder'
            ? await hold('category', heldParent)
            : await hold('file', f.fileId);
      const before = await state(f);
      const refusals = await t.db.auditEvent.count({ where: { action: 'access.denied' } });
      const res = await callAs(t, admin, request());
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toMatchObject({ code: 'retention.legal_hold' });
      expect(res.json().message).toContain(REASON);
      expect(await state(f)).toEqual(before);
      expect(await t.db.auditEvent.count({ where: { action: 'access.denied' } })).toBe(refusals + 1);

      await release(holdId);
      const again = await callAs(t, admin, request());
      expect(again.statusCode, again.body).toBe(200);
    },
  );

  it('a hold on a category reaches the files of its sub-categories; a saved-search hold its matches', async () => {
    const {
      categories: { parent, child },
      files: { file },
    } = await seed(t, {
      categories: { parent: {}, child: { parent: 'parent' } },
      files: { file: { owner: { id: adminId }, category: 'child', name: 'deep.txt' } },
    });
    const holdId = await hold('category', parent.id);
    const refused = await callAs(t, admin, body('POST', '/api/delete', { file_ids: [file.id] }));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain(`on category "${parent.name}"`);
    await release(holdId);

    const view = await t.db.savedView.create({
      data: { userId: adminId, name: 'Deep files', query: { category_id: child.id, fields: [] } },
    });
    const res = await callAs(t, admin, {
      method: 'POST',
      url: '/api/retention/holds',
      payload: { target: 'saved_view', target_id: view.id, reason: REASON },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ target: 'saved_view', target_name: 'Deep files', file_count: 1 });
    const again = await callAs(t, admin, body('POST', '/api/delete', { file_ids: [file.id] }));
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toContain('saved search "Deep files"');
  });

  it('backup.restore is refused while any hold is in force, and queued once none is', async () => {
    const f = await fixture();
    const holdId = await hold('file', f.fileId);
    const before = await state(f);
    const res = await callAs(t, admin, CALLS['backup.restore']?.request(f) as InjectOptions);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({ code: 'retention.legal_hold' });
    expect(await state(f)).toEqual(before);
    await release(holdId);
    // Other holds set by the tests above are released or on files this test does not need.
    await t.db.legalHold.updateMany({
      where: { releasedAt: null },
      data: { releasedAt: new Date(), releasedById: adminId },
    });
    const again = await callAs(t, admin, CALLS['backup.restore']?.request(f) as InjectOptions);
    expect(again.statusCode, again.body).toBe(200);
    // A hold set while the restore waits in the queue refuses it when it runs: nothing restored.
    await hold('file', f.fileId);
    await t.app.jobs.runDue();
    const row = await t.db.backup.findUniqueOrThrow({ where: { id: backupId } });
    expect(row.error).toMatch(/legal hold is in force/);
    expect(row.restoredAt).toBeNull();
    expect(await t.db.file.findUnique({ where: { id: f.fileId } })).not.toBeNull();
  });
});
