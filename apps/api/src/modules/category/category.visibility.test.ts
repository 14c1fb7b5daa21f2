import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs } from '../../../test/access.js';
import type { TestContext } from '../../../test/app.js';
import { seededApp } from '../../../test/seed.js';

// Every list, tree and count of the catalog hides what the caller may not view, at any depth.
// The tree (General staff member of group G):
//
//   A                      nothing granted                      hidden
//   ├─ A1                  nothing granted                      hidden
//   │  └─ A1x              view granted to group G (deep)       VISIBLE (a top of the staff's tree)
//   │     ├─ A1x-child     inherits                             VISIBLE
//   │     └─ A1x-closed    inherit_permissions off, no grants   hidden
//   └─ A2                  sibling, nothing granted             hidden
//   B                      view through category group CG       VISIBLE
//   H                      nothing granted                      hidden
//   D                      granted to the staff, then deleted   hidden
//
// Category groups: CG {B} grants the staff view; CG2 {A1x, H} grants nothing; CG3 {H}.

let t: TestContext;
let staffToken: string;
let auditorToken: string;
const c: Record<string, number> = {};
const g: Record<string, number> = {};
let fieldA1x: number;
let fieldA1: number;

beforeAll(async () => {
  const world = await seededApp({
    users: {
      staff: {},
      owner: { accessType: 'File Control Admin', signIn: false },
      auditor: { accessType: 'Auditor' },
    },
    groups: { G: { name: 'G', members: ['staff'] } },
    // Fields: A1 (hidden) and A1x each ask for one; A1x-child inherits both.
    fields: { fromA1: { name: 'From A1' }, fromA1x: { name: 'From A1x' } },
    categories: {
      A: { name: 'A' },
      A1: { name: 'A1', parent: 'A', fields: ['fromA1'] },
      A1x: { name: 'A1x', parent: 'A1', grants: { G: [] }, fields: ['fromA1x'] },
      'A1x-child': { name: 'A1x-child', parent: 'A1x' },
      'A1x-closed': { name: 'A1x-closed', parent: 'A1x', inheritPermissions: false },
      A2: { name: 'A2', parent: 'A' },
      B: { name: 'B' },
      H: { name: 'H' },
      D: { name: 'D', grants: { staff: [] } },
    },
    // Files: two in A1x (visible), one in each hidden place, one trashed in A1x.
    files: {
      inA1x: { owner: 'owner', category: 'A1x' },
      alsoInA1x: { owner: 'owner', category: 'A1x' },
      inA: { owner: 'owner', category: 'A' },
      inClosed: { owner: 'owner', category: 'A1x-closed' },
      inH: { owner: 'owner', category: 'H' },
      trashed: { owner: 'owner', category: 'A1x' },
    },
  });
  t = world.t;
  const { staff, auditor } = world.users;
  staffToken = staff.token;
  auditorToken = auditor.token;
  for (const [key, category] of Object.entries(world.categories)) c[key] = category.id;
  await t.db.file.update({ where: { id: world.files.trashed.id }, data: { deletedAt: new Date() } });
  fieldA1 = world.fields.fromA1.id;
  fieldA1x = world.fields.fromA1x.id;
  await t.db.category.update({ where: { id: c.D }, data: { deletedAt: new Date() } });

  g.CG = (
    await t.db.categoryGroup.create({
      data: {
        name: 'CG',
        members: { create: [{ categoryId: c.B!, position: 0 }] },
        permissions: { create: [{ userId: staff.id }] },
      },
    })
  ).id;
  g.CG2 = (
    await t.db.categoryGroup.create({
      data: {
        name: 'CG2',
        members: {
          create: [
            { categoryId: c.H!, position: 0 },
            { categoryId: c.A1x!, position: 1 },
          ],
        },
      },
    })
  ).id;
  g.CG3 = (
    await t.db.categoryGroup.create({
      data: { name: 'CG3', members: { create: [{ categoryId: c.H!, position: 0 }] } },
    })
  ).id;

  // Tags of A1x linking to a visible and a hidden category.
  await t.db.relatedTag.createMany({
    data: [
      { categoryId: c.A1x!, name: 'to B', linkedCategoryId: c.B! },
      { categoryId: c.A1x!, name: 'to H', linkedCategoryId: c.H! },
    ],
  });
});
afterAll(() => t.close());

const get = async (token: string, url: string) => {
  const res = await callAs(t, token, { method: 'GET', url });
  return { status: res.statusCode, data: res.statusCode === 200 ? res.json().data : res.json() };
};
const names = (rows: Array<{ id: number }>) => {
  const byId = new Map(Object.entries(c).map(([k, v]) => [v, k]));
  return rows.map((r) => byId.get(r.id) ?? `other ${r.id}`);
};
const VISIBLE = ['A1x', 'A1x-child', 'B'];
/** The rights of one who may view a category and do nothing else there. */
const VIEW_ONLY = { view: true, upload: false, edit: false, delete: false, share: false, manage: false };

describe('what General staff see of the catalog', () => {
  it('GET /api/folders: only the granted categories, a deep one at the top of their tree, with counts of what they see', async () => {
    const { status, data } = await get(staffToken, '/api/folders');
    expect(status).toBe(200);
    expect(names(data)).toEqual(VISIBLE);
    const a1x = data.find((f: { id: number }) => f.id === c.A1x);
    expect(a1x).toMatchObject({ parent_id: null, depth: 0, subcategory_count: 1, file_count: 2 });
    expect(a1x.rights).toEqual(VIEW_ONLY);
    expect(data.find((f: { id: number }) => f.id === c['A1x-child'])).toMatchObject({
      parent_id: c.A1x,
      depth: 1,
    });
  });

  it('GET /api/fileCategories: the same categories, paths through visible ones only; a right they lack gives none', async () => {
    const { data } = await get(staffToken, '/api/fileCategories');
    expect(names(data)).toEqual(VISIBLE);
    expect(data.map((f: { path: string }) => f.path)).toEqual(['A1x', 'A1x / A1x-child', 'B']);
    expect((await get(staffToken, '/api/fileCategories?right=upload')).data).toEqual([]);
    expect(names((await get(staffToken, '/api/fileCategories?search=child')).data)).toEqual(['A1x-child']);
    expect((await get(staffToken, '/api/fileCategories?search=A2')).data).toEqual([]);
  });

  it('GET /api/category-groups and /{id}: only visible members; a group with none is left out (404)', async () => {
    const { data } = await get(staffToken, '/api/category-groups');
    const mine = data.filter((x: { id: number }) => Object.values(g).includes(x.id));
    expect(mine.map((x: { name: string }) => x.name)).toEqual(['CG', 'CG2']);
    expect(mine[1].categories).toEqual([{ id: c.A1x, name: 'A1x', path: 'A1x' }]);
    expect(mine[1].grants).toBeNull();
    expect((await get(staffToken, `/api/category-groups/${g.CG2}`)).data.categories).toHaveLength(1);
    expect((await get(staffToken, `/api/category-groups/${g.CG3}`)).status).toBe(404);
  });

  it('GET /api/folder/info/{id}: no hidden ancestors, children or counts; no grants or subtree counts', async () => {
    const { status, data } = await get(staffToken, `/api/folder/info/${c.A1x}`);
    expect(status).toBe(200);
    expect(data.ancestors).toEqual([]);
    expect(names(data.children)).toEqual(['A1x-child']);
    expect(data).toMatchObject({
      subcategory_count: 1,
      file_count: 2,
      grants: null,
      subtree_file_count: null,
    });
    expect(data.category_groups.map((x: { name: string }) => x.name)).toEqual(['CG2']);
    const child = (await get(staffToken, `/api/folder/info/${c['A1x-child']}`)).data;
    expect(child.ancestors).toEqual([{ id: c.A1x, name: 'A1x' }]);
  });

  it('GET /api/related-tags/{id}: a link to a hidden category is not shown', async () => {
    const { data } = await get(staffToken, `/api/related-tags/${c.A1x}`);
    expect(data.map((x: { name: string; linked_folder: unknown }) => [x.name, x.linked_folder])).toEqual([
      ['to B', { id: c.B, name: 'B' }],
      ['to H', null],
    ]);
  });

  it('GET /api/folderMeta/{id}: inherited fields, without naming a hidden category they come from', async () => {
    const { data } = await get(staffToken, `/api/folderMeta/${c['A1x-child']}`);
    expect(
      data.fields.map((f: { field: { id: number }; inherited: boolean; inherited_from: unknown }) => [
        f.field.id,
        f.inherited,
        f.inherited_from,
      ]),
    ).toEqual([
      [fieldA1, true, null],
      [fieldA1x, true, { id: c.A1x, name: 'A1x' }],
    ]);
    // Category counts of a field count only the categories the caller may view.
    expect(data.fields[0].field.usage.categories).toBe(0);
    expect(data.fields[1].field.usage.categories).toBe(1);
  });

  it.each([['A'], ['A1'], ['A1x-closed'], ['A2'], ['H'], ['D']])(
    'answers 404 for every call on %s, and audits it',
    async (key) => {
      for (const url of [
        `/api/folder/info/${c[key]}`,
        `/api/folderMeta/${c[key]}`,
        `/api/related-tags/${c[key]}`,
      ]) {
        const res = await get(staffToken, url);
        expect(res.status, url).toBe(404);
        expect(res.data).toEqual({ message: 'Category not found', code: 'category.not_found' });
      }
      const audited = await t.db.auditEvent.count({
        where: { action: 'access.not_found', message: { contains: `/api/folder/info/${c[key]}` } },
      });
      expect(audited).toBe(1);
    },
  );
});

describe('what the Auditor sees', () => {
  it('the whole live tree with every count, read-only rights, grants and subtree counts', async () => {
    const tree = (await get(auditorToken, '/api/folders')).data;
    expect(names(tree)).toEqual(['A', 'A1', 'A1x', 'A1x-child', 'A1x-closed', 'A2', 'B', 'H']);
    const a = tree.find((f: { id: number }) => f.id === c.A);
    expect(a).toMatchObject({ subcategory_count: 2, file_count: 1, depth: 0 });
    expect(a.rights).toEqual(VIEW_ONLY);
    const admin = (await get(auditorToken, '/api/admin/fileCategories')).data;
    expect(names(admin)).toEqual(['A', 'A1', 'A1x', 'A1x-child', 'A1x-closed', 'A2', 'B', 'H']);
    expect(admin.find((f: { id: number }) => f.id === c['A1x-closed']).path).toBe(
      'A / A1 / A1x / A1x-closed',
    );
    const info = (await get(auditorToken, `/api/folder/info/${c.A1x}`)).data;
    expect(info).toMatchObject({ subtree_file_count: 3, subtree_category_count: 2 });
    expect(info.grants).toEqual([
      expect.objectContaining({
        source: 'own',
        grantee: { kind: 'group', id: expect.any(Number), name: 'G' },
      }),
    ]);
    const groups = (await get(auditorToken, '/api/category-groups')).data;
    expect(groups.find((x: { id: number }) => x.id === g.CG3).categories).toEqual([
      { id: c.H, name: 'H', path: 'H' },
    ]);
    expect(groups.find((x: { id: number }) => x.id === g.CG).grants).toHaveLength(1);
  });
});
