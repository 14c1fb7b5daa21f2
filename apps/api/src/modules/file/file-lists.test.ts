import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs } from '../../../test/access.js';
import type { TestContext } from '../../../test/app.js';
import { seededApp } from '../../../test/seed.js';

// The rights cases of the lists that read the caller's sets once (lib/visible-sets.ts): a
// category's file list (GET /api/fileIncategory/{id}) and the dashboard's tables. Each way of
// seeing a file (a direct, a group and an inherited category grant; a file shared to the
// caller or their group, restricted or in a category they cannot see; their own file) and
// each way of not seeing it (restricted away, in the trash, in a hidden category).

let t: TestContext;
let token = '';
let staffId = 0;
let categories: Record<'seen' | 'teamCat' | 'parent' | 'child' | 'hidden', { id: number }>;
let files: Record<string, { id: number }>;

beforeAll(async () => {
  const world = await seededApp({
    users: { staff: {}, owner: { signIn: false } },
    groups: { team: ['staff'] },
    categories: {
      seen: { grants: { staff: [] } },
      teamCat: { grants: { team: [] } },
      parent: { grants: { staff: [] } },
      child: { parent: 'parent', inheritPermissions: true },
      hidden: {},
    },
    files: {
      inSeen: { owner: 'owner', category: 'seen' },
      sharedRestricted: { owner: 'owner', category: 'seen' },
      groupShared: { owner: 'owner', category: 'seen' },
      restrictedAway: { owner: 'owner', category: 'seen' },
      trashed: { owner: 'owner', category: 'seen' },
      inTeam: { owner: 'owner', category: 'teamCat' },
      inChild: { owner: 'owner', category: 'child' },
      hiddenShared: { owner: 'owner', category: 'hidden' },
      hiddenOwn: { owner: 'staff', category: 'hidden' },
      hiddenOther: { owner: 'owner', category: 'hidden' },
    },
  });
  t = world.t;
  token = world.users.staff.token;
  staffId = world.users.staff.id;
  categories = world.categories;
  files = world.files;
  const f = world.files;
  await t.db.file.updateMany({
    where: { id: { in: [f.sharedRestricted.id, f.groupShared.id, f.restrictedAway.id] } },
    data: { hasOwnPermissions: true },
  });
  await t.db.filePermission.createMany({
    data: [
      { fileId: f.sharedRestricted.id, userId: staffId },
      { fileId: f.groupShared.id, groupId: world.groups.team.id },
      { fileId: f.hiddenShared.id, userId: staffId },
    ],
  });
  await t.db.file.update({ where: { id: f.trashed.id }, data: { deletedAt: new Date() } });
  // Two of the listed files filed in the same millisecond: the cursor tells them apart by id.
  for (const [name, day] of [
    ['inSeen', 12],
    ['sharedRestricted', 11],
    ['groupShared', 11],
  ] as const)
    await t.db.file.update({
      where: { id: f[name].id },
      data: { createdAt: new Date(Date.UTC(2026, 0, day)) },
    });
});
afterAll(() => t.close());

const ids = (names: string[]) => names.map((n) => files[n]?.id as number).sort((a, b) => a - b);
const listed = async (categoryId: number) => {
  const res = await callAs(t, token, { method: 'GET', url: `/api/fileIncategory/${categoryId}` });
  expect(res.statusCode).toBe(200);
  const data = res.json().data as { total: number; items: Array<{ id: number }> };
  return { total: data.total, ids: data.items.map((i) => i.id).sort((a, b) => a - b) };
};

describe('fileIncategory: the rights cases', () => {
  it('lists the files of a category seen directly, a restricted one shared to the caller or their group, not one restricted away or trashed', async () => {
    const seen = await listed(categories.seen.id);
    expect(seen.ids).toEqual(ids(['inSeen', 'sharedRestricted', 'groupShared']));
    expect(seen.total).toBe(3);
  });

  it('lists the files of a category granted to a group of the caller, and of one inheriting a grant', async () => {
    expect((await listed(categories.teamCat.id)).ids).toEqual(ids(['inTeam']));
    expect((await listed(categories.child.id)).ids).toEqual(ids(['inChild']));
  });

  it('hides a category the caller cannot see (404), though a file in it is shared to them', async () => {
    const res = await callAs(t, token, { method: 'GET', url: `/api/fileIncategory/${categories.hidden.id}` });
    expect(res.statusCode).toBe(404);
  });
});

describe('fileIncategory by cursor (an extension)', () => {
  it('pages by next_cursor as by page number, null after the last page; a bad cursor is refused', async () => {
    const url = `/api/fileIncategory/${categories.seen.id}?quantity=1`;
    const byPage: number[] = [];
    for (const page of [1, 2, 3])
      byPage.push(
        (await callAs(t, token, { method: 'GET', url: `${url}&page=${page}` })).json().data.items[0].id,
      );
    const byCursor: number[] = [];
    let cursor: string | null = null;
    for (const page of [1, 2, 3]) {
      const res = await callAs(t, token, {
        method: 'GET',
        url: `${url}&page=${page}${cursor ? `&cursor=${cursor}` : ''}`,
      });
      const data = res.json().data as {
        page: number;
        total: number;
        items: Array<{ id: number }>;
        next_cursor: string | null;
      };
      expect(data).toMatchObject({ page, total: 3 });
      byCursor.push(data.items[0]?.id as number);
      cursor = data.next_cursor;
    }
    expect(byCursor).toEqual(byPage);
    expect(byPage).toEqual([files.inSeen?.id, ...ids(['sharedRestricted', 'groupShared']).reverse()]);
    expect(cursor).not.toBeNull();
    const after = (await callAs(t, token, { method: 'GET', url: `${url}&cursor=${cursor}` })).json().data;
    expect(after).toMatchObject({ items: [], next_cursor: null, total: 3 });
    const bad = await callAs(t, token, { method: 'GET', url: `${url}&cursor=yesterday` });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].path).toBe('query.cursor');
  });
});

describe('the dashboard: the rights cases', () => {
  it('recent holds every file the caller sees (in a hidden category: theirs and those shared to them), and counts them', async () => {
    const res = await callAs(t, token, {
      method: 'GET',
      url: '/api/dashboard/table?table=recent&quantity=50',
    });
    expect(res.statusCode).toBe(200);
    const recent = res.json().data.recent as { total: number; items: Array<{ file: { id: number } }> };
    const want = ids([
      'inSeen',
      'sharedRestricted',
      'groupShared',
      'inTeam',
      'inChild',
      'hiddenShared',
      'hiddenOwn',
    ]);
    expect(recent.items.map((r) => r.file.id).sort((a, b) => a - b)).toEqual(want);
    expect(recent.total).toBe(want.length);
  });

  it('previewed and checked out leave out what the caller may no longer see', async () => {
    const f = files as Record<string, { id: number }>;
    await t.db.fileView.createMany({
      data: ['inChild', 'restrictedAway', 'hiddenOther', 'hiddenShared'].map((n) => ({
        userId: staffId,
        fileId: f[n]?.id as number,
      })),
    });
    await t.db.file.updateMany({
      where: { id: { in: ids(['inTeam', 'hiddenOther']) } },
      data: { checkedOutById: staffId, checkedOutAt: new Date() },
    });
    const data = (await callAs(t, token, { method: 'GET', url: '/api/dashboard/table?quantity=50' })).json()
      .data as Record<string, { total: number; items: Array<{ file: { id: number } }> }>;
    const of = (table: string) => data[table]?.items.map((r) => r.file.id).sort((a, b) => a - b);
    expect(of('previewed')).toEqual(ids(['inChild', 'hiddenShared']));
    expect(data.previewed?.total).toBe(2);
    expect(of('checked_out')).toEqual(ids(['inTeam']));
    expect(data.checked_out?.total).toBe(1);
  });
});
