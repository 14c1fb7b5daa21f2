import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs } from '../../../test/access.js';
import type { TestContext } from '../../../test/app.js';
import { createCategory, createFile } from '../../../test/factories.js';
import { multipart } from '../../../test/multipart.js';
import { type SeededUser, seededApp } from '../../../test/seed.js';
import { designWorkflow } from '../../../test/workflows.js';

// Issue 23, point 11: while a file waits in a workflow step, every call that changes it goes
// through the one change path (`holdForChange` / `assertMayChange` in file.service.ts), which
// lets only that step's assignees and File Control writers through. Each change call is
// tried by the file's owner (refused, 403, nothing changed) and by the step's assignee (done).

let t: TestContext;
let admin: string;
let people: Record<'owner' | 'alice' | 'bob', SeededUser>;
let category: { id: number };
let other: { id: number };
let field: { id: number };
let workflowId: number;

const ALL = ['upload', 'edit', 'delete', 'share'] as const;

beforeAll(async () => {
  const grants = { owner: [...ALL], alice: [...ALL] };
  const world = await seededApp({
    users: { fileControl: { accessType: 'File Control Admin' }, owner: {}, alice: {}, bob: {} },
    fields: { field: { type: 'text' } },
    categories: { category: { grants, fields: ['field'] }, other: { grants, fields: ['field'] } },
  });
  const { fileControl, ...rest } = world.users;
  ({
    t,
    categories: { category, other },
    fields: { field },
  } = world);
  admin = fileControl.token;
  people = rest;
  workflowId = (await designWorkflow(t, admin, { steps: [{ name: 'Review', users: [people.alice.id] }] })).id;
});
afterAll(() => t.close());

const as = (who: keyof typeof people | 'admin', opts: InjectOptions) =>
  callAs(t, who === 'admin' ? admin : people[who].token, opts);

const post = (url: string, payload: object): InjectOptions => ({ method: 'POST', url, payload });

function upload(url: string, fields: Record<string, string>, name = 'extra.txt'): InjectOptions {
  const form = multipart({
    ...fields,
    file: { content: Buffer.from(`content of ${name}\n`), filename: name },
  });
  return { method: 'POST', url, headers: form.headers, payload: form.payload };
}

/** A file of the owner's, waiting in "Review" (assigned to alice); `prepare` runs before the start. */
async function fileInReview(prepare?: (fileId: number) => Promise<void>) {
  const file = await createFile(t.db, t.app.deps.blobs, {
    ownerId: people.owner.id,
    categoryId: category.id,
  });
  await prepare?.(file.id);
  const res = await as(
    'owner',
    post('/api/initiate-workflow', { workflow_id: workflowId, file_ids: [file.id] }),
  );
  expect(res.statusCode, res.body).toBe(200);
  return file.id;
}

/** Everything a change of file `id` could touch. */
async function snapshot(id: number) {
  const f = await t.db.file.findUniqueOrThrow({ where: { id } });
  return {
    file: [
      f.name,
      f.categoryId,
      f.currentVersionId,
      f.lockedById,
      f.checkedOutById,
      f.deletedAt,
      f.hasOwnPermissions,
      f.updatedAt.toISOString(),
    ],
    versions: await t.db.fileVersion.count({ where: { fileId: id } }),
    attachments: await t.db.attachment.count({ where: { fileId: id } }),
    values: await t.db.fileFieldValue.findMany({ where: { fileId: id } }),
    grants: await t.db.filePermission.count({ where: { fileId: id } }),
    shares: await t.db.share.count({ where: { fileId: id } }),
    events: await t.db.auditEvent.count({ where: { type: 'file', targetId: String(id) } }),
  };
}

async function addVersion(fileId: number) {
  const res = await as('owner', post('/api/check-out', { file_id: fileId }));
  expect(res.statusCode, res.body).toBe(200);
  const back = await as('owner', upload('/api/check-in', { file_id: String(fileId) }, 'v2.txt'));
  expect(back.statusCode, back.body).toBe(200);
}

async function attachment(fileId: number) {
  const res = await as('owner', upload('/api/other-files-upload', { file_id: String(fileId) }));
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data[0].id as number;
}

interface ChangeCase {
  name: string;
  /** Before the run starts; returns what `call` needs. */
  prepare?: (fileId: number) => Promise<number | undefined>;
  call: (fileId: number, prepared?: number) => InjectOptions;
  /** The assignee may make it too (false where the call is the owner's alone: their check-out). */
  assignee?: boolean;
}

const CHANGES: ChangeCase[] = [
  { name: 'edit-file-name', call: (id) => post('/api/edit-file-name', { file_id: id, name: 'renamed.txt' }) },
  {
    name: 'edit-file-user-field',
    call: (id) =>
      post('/api/edit-file-user-field', { file_id: id, values: [{ field_id: field.id, value: 'x' }] }),
  },
  {
    name: 'update-file-category',
    call: (id) => post('/api/update-file-category', { file_id: id, folder_id: other.id }),
  },
  {
    name: 'files/bulk-move',
    call: (id) => post('/api/files/bulk-move', { file_ids: [id], folder_id: other.id }),
  },
  {
    name: 'other-files-upload',
    call: (id) => upload('/api/other-files-upload', { file_id: String(id) }),
  },
  {
    name: 'delete-otherfiles',
    prepare: attachment,
    call: (_id, attachmentId) => post('/api/delete-otherfiles', { ids: [attachmentId] }),
  },
  {
    name: 'rollback-version',
    prepare: async (id) => {
      await addVersion(id);
      return (await t.db.fileVersion.findFirstOrThrow({ where: { fileId: id, number: 1 } })).id;
    },
    call: (id, versionId) => post('/api/rollback-version', { file_id: id, version_id: versionId }),
  },
  {
    name: 'check-in with a new version',
    prepare: async (id) => {
      expect((await as('owner', post('/api/check-out', { file_id: id }))).statusCode).toBe(200);
      return undefined;
    },
    call: (id) => upload('/api/check-in', { file_id: String(id) }, 'v2.txt'),
    assignee: false,
  },
  { name: 'check-out', call: (id) => post('/api/check-out', { file_id: id }) },
  { name: 'lock-file', call: (id) => post('/api/lock-file', { file_id: id, status: '1' }) },
  {
    name: 'update-file-permission',
    call: (id) =>
      post('/api/update-file-permission', {
        file_id: id,
        inherit_category: true,
        grants: [{ user_id: people.bob.id }],
      }),
  },
  {
    name: 'share-file',
    call: (id) => ({ method: 'POST', url: `/api/share-file/${id}`, payload: { user_ids: [people.bob.id] } }),
  },
  { name: 'delete', call: (id) => post('/api/delete', { file_ids: [id] }) },
];

describe('a file waiting in a workflow step takes changes only from its assignees', () => {
  for (const c of CHANGES)
    it(`${c.name}: the owner is refused (403, nothing changed); the assignee is not`, async () => {
      let prepared: number | undefined;
      const id = await fileInReview(async (fileId) => {
        prepared = await c.prepare?.(fileId);
      });
      const before = await snapshot(id);
      const refused = await as('owner', c.call(id, prepared));
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.json().message).toMatch(/is in the workflow step "Review": only that step's assignees/);
      expect(await snapshot(id)).toEqual(before);
      const denied = await t.db.auditEvent.findFirst({
        where: { action: 'access.denied', userId: people.owner.id },
        orderBy: { id: 'desc' },
      });
      expect(denied?.message).toContain('workflow step "Review"');
      if (c.assignee === false) return;
      const done = await as('alice', c.call(id, prepared));
      expect(done.statusCode, done.body).toBe(200);
      expect(await snapshot(id)).not.toEqual(before);
    });

  it('lets a File Control writer change the file, and the owner again once it left the step', async () => {
    const id = await fileInReview();
    const res = await as('admin', post('/api/edit-file-name', { file_id: id, name: 'by-admin.txt' }));
    expect(res.statusCode, res.body).toBe(200);
    const approve = await as(
      'alice',
      post('/api/manual-triger', {
        file_id: id,
        workflow_step_id: (await t.db.workflowInstance.findFirstOrThrow({ where: { fileId: id } }))
          .currentStepId,
        action: 'approve',
      }),
    );
    expect(approve.statusCode, approve.body).toBe(200);
    const after = await as('owner', post('/api/edit-file-name', { file_id: id, name: 'mine-again.txt' }));
    expect(after.statusCode, after.body).toBe(200);
  });

  it('leaves comments and follows open to those who may see the file', async () => {
    const id = await fileInReview();
    expect(
      (await as('owner', post('/api/file-comment', { file_id: id, comment: 'Any news?' }))).statusCode,
    ).toBe(200);
    expect((await as('owner', post('/api/follow', { file_id: id }))).statusCode).toBe(200);
  });

  it('refuses a move of many files whole, naming the file in a step', async () => {
    const free = await createFile(t.db, t.app.deps.blobs, {
      ownerId: people.owner.id,
      categoryId: category.id,
    });
    const held = await fileInReview();
    const name = (await t.db.file.findUniqueOrThrow({ where: { id: held } })).name;
    const res = await as(
      'owner',
      post('/api/files/bulk-move', { file_ids: [free.id, held], folder_id: other.id }),
    );
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().message).toContain(name);
    expect((await t.db.file.findUniqueOrThrow({ where: { id: free.id } })).categoryId).toBe(category.id);
  });

  it('deleting a category refuses, whole, while one of its files is held by someone else', async () => {
    const doomed = await createCategory(t.db, { grants: [{ userId: people.owner.id, rights: [...ALL] }] });
    const file = await createFile(t.db, t.app.deps.blobs, {
      ownerId: people.owner.id,
      categoryId: doomed.id,
    });
    expect((await as('owner', post('/api/lock-file', { file_id: file.id, status: '1' }))).statusCode).toBe(
      200,
    );
    const del = () => as('admin', post('/api/deleteFolder', { folder_id: doomed.id, confirm_file_count: 1 }));
    const refused = await del();
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().message).toContain(`"${file.name}"`);
    expect(refused.json().message).toMatch(/Nothing was deleted\.$/);
    expect((await t.db.category.findUniqueOrThrow({ where: { id: doomed.id } })).deletedAt).toBeNull();
    expect((await t.db.file.findUniqueOrThrow({ where: { id: file.id } })).deletedAt).toBeNull();
    expect((await as('owner', post('/api/lock-file', { file_id: file.id, status: '0' }))).statusCode).toBe(
      200,
    );
    expect((await del()).statusCode).toBe(200);
    expect((await t.db.file.findUniqueOrThrow({ where: { id: file.id } })).deletedAt).not.toBeNull();
  });

  it('deleting a category names the first of its files that may not change, with that refusal', async () => {
    const doomed = await createCategory(t.db, { grants: [{ userId: people.owner.id, rights: [...ALL] }] });
    const [held, locked] = [
      await createFile(t.db, t.app.deps.blobs, { ownerId: people.owner.id, categoryId: doomed.id }),
      await createFile(t.db, t.app.deps.blobs, { ownerId: people.owner.id, categoryId: doomed.id }),
    ];
    const lock = await as('owner', post('/api/lock-file', { file_id: locked.id, status: '1' }));
    expect(lock.statusCode).toBe(200);
    const hold = await as(
      'admin',
      post('/api/retention/holds', { target: 'file', target_id: held.id, reason: 'Audit' }),
    );
    expect(hold.statusCode, hold.body).toBe(200);
    const refused = await as(
      'admin',
      post('/api/deleteFolder', { folder_id: doomed.id, confirm_file_count: 2 }),
    );
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().code).toBe('retention.legal_hold');
    expect(refused.json().message).toMatch(new RegExp(`^"${held.name}": "${held.name}" is under legal hold`));
    expect(refused.json().message).toMatch(/Nothing was deleted\.$/);
    expect((await t.db.category.findUniqueOrThrow({ where: { id: doomed.id } })).deletedAt).toBeNull();
    const release = await as(
      'admin',
      post(`/api/retention/holds/${hold.json().data.id}/release`, { reason: 'Settled' }),
    );
    expect(release.statusCode).toBe(200);
    const next = await as(
      'admin',
      post('/api/deleteFolder', { folder_id: doomed.id, confirm_file_count: 2 }),
    );
    expect(next.statusCode).toBe(409);
    expect(next.json().message).toMatch(new RegExp(`^"${locked.name}": `));
  });
});
