import { describe, expect, it } from 'vitest';
import {
  type AccessCase,
  callAs,
  expectAccess,
  FILE_CONTROL_CALLERS,
  readCase,
  writeCase,
} from '../../../test/access.js';
import type { TestContext } from '../../../test/app.js';
import { errorPaths } from '../../../test/errors.js';
import { attachFields, createCategory, createMetadataField } from '../../../test/factories.js';
import { auditedInTurn } from '../../../test/in-turn.js';
import { uniqueName } from '../../../test/names.js';
import { adminAppPerFile, type CallAs, type SeededUser, seed } from '../../../test/seed.js';
import { written, writtenSince } from '../../../test/written.js';

// The category tree (store, rename, duplicate, delete), category groups, grantees and related
// tags, as File Control.

let t: TestContext;
let admin: SeededUser;
let asAdmin: CallAs;

adminAppPerFile('File Control Admin', (app) => ({ t, admin, asAdmin } = app));

const post = (url: string, payload: unknown) => asAdmin({ method: 'POST', url, payload: payload as never });
const counts = async () => ({
  categories: await t.db.category.count(),
  live: await t.db.category.count({ where: { deletedAt: null } }),
  fields: await t.db.categoryField.count(),
  grants: await t.db.categoryPermission.count(),
  groups: await t.db.categoryGroup.count(),
  members: await t.db.categoryGroupMember.count(),
  groupGrants: await t.db.categoryGroupPermission.count(),
  tags: await t.db.relatedTag.count(),
  trashed: await t.db.file.count({ where: { deletedAt: { not: null } } }),
  audits: await t.db.auditEvent.count({ where: { type: 'category' } }),
});
const childNames = async (parentId: number | null) =>
  (
    await t.db.category.findMany({
      where: { parentId, deletedAt: null },
      orderBy: [{ position: 'asc' }, { id: 'asc' }],
      select: { name: true },
    })
  ).map((r) => r.name);

describe('who may call the category calls', () => {
  /** A write on a category made for the call: the payload names it as `folder_id`. */
  const onNewCategory = (url: string, payload = () => ({})): AccessCase => ({
    name: `POST ${url}`,
    write: true,
    make: async () => ({
      method: 'POST',
      url,
      payload: { folder_id: (await createCategory(t.db)).id, ...payload() },
    }),
  });
  const cases: AccessCase[] = [
    readCase('/api/folders', true),
    readCase('/api/fileCategories', true),
    readCase('/api/category-groups', true),
    readCase('/api/admin/fileCategories'),
    writeCase('POST /api/storeFolder', () => ({
      method: 'POST',
      url: '/api/storeFolder',
      payload: { name: uniqueName('New') },
    })),
    onNewCategory('/api/update/folder', () => ({ name: uniqueName('Renamed') })),
    onNewCategory('/api/duplicate/folder'),
    onNewCategory('/api/deleteFolder'),
    writeCase('POST /api/create/category-group', () => ({
      method: 'POST',
      url: '/api/create/category-group',
      payload: { name: uniqueName('CG') },
    })),
    writeCase('POST /api/update/category-group', async () => ({
      method: 'POST',
      url: '/api/update/category-group',
      payload: {
        id: (await t.db.categoryGroup.create({ data: { name: uniqueName('CG') } })).id,
        description: 'x',
      },
    })),
    writeCase('POST /api/delete/category-group/{id}', async () => ({
      method: 'POST',
      url: `/api/delete/category-group/${(await t.db.categoryGroup.create({ data: { name: uniqueName('CG') } })).id}`,
    })),
    onNewCategory('/api/add-related-tags', () => ({ tags: [{ name: 'urgent' }] })),
    writeCase('POST /api/edit-related-tag', async () => {
      const category = await createCategory(t.db);
      const tag = await t.db.relatedTag.create({ data: { categoryId: category.id, name: 'old' } });
      return {
        method: 'POST',
        url: '/api/edit-related-tag',
        payload: { id: tag.id, folder_id: category.id, name: 'new' },
      };
    }),
    writeCase('POST /api/delete-related-tag/{id}', async () => {
      const tag = await t.db.relatedTag.create({
        data: { categoryId: (await createCategory(t.db)).id, name: 'x' },
      });
      return { method: 'POST', url: `/api/delete-related-tag/${tag.id}` };
    }),
  ];
  it.each(FILE_CONTROL_CALLERS)('as %s', (...caller) => expectAccess(t, caller, cases, counts));

  it('refuses the calls on one category to anonymous callers (401)', async () => {
    const category = await createCategory(t.db);
    for (const url of [
      `/api/folder/info/${category.id}`,
      `/api/folderMeta/${category.id}`,
      `/api/related-tags/${category.id}`,
      '/api/category-groups/1',
    ])
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
  });

  it('refuses a General staff member who manages a category every write on it (403)', async () => {
    const {
      users: { staff },
      categories: { category },
    } = await seed(t, { users: { staff: {} }, categories: { category: { grants: { staff: ['manage'] } } } });
    const before = await counts();
    for (const [url, payload] of [
      ['/api/storeFolder', { name: uniqueName('Sub'), parent_id: category.id }],
      ['/api/update/folder', { folder_id: category.id, name: uniqueName('x') }],
      ['/api/deleteFolder', { folder_id: category.id }],
    ] as const) {
      const res = await callAs(t, staff.token, { method: 'POST', url, payload });
      expect(res.statusCode, url).toBe(403);
    }
    expect(await counts()).toEqual(before);
  });
});

describe('POST /api/storeFolder', () => {
  it('creates a category with fields (default values checked) and grants, in place among its siblings; audits', async () => {
    const {
      users: { staff },
      groups: { group },
      fields: { level, note },
      categories: { parent },
    } = await seed(t, {
      users: { staff: { firstName: 'Sam', lastName: 'Staff', signIn: false } },
      groups: { group: [] },
      fields: { level: { type: 'select', items: ['Low', 'High'] }, note: { type: 'text', maxLength: 10 } },
      categories: { parent: { name: uniqueName('Parent') } },
    });
    for (const name of ['one', 'two']) await post('/api/storeFolder', { name, parent_id: parent.id });
    const middle = {
      name: 'middle',
      description: 'Between',
      parent_id: parent.id,
      position: 1,
      inherit_permissions: false,
      incremental_prefix: 'INV-',
    };
    const res = await post('/api/storeFolder', {
      ...middle,
      fields: [
        { field_id: level.id, required: true, default_value: '2' },
        { field_id: note.id, show_in_list: false },
      ],
      permissions: [
        { group_id: group.id, rights: ['view', 'upload'] },
        { user_id: staff.id, rights: ['manage'] },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ ...middle, ancestors: [{ id: parent.id, name: parent.name }] });
    expect(
      data.fields.map((f: { field: { id: number }; required: boolean; default_value: string | null }) => [
        f.field.id,
        f.required,
        f.default_value,
      ]),
    ).toEqual([
      [level.id, true, '2'],
      [note.id, false, null],
    ]);
    expect(
      data.grants.map((x: { grantee: { name: string }; rights: Record<string, boolean>; source: string }) => [
        x.grantee.name,
        Object.entries(x.rights)
          .filter(([, on]) => on)
          .map(([r]) => r),
        x.source,
      ]),
    ).toEqual([
      [group.name, ['view', 'upload'], 'own'],
      ['Sam Staff', ['view', 'manage'], 'own'],
    ]);
    expect(await childNames(parent.id)).toEqual(['one', 'middle', 'two']);
    expect(
      await t.db.auditEvent.count({
        where: { action: 'category.created', targetId: String(data.id), userId: admin.id },
      }),
    ).toBe(1);
  });

  it('refuses a name taken among live siblings in any letter case, bad fields and grants (400), writing nothing', async () => {
    const {
      categories: { parent, gone },
      fields: { number },
    } = await seed(t, {
      fields: { number: { type: 'number', minNumber: 0 } },
      categories: {
        parent: {},
        invoices: { parent: 'parent', name: 'Invoices' },
        gone: { parent: 'parent', name: 'Old' },
      },
    });
    await t.db.category.update({ where: { id: gone.id }, data: { deletedAt: new Date() } });
    const before = await counts();
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ name: 'INVOICES', parent_id: parent.id }, 'body.name'],
      [{ name: 'x', parent_id: parent.id, fields: [{ field_id: 999999 }] }, 'body.fields.0.field_id'],
      [
        { name: 'x', parent_id: parent.id, fields: [{ field_id: number.id, default_value: '-3' }] },
        'body.fields.0.default_value',
      ],
      [
        { name: 'x', parent_id: parent.id, fields: [{ field_id: number.id }, { field_id: number.id }] },
        'body.fields',
      ],
      [{ name: 'x', permissions: [{ user_id: 999999, rights: ['view'] }] }, 'body.permissions.0.user_id'],
      [{ name: 'x', permissions: [{ rights: ['view'] }] }, 'body.permissions.0.user_id'],
      [{ name: 'x', permissions: [{ group_id: 1, rights: [] }] }, 'body.permissions.0.rights'],
      [{ name: '' }, 'body.name'],
    ];
    for (const [payload, path] of bad) {
      const res = await post('/api/storeFolder', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(errorPaths(res)).toContain(path);
    }
    expect(await counts()).toEqual(before);
    // A deleted sibling's name is free again.
    expect((await post('/api/storeFolder', { name: 'old', parent_id: parent.id })).statusCode).toBe(200);
  });

  it('answers 404 for a parent that does not exist or was deleted', async () => {
    const gone = await createCategory(t.db);
    await t.db.category.update({ where: { id: gone.id }, data: { deletedAt: new Date() } });
    for (const parent_id of [999999, gone.id]) {
      const res = await post('/api/storeFolder', { name: uniqueName('x'), parent_id });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('category.not_found');
    }
  });
});

describe('POST /api/update/folder', () => {
  it('renames, moves (closing the gap it leaves) and reorders; audits the move', async () => {
    const a = await createCategory(t.db, { name: uniqueName('A') });
    const b = await createCategory(t.db, { name: uniqueName('B') });
    const ids: number[] = [];
    for (const name of ['x', 'y', 'z'])
      ids.push((await post('/api/storeFolder', { name, parent_id: a.id })).json().data.id);
    const moved = await post('/api/update/folder', { folder_id: ids[0], parent_id: b.id, name: 'x2' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().data).toMatchObject({ name: 'x2', parent_id: b.id, position: 0 });
    expect(await childNames(a.id)).toEqual(['y', 'z']);
    const positions = await t.db.category.findMany({
      where: { parentId: a.id },
      select: { position: true },
      orderBy: { position: 'asc' },
    });
    expect(positions.map((p) => p.position)).toEqual([0, 1]);
    await post('/api/update/folder', { folder_id: ids[2], position: 0 });
    expect(await childNames(a.id)).toEqual(['z', 'y']);
    const event = await t.db.auditEvent.findFirst({
      where: { action: 'category.moved', targetId: String(ids[0]) },
    });
    expect(event?.details).toMatchObject({
      name: { before: 'x', after: 'x2' },
      parent_id: { before: a.id, after: b.id },
    });
    const top = await post('/api/update/folder', { folder_id: ids[0], parent_id: null });
    expect(top.json().data.parent_id).toBeNull();
  });

  it('takes creations, reorders and moves in one parent at once, leaving its children numbered 0..n-1', async () => {
    const a = await createCategory(t.db, { name: uniqueName('A') });
    const ids: number[] = [];
    for (const name of ['p', 'q', 'r', 's'])
      ids.push((await post('/api/storeFolder', { name, parent_id: a.id })).json().data.id);
    const answers = await Promise.all([
      ...['t', 'u', 'v', 'w'].map((name) => post('/api/storeFolder', { name, parent_id: a.id })),
      ...ids.map((id, i) => post('/api/update/folder', { folder_id: id, position: 3 - i })),
      // Under a sibling (its row locked as a sibling while children are made under it).
      post('/api/update/folder', { folder_id: ids[3], parent_id: ids[0] }),
      post('/api/storeFolder', { name: 'below', parent_id: ids[0] }),
    ]);
    expect(answers.map((r) => `${r.statusCode}${r.statusCode === 200 ? '' : r.body}`)).toEqual(
      answers.map(() => '200'),
    );
    const children = await t.db.category.findMany({
      where: { parentId: a.id, deletedAt: null },
      orderBy: { position: 'asc' },
    });
    expect(children.map((c) => c.position)).toEqual(children.map((_, i) => i));
  });

  it('refuses a move into itself or below itself, and onto a taken name (400), changing nothing', async () => {
    const { a, child, grandchild, other } = (
      await seed(t, {
        categories: {
          a: { name: uniqueName('A') },
          child: { parent: 'a', name: 'Same' },
          grandchild: { parent: 'child' },
          other: { name: uniqueName('Other') },
          otherChild: { parent: 'other', name: 'same' },
        },
      })
    ).categories;
    const before = await counts();
    const snapshot = await t.db.category.findMany({ orderBy: { id: 'asc' } });
    for (const [payload, path] of [
      [{ folder_id: a.id, parent_id: a.id }, 'body.parent_id'],
      [{ folder_id: a.id, parent_id: grandchild.id }, 'body.parent_id'],
      [{ folder_id: child.id, parent_id: other.id }, 'body.parent_id'],
      [{ folder_id: child.id, parent_id: 999999 }, 'body.parent_id'],
    ] as const) {
      const res = await post('/api/update/folder', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().errors[0].path).toBe(path);
    }
    expect(await counts()).toEqual(before);
    expect(await t.db.category.findMany({ orderBy: { id: 'asc' } })).toEqual(snapshot);
  });

  it('replaces the fields and grants; sub-categories inherit fields and rights unless switched off', async () => {
    const {
      users: { staff },
      fields: { f1, f2 },
      categories: { parent, child },
    } = await seed(t, {
      users: { staff: {} },
      fields: { f1: {}, f2: {} },
      categories: { parent: { name: uniqueName('P') }, child: { parent: 'parent', name: 'C' } },
    });
    await post('/api/update/folder', {
      folder_id: parent.id,
      fields: [{ field_id: f1.id }],
      permissions: [{ user_id: staff.id, rights: ['edit'] }],
    });
    await post('/api/update/folder', {
      folder_id: child.id,
      fields: [{ field_id: f2.id }, { field_id: f1.id, required: true }],
    });
    const meta = await asAdmin({ method: 'GET', url: `/api/folderMeta/${child.id}` });
    // A field the child lists itself takes its own settings and place.
    expect(
      meta
        .json()
        .data.fields.map((f: { field: { id: number }; inherited: boolean; required: boolean }) => [
          f.field.id,
          f.inherited,
          f.required,
        ]),
    ).toEqual([
      [f2.id, false, false],
      [f1.id, false, true],
    ]);
    const info = (await asAdmin({ method: 'GET', url: `/api/folder/info/${child.id}` })).json().data;
    expect(info.grants).toEqual([
      expect.objectContaining({ source: 'inherited', from: { id: parent.id, name: parent.name } }),
    ]);
    expect(
      (await callAs(t, staff.token, { method: 'GET', url: `/api/folder/info/${child.id}` })).json().data
        .rights.edit,
    ).toBe(true);
    await post('/api/update/folder', {
      folder_id: child.id,
      inherit_permissions: false,
      inherit_fields: false,
      fields: [],
    });
    expect(
      (await callAs(t, staff.token, { method: 'GET', url: `/api/folder/info/${child.id}` })).statusCode,
    ).toBe(404);
    expect((await asAdmin({ method: 'GET', url: `/api/folderMeta/${child.id}` })).json().data.fields).toEqual(
      [],
    );
  });
});

describe('POST /api/duplicate/folder', () => {
  it('copies the tree with fields, tags, grants and groups, not the files, beside the original', async () => {
    const {
      users: { staff },
      fields: { field },
      categories: { root, after, sub },
    } = await seed(t, {
      users: { staff: { signIn: false } },
      fields: { field: {} },
      categories: {
        root: { name: uniqueName('Contracts') },
        after: { name: uniqueName('After') },
        sub: { parent: 'root', name: 'Signed', grants: { staff: ['upload'] } },
      },
      files: { signed: { owner: admin, category: 'sub' } },
    });
    const { position } = await t.db.category.findUniqueOrThrow({ where: { id: root.id } });
    await t.db.category.update({ where: { id: after.id }, data: { position: position + 1 } });
    await attachFields(t.db, sub.id, [{ fieldId: field.id, required: true, defaultValue: 'x' }]);
    await t.db.relatedTag.createMany({
      data: [
        { categoryId: sub.id, name: 'inside', linkedCategoryId: root.id },
        { categoryId: sub.id, name: 'outside', linkedCategoryId: after.id },
      ],
    });
    const group = await t.db.categoryGroup.create({
      data: { name: uniqueName('CG'), members: { create: [{ categoryId: sub.id }] } },
    });
    const filesBefore = await t.db.file.count();

    const res = await post('/api/duplicate/folder', { folder_id: root.id });
    expect(res.statusCode, res.body).toBe(200);
    const copy = res.json().data;
    expect(copy.name).toBe(`${root.name} (copy)`);
    expect(copy.children.map((x: { name: string }) => x.name)).toEqual(['Signed']);
    const subCopy = copy.children[0].id;
    expect(await t.db.file.count()).toBe(filesBefore);
    expect(await t.db.file.count({ where: { categoryId: subCopy } })).toBe(0);
    expect(await t.db.categoryField.findMany({ where: { categoryId: subCopy } })).toEqual([
      expect.objectContaining({ fieldId: field.id, required: true, defaultValue: 'x' }),
    ]);
    expect(await t.db.categoryPermission.findMany({ where: { categoryId: subCopy } })).toEqual([
      expect.objectContaining({ userId: staff.id, canUpload: true }),
    ]);
    const tags = await t.db.relatedTag.findMany({ where: { categoryId: subCopy }, orderBy: { name: 'asc' } });
    expect(tags.map((x) => [x.name, x.linkedCategoryId])).toEqual([
      ['inside', copy.id],
      ['outside', after.id],
    ]);
    expect(await t.db.categoryGroupMember.count({ where: { categoryGroupId: group.id } })).toBe(2);
    const order = await childNames(null);
    expect(order.indexOf(copy.name)).toBe(order.indexOf(root.name) + 1);
    const again = await post('/api/duplicate/folder', { folder_id: root.id });
    expect(again.json().data.name).toBe(`${root.name} (copy 2)`);
  });

  it('refuses a taken name (400) and answers 404 for a deleted category', async () => {
    const root = await createCategory(t.db, { name: uniqueName('R') });
    const before = await counts();
    const res = await post('/api/duplicate/folder', { folder_id: root.id, name: root.name.toUpperCase() });
    expect(res.statusCode).toBe(400);
    expect(await counts()).toEqual(before);
    await t.db.category.update({ where: { id: root.id }, data: { deletedAt: new Date() } });
    expect((await post('/api/duplicate/folder', { folder_id: root.id })).statusCode).toBe(404);
  });
});

describe('POST /api/deleteFolder', () => {
  it('asks for the number of files first (409 with the count), then trashes the tree and its files', async () => {
    const world = await seed(t, {
      categories: { root: { name: uniqueName('Old') }, sub: { parent: 'root' }, deep: { parent: 'sub' } },
      files: {
        top: { owner: admin, category: 'root' },
        deep: { owner: admin, category: 'deep' },
        unindexed: { owner: admin, category: 'deep', indexed: false },
      },
    });
    const { root, sub, deep } = world.categories;
    const files = Object.values(world.files);
    const info = await asAdmin({ method: 'GET', url: `/api/folder/info/${root.id}` });
    expect(info.json().data).toMatchObject({ subtree_file_count: 3, subtree_category_count: 2 });

    const before = await counts();
    for (const confirm of [undefined, 2]) {
      const res = await post('/api/deleteFolder', { folder_id: root.id, confirm_file_count: confirm });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        code: 'category.delete_unconfirmed',
        errors: [{ path: 'body.confirm_file_count', message: 'Confirm 3' }],
      });
      expect(res.json().message).toContain('hold 3 files');
    }
    expect(await counts()).toEqual(before);

    const mark = await written(t);
    const res = await post('/api/deleteFolder', { folder_id: root.id, confirm_file_count: 3 });
    expect(res.statusCode, res.body).toBe(200);
    const { audit, jobs } = await writtenSince(t, mark);
    expect(audit.map((e) => [e.action, e.targetId])).toEqual([['category.deleted', String(root.id)]]);
    expect(audit[0]?.details).toEqual({
      category_ids: [root.id, sub.id, deep.id],
      trashed_files: 3,
      file_ids: files.map((f) => f.id).sort((x, y) => x - y),
    });
    expect(jobs).toEqual(
      [...files]
        .sort((x, y) => x.id - y.id)
        .flatMap((f) =>
          ['notification.file_event', 'workflow.file_event'].map((kind) => ({
            kind,
            payload: {
              type: 'deleted',
              file_id: f.id,
              category_id: f === world.files.top ? root.id : deep.id,
              actor_id: admin.id,
            },
          })),
        ),
    );
    expect(res.json()).toEqual({
      message: 'Category deleted; 3 files moved to the trash',
      data: { id: root.id, deleted_categories: 3, trashed_files: 3 },
    });
    const rows = await t.db.category.findMany({ where: { id: { in: [root.id, sub.id, deep.id] } } });
    expect(rows.every((r) => r.deletedAt !== null && r.deletedById === admin.id)).toBe(true);
    const trashed = await t.db.file.findMany({ where: { id: { in: files.map((f) => f.id) } } });
    expect(trashed.every((f) => f.deletedAt?.getTime() === rows[0]!.deletedAt?.getTime())).toBe(true);
    const event = await t.db.auditEvent.findFirst({
      where: { action: 'category.deleted', targetId: String(root.id) },
    });
    expect(event?.details).toMatchObject({ trashed_files: 3 });
    expect((await asAdmin({ method: 'GET', url: `/api/folder/info/${sub.id}` })).statusCode).toBe(404);
  });

  it('deletes a category without files at once', async () => {
    const empty = await createCategory(t.db);
    const res = await post('/api/deleteFolder', { folder_id: empty.id });
    expect(res.json()).toMatchObject({
      message: 'Category deleted',
      data: { deleted_categories: 1, trashed_files: 0 },
    });
  });
});

describe('category groups', () => {
  it('creates, reads and updates a group: members in order, grants applying to every member', async () => {
    const {
      users: { staff },
      categories: { a, b },
    } = await seed(t, {
      users: { staff: {} },
      categories: { a: { name: uniqueName('A') }, b: { name: uniqueName('B') } },
    });
    const name = uniqueName('Finance');
    const created = await post('/api/create/category-group', {
      name,
      description: 'Money',
      category_ids: [b.id, a.id],
      permissions: [{ user_id: staff.id, rights: ['view', 'upload'] }],
    });
    expect(created.statusCode, created.body).toBe(200);
    const group = created.json().data;
    expect(group).toMatchObject({ name, description: 'Money' });
    expect(group.categories.map((x: { id: number }) => x.id)).toEqual([b.id, a.id]);
    expect(group.grants[0].rights).toMatchObject({ view: true, upload: true, edit: false });
    const mine = await callAs(t, staff.token, { method: 'GET', url: `/api/folder/info/${a.id}` });
    expect(mine.json().data.rights.upload).toBe(true);
    expect((await asAdmin({ method: 'GET', url: `/api/folder/info/${a.id}` })).json().data.grants).toEqual([
      expect.objectContaining({ source: 'category_group', category_group: { id: group.id, name } }),
    ]);

    const updated = await post('/api/update/category-group', {
      id: group.id,
      category_ids: [a.id],
      permissions: [],
    });
    expect(updated.json().data.categories.map((x: { id: number }) => x.id)).toEqual([a.id]);
    expect(
      (await callAs(t, staff.token, { method: 'GET', url: `/api/folder/info/${a.id}` })).statusCode,
    ).toBe(404);
    const one = await asAdmin({ method: 'GET', url: `/api/category-groups/${group.id}` });
    expect(one.json().data.grants).toEqual([]);
    const deleted = await asAdmin({ method: 'POST', url: `/api/delete/category-group/${group.id}` });
    expect(deleted.statusCode).toBe(200);
    expect((await asAdmin({ method: 'GET', url: `/api/category-groups/${group.id}` })).statusCode).toBe(404);
  });

  it('takes edits of one group sent at once one after the other, each audit starting where the last ended', async () => {
    const [a, b, c] = [await createCategory(t.db), await createCategory(t.db), await createCategory(t.db)];
    const created = await post('/api/create/category-group', {
      name: uniqueName('Race'),
      category_ids: [a.id],
    });
    const id = created.json().data.id as number;
    const sets = [
      [b.id],
      [a.id, b.id],
      [c.id],
      [b.id, c.id],
      [a.id, c.id],
      [a.id, b.id, c.id],
      [],
      [c.id, a.id],
    ];
    const answers = await Promise.all(
      sets.map((category_ids) =>
        post('/api/update/category-group', {
          id,
          category_ids,
          permissions: [{ user_id: admin.id, rights: ['view'] }],
        }),
      ),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(sets.map(() => 200));
    const members = await auditedInTurn(t, {
      action: 'category_group.updated',
      targetId: id,
      key: 'category_ids',
      start: [a.id],
    });
    const stored = await t.db.categoryGroupMember.findMany({
      where: { categoryGroupId: id },
      orderBy: { position: 'asc' },
    });
    expect(stored.map((m) => m.categoryId)).toEqual(members);
  });

  it('refuses a taken name, unknown categories and an unknown group, writing nothing', async () => {
    const existing = await t.db.categoryGroup.create({ data: { name: uniqueName('Taken') } });
    const before = await counts();
    const taken = await post('/api/create/category-group', { name: existing.name.toLowerCase() });
    expect(taken.statusCode).toBe(400);
    expect(taken.json().errors[0].path).toBe('body.name');
    const unknown = await post('/api/create/category-group', {
      name: uniqueName('N'),
      category_ids: [999999],
    });
    expect(unknown.json().errors[0].path).toBe('body.category_ids');
    const twice = await post('/api/create/category-group', { name: uniqueName('N'), category_ids: [1, 1] });
    expect(twice.statusCode).toBe(400);
    expect((await post('/api/update/category-group', { id: 999999, name: 'x' })).statusCode).toBe(404);
    expect(await counts()).toEqual(before);
  });
});

describe('GET /api/category-grantees', () => {
  it('lists active people (no vendor admin) and every group, for the rights pickers', async () => {
    const {
      users: { person, gone, vendor },
      groups: { group },
    } = await seed(t, {
      users: {
        person: { firstName: 'Gina', lastName: 'Grant', signIn: false },
        gone: { status: 'deactivated', signIn: false },
        vendor: { accessType: 'DATAMAX ADMIN', signIn: false },
      },
      groups: { group: { name: uniqueName('Team'), members: [] } },
    });
    const res = await asAdmin({ method: 'GET', url: '/api/category-grantees' });
    const ids = res.json().data.users.map((u: { id: number }) => u.id);
    expect(ids).toContain(person.id);
    expect(ids).not.toContain(gone.id);
    expect(ids).not.toContain(vendor.id);
    expect(res.json().data.users.find((u: { id: number }) => u.id === person.id).name).toBe('Gina Grant');
    expect(res.json().data.groups).toContainEqual({ id: group.id, name: group.name });
  });
});

describe('edits of one category sent at once', () => {
  it('replace its fields whole, one after the other, each audit starting where the last ended', async () => {
    const category = await createCategory(t.db);
    const [f1, f2] = [await createMetadataField(t.db), await createMetadataField(t.db)];
    const sets = [[f1.id], [f2.id], [f1.id, f2.id], [], [f2.id, f1.id], [f1.id], [], [f2.id]];
    const answers = await Promise.all(
      sets.map((ids, i) =>
        post('/api/update/folder', {
          folder_id: category.id,
          description: `Edit ${i}`,
          fields: ids.map((field_id) => ({ field_id })),
        }),
      ),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(sets.map(() => 200));
    await auditedInTurn(t, {
      action: 'category.updated',
      targetId: category.id,
      key: 'description',
      start: category.description,
    });
    const last = await t.db.auditEvent.findFirstOrThrow({
      where: { action: 'category.updated', targetId: String(category.id) },
      orderBy: { id: 'desc' },
    });
    const stored = await t.db.categoryField.findMany({
      where: { categoryId: category.id },
      orderBy: { position: 'asc' },
    });
    expect(stored.map((f) => f.fieldId)).toEqual((last.details as { field_ids: number[] }).field_ids);
  });
});

describe('related tags', () => {
  it('adds, lists, edits and deletes the tags of a category; audits each', async () => {
    const { category, other } = (
      await seed(t, { categories: { category: {}, other: { name: uniqueName('Other') } } })
    ).categories;
    const added = await post('/api/add-related-tags', {
      folder_id: category.id,
      tags: [
        { name: 'urgent', color: '#ff0000' },
        { name: 'see also', linked_folder_id: other.id },
      ],
    });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().data.map((x: { name: string }) => x.name)).toEqual(['see also', 'urgent']);
    const urgent = added.json().data.find((x: { name: string }) => x.name === 'urgent');
    const edited = await post('/api/edit-related-tag', {
      id: urgent.id,
      folder_id: category.id,
      name: 'Urgent!',
      color: null,
    });
    expect(edited.json().data).toEqual({
      id: urgent.id,
      folder_id: category.id,
      name: 'Urgent!',
      color: null,
      linked_folder: null,
    });
    const listed = await asAdmin({ method: 'GET', url: `/api/related-tags/${category.id}` });
    expect(listed.json().data[0].linked_folder).toEqual({ id: other.id, name: other.name });
    const gone = await asAdmin({ method: 'POST', url: `/api/delete-related-tag/${urgent.id}` });
    expect(gone.statusCode).toBe(200);
    expect(await t.db.relatedTag.count({ where: { categoryId: category.id } })).toBe(1);
    expect(
      await t.db.auditEvent.count({
        where: {
          action: { startsWith: 'related_tag.' },
          targetId: { in: [String(category.id), String(urgent.id)] },
        },
      }),
    ).toBe(3);
  });

  it('refuses repeated names (any case), self links, bad colours and a tag of another category, writing nothing', async () => {
    const category = await createCategory(t.db);
    const elsewhere = await createCategory(t.db);
    const tag = await t.db.relatedTag.create({ data: { categoryId: category.id, name: 'Draft' } });
    const before = await counts();
    const cases: Array<[string, Record<string, unknown>, number, string?]> = [
      [
        '/api/add-related-tags',
        { folder_id: category.id, tags: [{ name: 'DRAFT' }] },
        400,
        'body.tags.0.name',
      ],
      [
        '/api/add-related-tags',
        { folder_id: category.id, tags: [{ name: 'a' }, { name: 'A' }] },
        400,
        'body.tags.1.name',
      ],
      [
        '/api/add-related-tags',
        { folder_id: category.id, tags: [{ name: 'x', linked_folder_id: category.id }] },
        400,
        'body.tags.0.linked_folder_id',
      ],
      [
        '/api/add-related-tags',
        { folder_id: category.id, tags: [{ name: 'x', color: 'red' }] },
        400,
        'body.tags.0.color',
      ],
      ['/api/add-related-tags', { folder_id: category.id, tags: [] }, 400, 'body.tags'],
      ['/api/edit-related-tag', { id: tag.id, folder_id: elsewhere.id, name: 'x' }, 404],
      ['/api/edit-related-tag', { id: tag.id, folder_id: 999999, name: 'x' }, 404],
      ['/api/delete-related-tag/999999', {}, 404],
    ];
    for (const [url, payload, status, path] of cases) {
      const res = await post(url, payload);
      expect(res.statusCode, `${url} ${JSON.stringify(payload)}`).toBe(status);
      if (path) expect(errorPaths(res)).toContain(path);
    }
    expect(await counts()).toEqual(before);
  });

  it('takes edits of one tag sent at once one after the other, each audit starting where the last ended', async () => {
    const category = await createCategory(t.db);
    const tag = await t.db.relatedTag.create({ data: { categoryId: category.id, name: 'Tag 0' } });
    const answers = await Promise.all(
      [1, 2, 3, 4, 5, 6, 7, 8].map((i) =>
        post('/api/edit-related-tag', { id: tag.id, folder_id: category.id, name: `Tag ${i}` }),
      ),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(answers.map(() => 200));
    const name = await auditedInTurn(t, {
      action: 'related_tag.updated',
      targetId: tag.id,
      key: 'name',
      start: 'Tag 0',
    });
    expect((await t.db.relatedTag.findUniqueOrThrow({ where: { id: tag.id } })).name).toBe(name);
  });
});
