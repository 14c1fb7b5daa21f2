import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccessCase, callAs, expectAccess, SETTINGS_CALLERS, writeCase } from '../../../test/access.js';
import type { TestContext } from '../../../test/app.js';
import { errorPaths } from '../../../test/errors.js';
import { createGroup } from '../../../test/factories.js';
import { auditedInTurn } from '../../../test/in-turn.js';
import { uniqueName } from '../../../test/names.js';
import { adminApp, type CallAs, type SeededUser, seed } from '../../../test/seed.js';

// The Settings groups of people: who may call, listing, creating, editing, deleting.

let t: TestContext;
let admin: SeededUser;
let asAdmin: CallAs;

beforeAll(async () => {
  ({ t, admin, asAdmin } = await adminApp('User Administration Admin'));
});
afterAll(() => t.close());

type Inject = InjectOptions;
const call = (token: string | null, opts: Inject) => callAs(t, token, opts);

const groupName = () => uniqueName('Group');
const counts = async () => ({
  groups: await t.db.group.count(),
  members: await t.db.groupMember.count(),
  audits: await t.db.auditEvent.count({ where: { type: 'group' } }),
});

describe('who may call the group calls', () => {
  const cases: AccessCase[] = [
    {
      name: 'GET /api/all_group',
      write: false,
      make: async () => ({ method: 'GET', url: '/api/all_group' }),
    },
    writeCase('POST /api/create_group', async () => ({
      method: 'POST',
      url: '/api/create_group',
      payload: { name: groupName() },
    })),
    writeCase('POST /api/edit_group/{id}', async () => ({
      method: 'POST',
      url: `/api/edit_group/${(await createGroup(t.db)).id}`,
      payload: { description: 'changed' },
    })),
    writeCase('POST /api/group/delete/{id}', async () => ({
      method: 'POST',
      url: `/api/group/delete/${(await createGroup(t.db)).id}`,
    })),
  ];
  it.each(SETTINGS_CALLERS)('as %s', (...caller) => expectAccess(t, caller, cases, counts));
});

describe('GET /api/all_group', () => {
  it('lists groups by name with member count and members (deleted users left out)', async () => {
    const {
      users: { a },
      groups: { group },
    } = await seed(t, {
      users: {
        a: { firstName: 'Ada', lastName: 'Lovelace', signIn: false },
        b: { firstName: 'Bo', lastName: 'Gone', status: 'deleted', signIn: false },
      },
      groups: { group: ['a', 'b'] },
    });
    const res = await asAdmin({ method: 'GET', url: '/api/all_group' });
    expect(res.statusCode).toBe(200);
    const found = res.json().data.find((g: { id: number }) => g.id === group.id);
    expect(found).toEqual({
      id: group.id,
      name: group.name,
      description: '',
      member_count: 1,
      members: [{ id: a.id, name: 'Ada Lovelace' }],
      created_at: group.createdAt.toISOString(),
    });
    const names = res.json().data.map((g: { name: string }) => g.name);
    expect(names).toEqual([...names].sort((x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0)));
  });
});

describe('POST /api/create_group', () => {
  it('creates a group with members, and audits', async () => {
    const {
      users: { u1, u2 },
    } = await seed(t, { users: { u1: { signIn: false }, u2: { signIn: false } } });
    const name = groupName();
    const res = await asAdmin({
      method: 'POST',
      url: '/api/create_group',
      payload: { name: `  ${name} `, description: 'Finance people', user_ids: [u1.id, u2.id, u1.id] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Group created');
    const data = res.json().data;
    expect(data).toMatchObject({ name, description: 'Finance people', member_count: 2 });
    expect(data.members.map((m: { id: number }) => m.id).sort()).toEqual([u1.id, u2.id].sort());
    const event = await t.db.auditEvent.findFirst({
      where: { action: 'group.created', targetId: String(data.id) },
    });
    expect(event?.userId).toBe(admin.id);
  });

  it('refuses a taken name in any letter case (400 naming body.name), writing nothing', async () => {
    const {
      groups: { existing },
    } = await seed(t, { groups: { existing: [] } });
    const before = await counts();
    const res = await asAdmin({
      method: 'POST',
      url: '/api/create_group',
      payload: { name: existing.name.toUpperCase() },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      { path: 'body.name', message: 'A group with this name already exists' },
    ]);
    expect(await counts()).toEqual(before);
  });

  it('refuses unknown users and a bad shape (400 naming the field), writing nothing', async () => {
    const before = await counts();
    const unknown = await asAdmin({
      method: 'POST',
      url: '/api/create_group',
      payload: { name: groupName(), user_ids: [999999] },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors[0].path).toBe('body.user_ids');
    const {
      users: { deleted },
    } = await seed(t, { users: { deleted: { status: 'deleted', signIn: false } } });
    const gone = await asAdmin({
      method: 'POST',
      url: '/api/create_group',
      payload: { name: groupName(), user_ids: [deleted.id] },
    });
    expect(gone.statusCode).toBe(400);
    const shape = await asAdmin({
      method: 'POST',
      url: '/api/create_group',
      payload: { name: '   ', user_ids: ['x'] },
    });
    expect(shape.statusCode).toBe(400);
    expect(errorPaths(shape).sort()).toEqual(['body.name', 'body.user_ids.0']);
    expect(await counts()).toEqual(before);
  });
});

describe('POST /api/edit_group/{id}', () => {
  it('renames, describes and replaces the members; audits before/after', async () => {
    const {
      users: { u1, u2 },
      groups: { group },
    } = await seed(t, { users: { u1: { signIn: false }, u2: { signIn: false } }, groups: { group: ['u1'] } });
    const name = groupName();
    const res = await asAdmin({
      method: 'POST',
      url: `/api/edit_group/${group.id}`,
      payload: { name, description: 'New', user_ids: [u2.id] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      name,
      description: 'New',
      member_count: 1,
      members: [{ id: u2.id }],
    });
    const event = await t.db.auditEvent.findFirst({
      where: { action: 'group.updated', targetId: String(group.id) },
    });
    expect(event?.details).toEqual({
      name: { before: group.name, after: name },
      description: { before: '', after: 'New' },
      user_ids: { before: [u1.id], after: [u2.id] },
    });
  });

  it('takes edits sent at once one after the other: each answers, each audit starts where the last ended', async () => {
    const {
      users: { u1, u2, u3 },
      groups: { group },
    } = await seed(t, {
      users: { u1: { signIn: false }, u2: { signIn: false }, u3: { signIn: false } },
      groups: { group: ['u1'] },
    });
    const sets = [
      [u1.id],
      [u2.id],
      [u1.id, u2.id],
      [u3.id],
      [u2.id, u3.id],
      [u1.id, u3.id],
      [u1.id, u2.id, u3.id],
      [],
    ];
    const answers = await Promise.all(
      sets.map((user_ids) =>
        asAdmin({ method: 'POST', url: `/api/edit_group/${group.id}`, payload: { user_ids } }),
      ),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(sets.map(() => 200));
    const members = await auditedInTurn(t, {
      action: 'group.updated',
      targetId: group.id,
      key: 'user_ids',
      start: [u1.id],
    });
    const stored = await t.db.groupMember.findMany({
      where: { groupId: group.id },
      orderBy: { userId: 'asc' },
    });
    expect(stored.map((m) => m.userId)).toEqual(members);
  });

  it('keeps the members when user_ids is left out, and may keep its own name', async () => {
    const {
      users: { u1 },
      groups: { group },
    } = await seed(t, { users: { u1: { signIn: false } }, groups: { group: ['u1'] } });
    const res = await asAdmin({
      method: 'POST',
      url: `/api/edit_group/${group.id}`,
      payload: { name: group.name, description: 'Only this' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.members).toEqual([{ id: u1.id, name: expect.any(String) }]);
  });

  it('refuses a taken name, unknown users (400) and an unknown group (404), changing nothing', async () => {
    const {
      users: { u1 },
      groups: { group, other },
    } = await seed(t, { users: { u1: { signIn: false } }, groups: { group: ['u1'], other: [] } });
    const before = await counts();
    const taken = await asAdmin({
      method: 'POST',
      url: `/api/edit_group/${group.id}`,
      payload: { name: other.name },
    });
    expect(taken.statusCode).toBe(400);
    expect(taken.json().errors[0].path).toBe('body.name');
    const unknown = await asAdmin({
      method: 'POST',
      url: `/api/edit_group/${group.id}`,
      payload: { user_ids: [u1.id, 999999] },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors).toEqual([{ path: 'body.user_ids', message: 'Unknown users: 999999' }]);
    const missing = await asAdmin({
      method: 'POST',
      url: '/api/edit_group/999999',
      payload: { name: groupName() },
    });
    expect(missing.statusCode).toBe(404);
    const badId = await asAdmin({ method: 'POST', url: '/api/edit_group/abc', payload: {} });
    expect(badId.statusCode).toBe(400);
    expect(await counts()).toEqual(before);
    expect(await t.db.group.findUniqueOrThrow({ where: { id: group.id } })).toMatchObject({
      name: group.name,
    });
  });
});

describe('POST /api/group/delete/{id}', () => {
  it('deletes the group and its memberships; the users stay', async () => {
    const {
      users: { u1 },
      groups: { group },
    } = await seed(t, { users: { u1: { signIn: false } }, groups: { group: ['u1'] } });
    const res = await asAdmin({ method: 'POST', url: `/api/group/delete/${group.id}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Group deleted', data: null });
    expect(await t.db.group.findUnique({ where: { id: group.id } })).toBeNull();
    expect(await t.db.groupMember.count({ where: { groupId: group.id } })).toBe(0);
    expect(await t.db.user.findUnique({ where: { id: u1.id } })).not.toBeNull();
    const event = await t.db.auditEvent.findFirst({
      where: { action: 'group.deleted', targetId: String(group.id) },
    });
    expect(event?.details).toEqual({ name: group.name, user_ids: [u1.id] });
  });

  it('answers 404 for an unknown id, writing nothing', async () => {
    const before = await counts();
    expect((await asAdmin({ method: 'POST', url: '/api/group/delete/999999' })).statusCode).toBe(404);
    expect(await counts()).toEqual(before);
  });
});

describe('members the caller may not manage (the rule editUser applies)', () => {
  it('a User Administration Admin cannot put a Company Admin or the Vendor Admin into a group, or take them out (403)', async () => {
    const {
      users: { boss, vendor, staff, other },
    } = await seed(t, {
      users: {
        boss: { accessType: 'COMPANY ADMIN', signIn: false },
        vendor: { accessType: 'DATAMAX ADMIN', signIn: false },
        staff: { accessType: 'General staff', signIn: false },
        other: { accessType: 'General staff', signIn: false },
      },
    });
    const before = await counts();
    for (const [ids, code] of [
      [[staff.id, boss.id], 'user.more_access'],
      [[vendor.id], 'user.vendor_admin_protected'],
    ] as const) {
      const created = await asAdmin({
        method: 'POST',
        url: '/api/create_group',
        payload: { name: groupName(), user_ids: ids },
      });
      expect(created.statusCode).toBe(403);
      expect(created.json().code).toBe(code);
    }
    const {
      groups: { group },
    } = await seed(t, { users: { staff, boss }, groups: { group: ['staff', 'boss'] } });
    const after = await counts();
    const added = await asAdmin({
      method: 'POST',
      url: `/api/edit_group/${group.id}`,
      payload: { user_ids: [staff.id, boss.id, vendor.id] },
    });
    expect(added.statusCode).toBe(403);
    const removed = await asAdmin({
      method: 'POST',
      url: `/api/edit_group/${group.id}`,
      payload: { user_ids: [staff.id] },
    });
    expect(removed.statusCode).toBe(403);
    expect(removed.json().message).toBe('You cannot manage a user with more access than your own');
    expect(await counts()).toEqual(after);
    expect(after.groups).toBe(before.groups + 1);

    // Members the admin may manage still come and go; a Company Admin already there stays.
    const fine = await asAdmin({
      method: 'POST',
      url: `/api/edit_group/${group.id}`,
      payload: { name: `${group.name} renamed`, user_ids: [boss.id, other.id] },
    });
    expect(fine.statusCode).toBe(200);
    expect(
      fine
        .json()
        .data.members.map((m: { id: number }) => m.id)
        .sort(),
    ).toEqual([boss.id, other.id].sort());
  });

  it('a Company Admin may put a Company Admin into a group', async () => {
    const {
      users: { companyAdmin, boss },
    } = await seed(t, {
      users: {
        companyAdmin: { accessType: 'COMPANY ADMIN' },
        boss: { accessType: 'COMPANY ADMIN', signIn: false },
      },
    });
    const res = await call(companyAdmin.token, {
      method: 'POST',
      url: '/api/create_group',
      payload: { name: groupName(), user_ids: [boss.id] },
    });
    expect(res.statusCode).toBe(200);
  });
});
