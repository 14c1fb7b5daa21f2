import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs } from '../../../test/access.js';
import type { TestContext } from '../../../test/app.js';
import { type SeedSpec, seededApp, type World } from '../../../test/seed.js';
import { takeArrival } from './take-arrival.service.js';

/** A group as the intake calls answer it: its id and name. */
const groupRef = (g: { id: number; name: string }) => ({ id: g.id, name: g.name });

// What a source or a rule leaves unindexed for a person or a group: every member of the group
// finds the file in their unindexed files and may index or drop it as its owner may; anyone
// else gets 404. A group or person that does not exist is a 400 naming the field, nothing kept.

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
let root: string;
let t: TestContext;
let world: World<
  SeedSpec<'admin' | 'ann' | 'bob' | 'carl' | 'gone', 'accounts', 'inbox' | 'forms', never, 'amount'>
>;
let n = 0;

const call = (token: string, opts: InjectOptions) => callAs(t, token, opts);
const admin = (opts: InjectOptions) => call(world.users.admin.token, opts);
const unindexedOf = async (token: string) =>
  (
    (await call(token, { method: 'GET', url: '/api/unindex-file' })).json().data.items as Array<{
      id: number;
    }>
  ).map((f) => f.id);
/** One PDF taken from source `sourceId`, its filing by the rules run; the new file's id. */
async function arrive(sourceId: number, fileName = `scan-${++n}.pdf`) {
  const out = await takeArrival(t.app.deps, {
    sourceId,
    externalKey: `${fileName}|${n}`,
    fileName,
    stream: Readable.from([PDF]),
  });
  if (out.outcome !== 'taken') throw new Error(`Not taken: ${JSON.stringify(out)}`);
  for (let i = 0; i < 10 && (await t.db.job.count({ where: { status: 'queued' } })); i++)
    await t.app.jobs.runDue();
  return out.fileId;
}
/**
 * `token` drops unindexed file `fileId` as the screen's "Cancel upload" does (to the trash), finds
 * it in their deleted files, and restores it from there; each step must succeed.
 */
async function dropAndRestore(token: string, fileId: number) {
  const drop = await call(token, { method: 'POST', url: '/api/delete', payload: { file_ids: [fileId] } });
  expect(drop.statusCode, drop.body).toBe(200);
  expect(await unindexedOf(token)).not.toContain(fileId);
  const mine = await call(token, { method: 'GET', url: '/api/files/my-deleted' });
  expect(mine.json().data.items.map((f: { id: number }) => f.id)).toContain(fileId);
  const restore = await call(token, {
    method: 'POST',
    url: `/api/files/my-deleted/${fileId}/restore`,
    payload: {},
  });
  expect(restore.statusCode, restore.body).toBe(200);
  expect(restore.json().data).toMatchObject({ id: fileId, index_status: 'unindexed' });
}
const sourceBody = (o: Record<string, unknown>) => ({
  kind: 'folder',
  name: `Scanner ${++n}`,
  category_id: world.categories.inbox.id,
  owner_id: world.users.admin.id,
  settings: { path: path.join(root, `scanner-${n}`), subfolders: false },
  ...o,
});

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'quire-intake-for-'));
  ({ t, ...world } = await seededApp(
    {
      users: {
        admin: { accessType: 'COMPANY ADMIN' },
        ann: {},
        bob: {},
        carl: {},
        gone: { status: 'deactivated', signIn: false },
      },
      groups: { accounts: ['ann', 'bob'] },
      fields: { amount: { name: 'Amount', type: 'number', required: true } },
      // Nobody but the admin views the category: its fields reach a member only through a file
      // waiting for them there.
      categories: { inbox: {}, forms: { fields: ['amount'] } },
    },
    { INTAKE_FOLDERS: root },
  ));
}, 60_000);
afterAll(async () => {
  await t.close();
  await rm(root, { recursive: true, force: true });
});

describe('a source that leaves files unindexed for a group', () => {
  let sourceId: number;
  beforeAll(async () => {
    const res = await admin({
      method: 'POST',
      url: '/api/intake/sources',
      payload: sourceBody({
        file_as: 'unindexed',
        unindexed_group_id: world.groups.accounts.id,
        category_id: world.categories.forms.id,
      }),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.unindexed_group).toEqual(groupRef(world.groups.accounts));
    sourceId = res.json().data.id;
  });

  it('shows each member the file, with the group in the audit event; not the owner nor others', async () => {
    const fileId = await arrive(sourceId);
    const file = await t.db.file.findUniqueOrThrow({ where: { id: fileId } });
    expect(file).toMatchObject({ indexStatus: 'unindexed', unindexedGroupId: world.groups.accounts.id });
    expect(await unindexedOf(world.users.ann.token)).toContain(fileId);
    expect(await unindexedOf(world.users.bob.token)).toContain(fileId);
    expect(await unindexedOf(world.users.carl.token)).not.toContain(fileId);
    expect(await unindexedOf(world.users.admin.token)).not.toContain(fileId);
    const event = await t.db.auditEvent.findFirstOrThrow({
      where: { action: 'intake.arrival_taken', targetId: String(fileId) },
    });
    expect(event.message).toContain(`left unindexed for group "${world.groups.accounts.name}"`);
    expect(event.details).toMatchObject({ unindexed_group_id: world.groups.accounts.id });
  });

  it('lets a member index it and another drop one; a non-member gets 404 and changes nothing', async () => {
    const [indexed, dropped, kept] = [await arrive(sourceId), await arrive(sourceId), await arrive(sourceId)];
    const refusals = () => t.db.auditEvent.count({ where: { type: 'security' } });
    const before = await refusals();
    for (const url of ['/api/submitmetas', '/api/cancel-index-file']) {
      const res = await call(world.users.carl.token, {
        method: 'POST',
        url,
        payload: { file_id: kept, values: [] },
      });
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json().message).toBeTruthy();
    }
    expect(await refusals()).toBe(before + 2);
    expect(await t.db.file.findUniqueOrThrow({ where: { id: kept } })).toMatchObject({
      indexStatus: 'unindexed',
      deletedAt: null,
    });
    const index = await call(world.users.ann.token, {
      method: 'POST',
      url: '/api/submitmetas',
      payload: { file_id: indexed, values: [{ field_id: world.fields.amount.id, value: 12 }] },
    });
    expect(index.statusCode, index.body).toBe(200);
    expect((await t.db.file.findUniqueOrThrow({ where: { id: indexed } })).indexStatus).toBe('indexed');
    expect(await unindexedOf(world.users.bob.token)).not.toContain(indexed);
    const drop = await call(world.users.bob.token, {
      method: 'POST',
      url: '/api/cancel-index-file',
      payload: { file_id: dropped },
    });
    expect(drop.statusCode, drop.body).toBe(200);
    expect(await t.db.file.count({ where: { id: dropped } })).toBe(0);
  });

  it("lets a member without view on the category read its fields and index, by the screen's calls", async () => {
    const fileId = await arrive(sourceId);
    const ann = world.users.ann.token;
    const forms = world.categories.forms.id;
    const get = (token: string, url: string) => call(token, { method: 'GET', url });
    // What the indexing page loads: the file, its preview, the category's fields.
    const view = await get(ann, `/api/file-view/${fileId}`);
    expect(view.statusCode, view.body).toBe(200);
    const preview = await get(ann, `/api/version-preview/${view.json().data.current_version_id}`);
    expect(preview.statusCode, preview.body).toBe(200);
    const meta = await get(ann, `/api/folderMeta/${forms}`);
    expect(meta.statusCode, meta.body).toBe(200);
    expect(meta.json().data).toMatchObject({ folder_id: forms, inherit_fields: true });
    expect(meta.json().data.fields.map((f: { field: { name: string } }) => f.field.name)).toEqual(['Amount']);
    // Nothing else about the category: it stays out of their tree and its page is hidden.
    expect((await get(ann, `/api/folder/info/${forms}`)).statusCode).toBe(404);
    expect((await get(ann, '/api/folders')).json().data).toEqual([]);
    // Its required field is asked for, then the file is indexed with it.
    const bare = await call(ann, {
      method: 'POST',
      url: '/api/submitmetas',
      payload: { file_id: fileId, values: [] },
    });
    expect(bare.statusCode, bare.body).toBe(400);
    const index = await call(ann, {
      method: 'POST',
      url: '/api/submitmetas',
      payload: { file_id: fileId, values: [{ field_id: world.fields.amount.id, value: 40 }] },
    });
    expect(index.statusCode, index.body).toBe(200);
    expect(index.json().data.values).toMatchObject([{ field_id: world.fields.amount.id, value: 40 }]);
  });

  it('lets a member restore the file they dropped, back to the whole group; not another member', async () => {
    const fileId = await arrive(sourceId);
    const early = await call(world.users.bob.token, {
      method: 'POST',
      url: `/api/files/my-deleted/${fileId}/restore`,
      payload: {},
    });
    expect(early.statusCode, 'not in the trash yet').toBe(404);
    await dropAndRestore(world.users.bob.token, fileId);
    expect(await t.db.file.findUniqueOrThrow({ where: { id: fileId } })).toMatchObject({
      deletedAt: null,
      indexStatus: 'unindexed',
      categoryId: world.categories.forms.id,
      unindexedGroupId: world.groups.accounts.id,
    });
    expect(await unindexedOf(world.users.ann.token)).toContain(fileId);
    expect(await unindexedOf(world.users.bob.token)).toContain(fileId);
    // Another member did not drop it: it is not among their deleted files, nor theirs to restore.
    await call(world.users.bob.token, {
      method: 'POST',
      url: '/api/delete',
      payload: { file_ids: [fileId] },
    });
    const theirs = await call(world.users.ann.token, { method: 'GET', url: '/api/files/my-deleted' });
    expect(theirs.json().data.items.map((f: { id: number }) => f.id)).not.toContain(fileId);
    const refused = await call(world.users.ann.token, {
      method: 'POST',
      url: `/api/files/my-deleted/${fileId}/restore`,
      payload: {},
    });
    expect(refused.statusCode, refused.body).toBe(404);
    const restored = await call(world.users.bob.token, {
      method: 'POST',
      url: `/api/files/my-deleted/${fileId}/restore`,
      payload: {},
    });
    expect(restored.statusCode, restored.body).toBe(200);
    const events = await t.db.auditEvent.findMany({
      where: { action: 'file.restored', targetId: String(fileId) },
      select: { userId: true },
    });
    expect(events).toEqual([{ userId: world.users.bob.id }, { userId: world.users.bob.id }]);
  });

  it('refuses the fields to a member once nothing waits, and to a non-member (404, audited)', async () => {
    // Nothing left for the group in the category: the members' files there are gone.
    await t.db.file.updateMany({
      where: { unindexedGroupId: world.groups.accounts.id, indexStatus: 'unindexed' },
      data: { deletedAt: new Date() },
    });
    const url = `/api/folderMeta/${world.categories.forms.id}`;
    const missing = await call(world.users.carl.token, { method: 'GET', url: '/api/folderMeta/2000000000' });
    const refused = async (who: 'bob' | 'carl') => {
      const since = (await t.db.auditEvent.aggregate({ _max: { id: true } }))._max.id ?? BigInt(0);
      const res = await call(world.users[who].token, { method: 'GET', url });
      expect(`${who}: ${res.statusCode} ${res.body}`).toBe(`${who}: 404 ${missing.body}`);
      const refusal = await t.db.auditEvent.findFirst({
        where: { id: { gt: since }, action: 'access.not_found', userId: world.users[who].id },
      });
      expect(refusal?.details).toMatchObject({ path: url });
    };
    await refused('bob');
    await arrive(sourceId);
    await refused('carl');
    expect((await call(world.users.bob.token, { method: 'GET', url })).statusCode).toBe(200);
  });

  it('refuses a group that does not exist, or one for indexed files, naming the field; nothing kept', async () => {
    const sources = await t.db.intakeSource.count();
    for (const payload of [
      sourceBody({ file_as: 'unindexed', unindexed_group_id: 987_654 }),
      sourceBody({ file_as: 'indexed', unindexed_group_id: world.groups.accounts.id }),
      sourceBody({ file_as: 'unindexed', unindexed_group_id: 'accounts' }),
    ]) {
      const res = await admin({ method: 'POST', url: '/api/intake/sources', payload });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errors.map((e: { path: string }) => e.path)).toEqual(['body.unindexed_group_id']);
    }
    const changed = await admin({
      method: 'PUT',
      url: `/api/intake/sources/${sourceId}`,
      payload: sourceBody({ file_as: 'unindexed', unindexed_group_id: 987_654 }),
    });
    expect(changed.statusCode).toBe(400);
    expect(await t.db.intakeSource.count()).toBe(sources);
    expect((await t.db.intakeSource.findUniqueOrThrow({ where: { id: sourceId } })).unindexedGroupId).toBe(
      world.groups.accounts.id,
    );
  });
});

describe('a rule that leaves files unindexed for a person or a group', () => {
  let sourceId: number;
  const ruleBody = (o: Record<string, unknown>) => ({ name: `Rule ${++n}`, ...o });
  beforeAll(async () => {
    const res = await admin({ method: 'POST', url: '/api/intake/sources', payload: sourceBody({}) });
    expect(res.statusCode, res.body).toBe(200);
    sourceId = res.json().data.id;
    for (const payload of [
      ruleBody({ name_glob: 'group-*', unindexed_group_id: world.groups.accounts.id }),
      ruleBody({ name_glob: 'carl-*', unindexed_user_id: world.users.carl.id }),
    ]) {
      const rule = await admin({ method: 'POST', url: '/api/intake/rules', payload });
      expect(rule.statusCode, rule.body).toBe(200);
    }
  });

  it('leaves a matching file for the group, another for the person, and indexes the rest', async () => {
    const forGroup = await arrive(sourceId, 'group-1.pdf');
    const forCarl = await arrive(sourceId, 'carl-1.pdf');
    const other = await arrive(sourceId, 'other.pdf');
    expect(await t.db.file.findUniqueOrThrow({ where: { id: forGroup } })).toMatchObject({
      indexStatus: 'unindexed',
      unindexedGroupId: world.groups.accounts.id,
    });
    expect(await t.db.file.findUniqueOrThrow({ where: { id: forCarl } })).toMatchObject({
      indexStatus: 'unindexed',
      ownerId: world.users.carl.id,
      unindexedGroupId: null,
    });
    expect((await t.db.file.findUniqueOrThrow({ where: { id: other } })).indexStatus).toBe('indexed');
    expect(await unindexedOf(world.users.ann.token)).toContain(forGroup);
    expect(await unindexedOf(world.users.carl.token)).toEqual([forCarl]);
    const filed = await t.db.auditEvent.findFirstOrThrow({
      where: { action: 'intake.arrival_filed', targetId: String(forGroup) },
    });
    expect(filed.details).toMatchObject({ unindexed_for: { group_id: world.groups.accounts.id } });
    const rules = (await admin({ method: 'GET', url: '/api/intake/rules' })).json().data.items;
    expect(rules[0]).toMatchObject({
      unindexed_group: groupRef(world.groups.accounts),
      unindexed_user: null,
    });
    expect(rules[0].summary).toContain(`leave unindexed for group "${world.groups.accounts.name}"`);
    expect(rules[1].unindexed_user).toEqual({ id: world.users.carl.id, username: world.users.carl.username });
  });

  it('shows in the dry run whom each rule would leave a file for', async () => {
    const res = await admin({ method: 'GET', url: '/api/intake/dry-run' });
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json().data.items as Array<{ arrival: { file_name: string } }>;
    const row = (name: string) => rows.find((r) => r.arrival.file_name === name);
    expect(row('group-1.pdf')).toMatchObject({
      unindexed_group: groupRef(world.groups.accounts),
      unindexed_user: null,
    });
    expect(row('carl-1.pdf')).toMatchObject({
      unindexed_user: { id: world.users.carl.id, username: world.users.carl.username },
      unindexed_group: null,
    });
    expect(row('other.pdf')).toMatchObject({ rule: null, unindexed_user: null, unindexed_group: null });
  });

  it('lets the person a rule left a file for restore it once dropped, as a group member may', async () => {
    const fileId = await arrive(sourceId, 'carl-2.pdf');
    await dropAndRestore(world.users.carl.token, fileId);
    expect(await t.db.file.findUniqueOrThrow({ where: { id: fileId } })).toMatchObject({
      deletedAt: null,
      indexStatus: 'unindexed',
      ownerId: world.users.carl.id,
    });
    expect(await unindexedOf(world.users.carl.token)).toContain(fileId);
  });

  it('refuses a group or person that is not there, both at once, or values with them; nothing kept', async () => {
    const rules = await t.db.intakeRule.count();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ unindexed_group_id: 987_654 }, 'body.unindexed_group_id'],
      [{ unindexed_user_id: world.users.gone.id }, 'body.unindexed_user_id'],
      [
        { unindexed_user_id: world.users.carl.id, unindexed_group_id: world.groups.accounts.id },
        'body.unindexed_group_id',
      ],
      [
        {
          unindexed_group_id: world.groups.accounts.id,
          category_id: world.categories.inbox.id,
          tag_ids: [1],
        },
        'body.tag_ids',
      ],
    ];
    for (const [o, field] of cases) {
      const res = await admin({ method: 'POST', url: '/api/intake/rules', payload: ruleBody(o) });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errors.map((e: { path: string }) => e.path)).toEqual([field]);
    }
    expect(await t.db.intakeRule.count()).toBe(rules);
  });
});
