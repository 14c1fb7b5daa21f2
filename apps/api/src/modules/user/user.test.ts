import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs, expectAccess, readCase, SETTINGS_CALLERS, writeCase } from '../../../test/access.js';
import type { TestContext } from '../../../test/app.js';
import { errorPaths } from '../../../test/errors.js';
import { createUser, loginAs, TEST_PASSWORD } from '../../../test/factories.js';
import { membershipsInTurn } from '../../../test/in-turn.js';
import { multipart, tinyPng, xlsx } from '../../../test/multipart.js';
import { uniqueName } from '../../../test/names.js';
import { adminApp, type CallAs, person, type SeededUser, type SeedUser, seed } from '../../../test/seed.js';

// The Settings user calls and the own account: passwords, sessions, creating, editing, who may
// manage whom, the paged list.

let t: TestContext;
let companyAdmin: SeededUser;
let asAdmin: CallAs;

beforeAll(async () => {
  ({ t, admin: companyAdmin, asAdmin } = await adminApp('COMPANY ADMIN'));
});
afterAll(() => t.close());

type Inject = InjectOptions;
const call = (token: string | null, opts: Inject) => callAs(t, token, opts);

const NEW_PASSWORD = 'Another-Long-Passphrase-42';
let seq = 0;
const fresh = () => {
  seq += 1;
  return `n${seq}x${Date.now().toString(36)}`;
};
const newUserBody = (over: Record<string, unknown> = {}) => {
  const name = fresh();
  return {
    username: name,
    email: `${name}@example.test`,
    first_name: 'Nina',
    last_name: 'Neu',
    password: NEW_PASSWORD,
    role: 'admin',
    access_type: 'File Control Admin',
    ...over,
  };
};

/** The audit event `action` on the user `userId`; neither its message nor its details hold the new password. */
async function auditedWithoutPassword(action: string, userId: number) {
  const event = await t.db.auditEvent.findFirst({ where: { action, targetId: String(userId) } });
  expect(JSON.stringify([event?.message, event?.details])).not.toContain(NEW_PASSWORD);
  return event;
}

const counts = async () => ({
  users: await t.db.user.count(),
  members: await t.db.groupMember.count(),
  audits: await t.db.auditEvent.count({ where: { type: 'user' } }),
  ended: await t.db.session.count({ where: { revokedAt: { not: null } } }),
});

// ---------------------------------------------------------------------------------------------

describe('who may call the Settings user calls', () => {
  const target = async (over: SeedUser = {}) => person(t, { ...over, signIn: false });
  // A User Administration Admin may create its own kind (not more: see "who may manage whom").
  const manageable = () => newUserBody({ access_type: 'User Administration Admin' });
  const cases = [
    readCase('/api/all_user'),
    readCase('/api/logged-in-user'),
    readCase('/api/users/all'),
    readCase('/api/users/import-template'),
    writeCase('POST /api/users/createUser', async () => ({
      method: 'POST',
      url: '/api/users/createUser',
      payload: manageable(),
    })),
    writeCase('POST /api/users/create-many-users', async () => ({
      method: 'POST',
      url: '/api/users/create-many-users',
      payload: { users: [manageable(), manageable()] },
    })),
    writeCase('POST /api/import_user', async () => {
      const b = manageable();
      const file = await xlsx([
        ['username', 'email', 'first_name', 'last_name', 'access_type', 'role', 'password'],
        [b.username, b.email, 'I', 'Mport', 'User Administration Admin', 'admin', NEW_PASSWORD],
      ]);
      return {
        method: 'POST',
        url: '/api/import_user',
        ...multipart({ file: { content: file, filename: 'u.xlsx' } }),
      };
    }),
    writeCase('PUT /api/editUser/{id}', async () => ({
      method: 'PUT',
      url: `/api/editUser/${(await target()).id}`,
      payload: { first_name: 'Ed' },
    })),
    writeCase('PUT /api/activate_user', async () => ({
      method: 'PUT',
      url: '/api/activate_user',
      payload: { id: (await target({ status: 'deactivated' })).id },
    })),
    writeCase('PUT /api/deactivate_user', async () => ({
      method: 'PUT',
      url: '/api/deactivate_user',
      payload: { id: (await target()).id },
    })),
    writeCase('PUT /api/delete_user', async () => ({
      method: 'PUT',
      url: '/api/delete_user',
      payload: { id: (await target()).id },
    })),
    writeCase('POST /api/logged-in-user/{id}/end', async () => {
      await person(t);
      const session = await t.db.session.findFirstOrThrow({
        where: { revokedAt: null },
        orderBy: { createdAt: 'desc' },
      });
      return { method: 'POST', url: `/api/logged-in-user/${session.id}/end` };
    }),
    writeCase('PUT /api/unlock_user', async () => ({
      method: 'PUT',
      url: '/api/unlock_user',
      payload: { id: (await target()).id },
    })),
    writeCase('POST /api/reset-password', async () => ({
      method: 'POST',
      url: '/api/reset-password',
      payload: { user_id: (await target()).id, password: NEW_PASSWORD },
    })),
  ];
  it.each(SETTINGS_CALLERS)('as %s', (...caller) => expectAccess(t, caller, cases, counts));
});

// ---------------------------------------------------------------------------------------------

describe('GET /api/user/current', () => {
  it('answers the signed-in user, and 401 without a token', async () => {
    const res = await asAdmin({ method: 'GET', url: '/api/user/current' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: companyAdmin.id, username: companyAdmin.username });
    expect((await call(null, { method: 'GET', url: '/api/user/current' })).statusCode).toBe(401);
  });
});

describe('POST /api/update-password', () => {
  const url = '/api/update-password';

  it('changes the own password, keeps this session, signs out the others, and audits', async () => {
    const {
      users: { user },
    } = await seed(t, { users: { user: { accessType: 'General staff' } } });
    const token = user.token;
    const other = await loginAs(t.app, user, 'user');
    const res = await call(token, {
      method: 'POST',
      url,
      payload: { current_password: TEST_PASSWORD, new_password: NEW_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    expect((await call(token, { method: 'GET', url: '/api/user/current' })).statusCode).toBe(200);
    expect((await call(other, { method: 'GET', url: '/api/user/current' })).statusCode).toBe(401);
    await expect(loginAs(t.app, user, 'user')).rejects.toThrow();
    await loginAs(t.app, user, 'user', NEW_PASSWORD);
    expect((await auditedWithoutPassword('password.changed', user.id))?.userId).toBe(user.id);
  });

  it('refuses a wrong current password (400 naming it) and changes nothing', async () => {
    const {
      users: { user },
    } = await seed(t, { users: { user: { accessType: 'Auditor' } } });
    const token = user.token;
    const before = await t.db.user.findUniqueOrThrow({ where: { id: user.id } });
    const res = await call(token, {
      method: 'POST',
      url,
      payload: { current_password: 'not-it-at-all', new_password: NEW_PASSWORD },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ path: 'body.current_password', message: expect.any(String) }]);
    const after = await t.db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(after.passwordHash).toBe(before.passwordHash);
  });

  it('refuses a new password against the policy (400 naming body.new_password)', async () => {
    const {
      users: { user },
    } = await seed(t, { users: { user: { accessType: 'Auditor', username: `pol${fresh()}` } } });
    const token = user.token;
    for (const bad of ['short', `${user.username}-Extra-99`, 'password123']) {
      const res = await call(token, {
        method: 'POST',
        url,
        payload: { current_password: TEST_PASSWORD, new_password: bad },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors[0].path).toBe('body.new_password');
    }
    const bad = await call(token, { method: 'POST', url, payload: { new_password: NEW_PASSWORD } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].path).toBe('body.current_password');
    await loginAs(t.app, user);
  });

  it('answers 401 without a token', async () => {
    const res = await call(null, {
      method: 'POST',
      url,
      payload: { current_password: 'a', new_password: 'b' },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('GET /api/all_user', () => {
  it('lists every user not deleted, with the picker fields', async () => {
    const {
      users: { live },
    } = await seed(t, {
      users: { live: { accessType: 'Auditor', firstName: 'Alma', lastName: 'Picker', signIn: false } },
    });
    const {
      users: { gone },
    } = await seed(t, { users: { gone: { accessType: 'Auditor', status: 'deleted', signIn: false } } });
    const res = await asAdmin({ method: 'GET', url: '/api/all_user' });
    expect(res.statusCode).toBe(200);
    const rows = res.json().data as Array<{ id: number }>;
    expect(rows).toContainEqual({
      id: live.id,
      name: 'Alma Picker',
      username: live.username,
      email: live.email,
      access_type: 'Auditor',
      status: 'active',
    });
    expect(rows.map((r) => r.id)).not.toContain(gone.id);
  });
});

describe('GET /api/logged-in-user', () => {
  it('lists live sessions only: not signed out, not expired', async () => {
    const {
      users: { user },
    } = await seed(t, { users: { user: { accessType: 'Auditor' } } });
    const live = user.token;
    const out = await loginAs(t.app, user);
    await call(out, { method: 'POST', url: '/api/logout' });
    const expired = await loginAs(t.app, user, 'user');
    const sessions = await t.db.session.findMany({
      where: { userId: user.id },
      orderBy: { createdAt: 'asc' },
    });
    await t.db.session.update({
      where: { id: sessions[2]!.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect(expired).toBeTruthy();

    const res = await asAdmin({ method: 'GET', url: '/api/logged-in-user', headers: { 'user-agent': 'x' } });
    expect(res.statusCode).toBe(200);
    const mine = (res.json().data as Array<{ user: { id: number }; session_id: string }>).filter(
      (s) => s.user.id === user.id,
    );
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      session_id: sessions[0]!.id,
      role: 'admin',
      user: { username: user.username, access_type: 'Auditor' },
      created_at: expect.any(String),
      last_seen_at: expect.any(String),
    });
    expect(live).toBeTruthy();
  });

  it('marks only the session making the call as current, not the same user’s other sessions', async () => {
    const {
      users: { me },
    } = await seed(t, { users: { me: { accessType: 'COMPANY ADMIN' } } });
    const here = me.token;
    await loginAs(t.app, me, 'user');
    const res = await call(here, { method: 'GET', url: '/api/logged-in-user' });
    const mine = (res.json().data as Array<{ user: { id: number }; current: boolean }>).filter(
      (s) => s.user.id === me.id,
    );
    expect(mine.map((s) => s.current).sort()).toEqual([false, true]);
    expect((res.json().data as Array<{ current: boolean }>).filter((s) => s.current)).toHaveLength(1);
  });

  it('leaves out sessions past their absolute lifetime, however recently used', async () => {
    const {
      users: { user },
    } = await seed(t, { users: { user: { accessType: 'Auditor' } } });
    const token = user.token;
    const session = await t.db.session.findFirstOrThrow({ where: { userId: user.id } });
    // Signed in 8 days ago (SESSION_MAX_HOURS is 168), used a moment ago.
    await t.db.session.update({
      where: { id: session.id },
      data: {
        createdAt: new Date(Date.now() - 8 * 24 * 3_600_000),
        expiresAt: new Date(Date.now() + 3_600_000),
      },
    });
    expect((await call(token, { method: 'GET', url: '/api/check-session' })).statusCode).toBe(401);
    const res = await asAdmin({ method: 'GET', url: '/api/logged-in-user' });
    expect((res.json().data as Array<{ session_id: string }>).map((s) => s.session_id)).not.toContain(
      session.id,
    );
  });
});

describe('POST /api/logged-in-user/{id}/end', () => {
  const end = (token: string, id: string) =>
    call(token, { method: 'POST', url: `/api/logged-in-user/${id}/end` });
  const sessionOf = (userId: number) =>
    t.db.session.findFirstOrThrow({ where: { userId, revokedAt: null }, orderBy: { createdAt: 'desc' } });

  it('ends another session at once, and audits it', async () => {
    const {
      users: { user },
    } = await seed(t, { users: { user: { accessType: 'Auditor' } } });
    const theirs = user.token;
    const session = await sessionOf(user.id);
    const res = await end(companyAdmin.token, session.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'The session was ended', data: null });
    expect((await call(theirs, { method: 'GET', url: '/api/check-session' })).statusCode).toBe(401);
    const event = await t.db.auditEvent.findFirstOrThrow({
      where: { action: 'session.ended_by_admin' },
      orderBy: { id: 'desc' },
    });
    expect(event).toMatchObject({ userId: companyAdmin.id, targetId: String(user.id) });
    expect(event.details).toMatchObject({ session_id: session.id });
    // Ended already: not found.
    expect((await end(companyAdmin.token, session.id)).statusCode).toBe(404);
  });

  it('may end another session of the caller, not the current one (sign out instead)', async () => {
    const {
      users: { me },
    } = await seed(t, { users: { me: { accessType: 'COMPANY ADMIN' } } });
    const here = me.token;
    const hereId = (await sessionOf(me.id)).id;
    await loginAs(t.app, me, 'user');
    const elsewhere = await sessionOf(me.id);
    const own = await end(here, hereId);
    expect(own.statusCode).toBe(403);
    expect(own.json().message).toBe('This is your own session: sign out to end it');
    expect((await end(here, elsewhere.id)).statusCode).toBe(200);
    expect((await call(here, { method: 'GET', url: '/api/check-session' })).statusCode).toBe(200);
  });

  it('refuses sessions of users the caller may not manage (403), an unknown one (404), a bad id (400)', async () => {
    const { users } = await seed(t, {
      users: {
        userAdmin: { accessType: 'User Administration Admin' },
        boss: { accessType: 'COMPANY ADMIN' },
      },
    });
    const { boss } = users;
    const userAdmin = users.userAdmin.token;
    const bossSession = await sessionOf(boss.id);
    expect((await end(userAdmin, bossSession.id)).statusCode).toBe(403);
    expect((await t.db.session.findUniqueOrThrow({ where: { id: bossSession.id } })).revokedAt).toBeNull();
    expect((await end(userAdmin, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    const bad = await end(userAdmin, 'not-a-session');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].path).toBe('params.id');
  });
});

// ---------------------------------------------------------------------------------------------

describe('POST /api/users/createUser', () => {
  const url = '/api/users/createUser';

  it('creates a user who can sign in, with groups, and audits without the password', async () => {
    const { group } = (await seed(t, { groups: { group: [] } })).groups;
    const body = newUserBody({ username: `MiXeD${fresh()}`, group_ids: [group.id] });
    const res = await asAdmin({ method: 'POST', url, payload: body });
    expect(res.statusCode).toBe(200);
    const { data, message } = res.json();
    expect(message).toBe('User created successfully');
    expect(data).toMatchObject({
      username: body.username.toLowerCase(),
      email: body.email,
      name: 'Nina Neu',
      role: 'admin',
      access_type: 'File Control Admin',
      status: 'active',
      groups: [{ id: group.id, name: group.name }],
      has_signature: false,
      deleted_at: null,
    });
    const row = await t.db.user.findUniqueOrThrow({ where: { id: data.id } });
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row.createdById).toBe(companyAdmin.id);
    await loginAs(t.app, { username: body.username }, 'admin', NEW_PASSWORD);
    const event = await t.db.auditEvent.findFirst({
      where: { action: 'user.created', targetId: String(data.id) },
    });
    expect(event?.userId).toBe(companyAdmin.id);
    expect(JSON.stringify(event?.details)).not.toContain(NEW_PASSWORD);
  });

  it('gives General staff the login role user', async () => {
    const res = await asAdmin({
      method: 'POST',
      url,
      payload: newUserBody({ access_type: 'General staff' }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ role: 'user', access_type: 'General staff' });
  });

  it('refuses a taken username or e-mail in any letter case (400 naming the field), writing nothing', async () => {
    const {
      users: { existing },
    } = await seed(t, { users: { existing: { accessType: 'Auditor', signIn: false } } });
    const before = await counts();
    const dupName = await asAdmin({
      method: 'POST',
      url,
      payload: newUserBody({ username: existing.username.toUpperCase() }),
    });
    expect(dupName.statusCode).toBe(400);
    expect(dupName.json().errors).toEqual([{ path: 'body.username', message: 'This username is taken' }]);
    const dupMail = await asAdmin({
      method: 'POST',
      url,
      payload: newUserBody({ email: existing.email.toUpperCase() }),
    });
    expect(dupMail.statusCode).toBe(400);
    expect(dupMail.json().errors).toEqual([{ path: 'body.email', message: 'This e-mail is already in use' }]);
    expect(await counts()).toEqual(before);
  });

  it('refuses a weak password, a bad shape and unknown groups with 400, writing nothing', async () => {
    const before = await counts();
    const weak = await asAdmin({ method: 'POST', url, payload: newUserBody({ password: 'password123' }) });
    expect(weak.statusCode).toBe(400);
    expect(errorPaths(weak)).toEqual(['body.password']);
    const shape = await asAdmin({
      method: 'POST',
      url,
      payload: { username: 'has space', email: 'nope', role: 'root', access_type: 'Boss' },
    });
    expect(shape.statusCode).toBe(400);
    expect(errorPaths(shape).sort()).toEqual([
      'body.access_type',
      'body.email',
      'body.first_name',
      'body.last_name',
      'body.password',
      'body.role',
      'body.username',
    ]);
    const groups = await asAdmin({ method: 'POST', url, payload: newUserBody({ group_ids: [999999] }) });
    expect(groups.statusCode).toBe(400);
    expect(groups.json().errors[0].path).toBe('body.group_ids');
    expect(await counts()).toEqual(before);
  });

  it('refuses a username with "@" (it could equal an e-mail) or outside 3-64 characters, writing nothing', async () => {
    const before = await counts();
    for (const username of ['a@b.c', 'ab', 'x'.repeat(65)]) {
      const res = await asAdmin({ method: 'POST', url, payload: newUserBody({ username }) });
      expect(res.statusCode, username).toBe(400);
      expect(errorPaths(res)).toEqual(['body.username']);
    }
    expect(await counts()).toEqual(before);
  });

  it('refuses to create a Vendor Admin (403), writing nothing but the refusal', async () => {
    const before = await counts();
    const res = await asAdmin({
      method: 'POST',
      url,
      payload: newUserBody({ access_type: 'DATAMAX ADMIN' }),
    });
    expect(res.statusCode).toBe(403);
    expect(await counts()).toEqual(before);
    expect(
      await t.db.auditEvent.count({ where: { action: 'access.denied', userId: companyAdmin.id } }),
    ).toBeGreaterThan(0);
  });
});

describe('POST /api/users/create-many-users', () => {
  const url = '/api/users/create-many-users';

  it('creates every user in one go', async () => {
    const users = [newUserBody(), newUserBody({ access_type: 'General staff' }), newUserBody()];
    const res = await asAdmin({ method: 'POST', url, payload: { users } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.created).toBe(3);
    expect(res.json().data.users.map((u: { username: string }) => u.username)).toEqual(
      users.map((u) => u.username),
    );
    expect(
      await t.db.auditEvent.count({
        where: { action: 'user.created', details: { path: ['source'], equals: 'batch' } },
      }),
    ).toBeGreaterThanOrEqual(3);
  });

  it('names every bad row (duplicates within the batch too) and writes nothing', async () => {
    const {
      users: { existing },
    } = await seed(t, { users: { existing: { accessType: 'Auditor', signIn: false } } });
    const a = newUserBody();
    const users = [
      a,
      newUserBody({ email: existing.email }),
      newUserBody({ access_type: 'DATAMAX ADMIN' }),
      newUserBody({ username: a.username.toUpperCase(), email: 'not-an-email' }),
      newUserBody({ password: 'tiny' }),
      newUserBody({ email: a.email }),
    ];
    const before = await counts();
    const res = await asAdmin({ method: 'POST', url, payload: { users } });
    expect(res.statusCode).toBe(400);
    // The shape check comes first: row 3's e-mail is not an address.
    expect(errorPaths(res)).toEqual(['body.users.3.email']);
    expect(await counts()).toEqual(before);

    users[3] = newUserBody({ username: a.username.toUpperCase() });
    const res2 = await asAdmin({ method: 'POST', url, payload: { users } });
    expect(res2.statusCode).toBe(400);
    expect(errorPaths(res2)).toEqual([
      'body.users.1.email',
      'body.users.2.access_type',
      'body.users.3.username',
      'body.users.4.password',
      'body.users.5.email',
    ]);
    expect(await counts()).toEqual(before);
  });

  it('refuses an empty list', async () => {
    const res = await asAdmin({ method: 'POST', url, payload: { users: [] } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].path).toBe('body.users');
  });
});

// ---------------------------------------------------------------------------------------------

describe('PUT /api/editUser/{id}', () => {
  it('changes fields and groups, audits before/after, and keeps sessions when access is unchanged', async () => {
    const {
      users: { user },
      groups: { group },
    } = await seed(t, { users: { user: { accessType: 'Auditor' } }, groups: { group: [] } });
    const token = user.token;
    const email = `${fresh()}@example.test`;
    const res = await asAdmin({
      method: 'PUT',
      url: `/api/editUser/${user.id}`,
      payload: { first_name: 'Edith', email: email.toUpperCase(), group_ids: [group.id] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ first_name: 'Edith', email, groups: [{ id: group.id }] });
    const event = await t.db.auditEvent.findFirst({
      where: { action: 'user.updated', targetId: String(user.id) },
    });
    expect(event?.details).toMatchObject({
      changes: {
        first_name: { before: 'Test', after: 'Edith' },
        email: { before: user.email, after: email },
        group_ids: { before: [], after: [group.id] },
      },
      sessions_revoked: 0,
    });
    expect((await call(token, { method: 'GET', url: '/api/user/current' })).statusCode).toBe(200);
  });

  it('signs the user out when the access type or role changes', async () => {
    const {
      users: { user },
    } = await seed(t, { users: { user: { accessType: 'Auditor' } } });
    const token = user.token;
    const res = await asAdmin({
      method: 'PUT',
      url: `/api/editUser/${user.id}`,
      payload: { access_type: 'General staff' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ access_type: 'General staff', role: 'user' });
    expect((await call(token, { method: 'GET', url: '/api/user/current' })).statusCode).toBe(401);
  });

  it('refuses changing your own access type or role (403), but allows your own name', async () => {
    const {
      users: { me },
    } = await seed(t, { users: { me: { accessType: 'User Administration Admin' } } });
    const token = me.token;
    const url = `/api/editUser/${me.id}`;
    for (const payload of [{ access_type: 'COMPANY ADMIN' }, { role: 'user' }]) {
      const res = await call(token, { method: 'PUT', url, payload });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('You cannot change your own access type or role');
    }
    const same = await call(token, {
      method: 'PUT',
      url,
      payload: { access_type: 'User Administration Admin', last_name: 'Self' },
    });
    expect(same.statusCode).toBe(200);
    expect(same.json().data.last_name).toBe('Self');
    const row = await t.db.user.findUniqueOrThrow({ where: { id: me.id } });
    expect(row.accessType).toBe('USER_ADMINISTRATION_ADMIN');
  });

  it('refuses a taken username (400), unknown ids (404), Vendor Admin changes (403)', async () => {
    const {
      users: { a },
    } = await seed(t, { users: { a: { accessType: 'Auditor', signIn: false } } });
    const {
      users: { b },
    } = await seed(t, { users: { b: { accessType: 'Auditor', signIn: false } } });
    const taken = await asAdmin({
      method: 'PUT',
      url: `/api/editUser/${a.id}`,
      payload: { username: b.username.toUpperCase() },
    });
    expect(taken.statusCode).toBe(400);
    expect(taken.json().errors).toEqual([{ path: 'body.username', message: 'This username is taken' }]);
    expect((await t.db.user.findUniqueOrThrow({ where: { id: a.id } })).username).toBe(a.username);

    const bad = await asAdmin({ method: 'PUT', url: `/api/editUser/${a.id}`, payload: { email: 'nope' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].path).toBe('body.email');

    expect(
      (await asAdmin({ method: 'PUT', url: '/api/editUser/999999', payload: { first_name: 'X' } }))
        .statusCode,
    ).toBe(404);

    const promote = await asAdmin({
      method: 'PUT',
      url: `/api/editUser/${a.id}`,
      payload: { access_type: 'DATAMAX ADMIN' },
    });
    expect(promote.statusCode).toBe(403);
    const {
      users: { vendor },
    } = await seed(t, { users: { vendor: { accessType: 'DATAMAX ADMIN', signIn: false } } });
    const edit = await asAdmin({
      method: 'PUT',
      url: `/api/editUser/${vendor.id}`,
      payload: { email: `${fresh()}@x.test` },
    });
    expect(edit.statusCode).toBe(403);
    expect((await t.db.user.findUniqueOrThrow({ where: { id: a.id } })).accessType).toBe('AUDITOR');
  });
});

describe('PUT /api/activate_user, /api/deactivate_user, /api/delete_user', () => {
  it('deactivates (signed out at once, cannot sign in), activates again, and audits each', async () => {
    const {
      users: { user },
    } = await seed(t, { users: { user: { accessType: 'Auditor' } } });
    const token = user.token;
    const off = await asAdmin({ method: 'PUT', url: '/api/deactivate_user', payload: { id: user.id } });
    expect(off.statusCode).toBe(200);
    expect(off.json().data.status).toBe('deactivated');
    expect((await call(token, { method: 'GET', url: '/api/user/current' })).statusCode).toBe(401);
    await expect(loginAs(t.app, user)).rejects.toThrow(/403/);
    expect(await t.db.session.count({ where: { userId: user.id, revokedAt: null } })).toBe(0);

    const on = await asAdmin({ method: 'PUT', url: '/api/activate_user', payload: { id: user.id } });
    expect(on.statusCode).toBe(200);
    expect(on.json().data.status).toBe('active');
    await loginAs(t.app, user);
    const actions = (
      await t.db.auditEvent.findMany({ where: { targetId: String(user.id), type: 'user' } })
    ).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['user.deactivated', 'user.activated']));
  });

  it('deletes softly: the row stays with deleted_at, the username stays reserved', async () => {
    const {
      users: { user },
    } = await seed(t, { users: { user: { accessType: 'Auditor' } } });
    const token = user.token;
    const res = await asAdmin({ method: 'PUT', url: '/api/delete_user', payload: { id: user.id } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'deleted', deleted_at: expect.any(String) });
    expect((await call(token, { method: 'GET', url: '/api/user/current' })).statusCode).toBe(401);
    const row = await t.db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.deletedAt).not.toBeNull();
    const again = await asAdmin({
      method: 'POST',
      url: '/api/users/createUser',
      payload: newUserBody({ username: user.username }),
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().errors[0].path).toBe('body.username');
    const listed = await asAdmin({ method: 'GET', url: '/api/users/all?status=deleted&quantity=100' });
    expect(listed.json().data.users.map((u: { id: number }) => u.id)).toContain(user.id);
  });

  it.each([
    ['/api/deactivate_user', 'deactivate'],
    ['/api/delete_user', 'delete'],
  ])('%s: nobody does it to themselves (403), nor to the Vendor Admin', async (url, verb) => {
    const res = await asAdmin({ method: 'PUT', url, payload: { id: companyAdmin.id } });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(`You cannot ${verb} your own account`);
    const {
      users: { vendor },
    } = await seed(t, { users: { vendor: { accessType: 'DATAMAX ADMIN', signIn: false } } });
    expect((await asAdmin({ method: 'PUT', url, payload: { id: vendor.id } })).statusCode).toBe(403);
    expect((await t.db.user.findUniqueOrThrow({ where: { id: vendor.id } })).status).toBe('active');
    expect((await t.db.user.findUniqueOrThrow({ where: { id: companyAdmin.id } })).status).toBe('active');
  });

  it('refuses to activate (or deactivate) a deleted user: deleted is final (409)', async () => {
    const {
      users: { user },
    } = await seed(t, { users: { user: { accessType: 'Auditor', signIn: false } } });
    expect(
      (await asAdmin({ method: 'PUT', url: '/api/delete_user', payload: { id: user.id } })).statusCode,
    ).toBe(200);
    const before = await counts();
    for (const url of ['/api/activate_user', '/api/deactivate_user']) {
      const res = await asAdmin({ method: 'PUT', url, payload: { id: user.id } });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe('A deleted user cannot be reactivated');
    }
    expect(await counts()).toEqual(before);
    const row = await t.db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row).toMatchObject({ status: 'deleted', deletedAt: expect.any(Date) });
    await expect(loginAs(t.app, user)).rejects.toThrow(/403/);
  });

  it('two admins at once cannot bring a deleted user back: the second sees the first’s result', async () => {
    const { users } = await seed(t, { users: { second: { accessType: 'COMPANY ADMIN' } } });
    const second = users.second.token;
    for (const undo of ['/api/activate_user', '/api/deactivate_user']) {
      const user = await person(t, {
        signIn: false,
        status: undo === '/api/activate_user' ? 'deactivated' : 'active',
      });
      // Hold the user's row so both calls have read it before either writes: the delete
      // queues first, the other change second; then let go.
      const deleting = await t.db.$transaction(
        async (tx) => {
          const waiting = async (n: number) => {
            for (let i = 0; i < 250; i++) {
              // Statistics views are a snapshot per transaction: look afresh each time.
              await tx.$executeRaw`SELECT pg_stat_clear_snapshot()`;
              const [row] = await tx.$queryRaw<
                Array<{ n: bigint }>
              >`SELECT count(*) AS n FROM pg_stat_activity
                WHERE datname = current_database() AND wait_event_type = 'Lock'`;
              if (Number(row?.n) >= n) return;
              await new Promise((r) => setTimeout(r, 20));
            }
            throw new Error(`fewer than ${n} calls waiting for the row`);
          };
          await tx.$queryRaw`SELECT id FROM users WHERE id = ${user.id} FOR UPDATE`;
          const deleted = asAdmin({ method: 'PUT', url: '/api/delete_user', payload: { id: user.id } });
          await waiting(1);
          const undone = call(second, { method: 'PUT', url: undo, payload: { id: user.id } });
          await waiting(2);
          return [deleted, undone] as const;
        },
        { timeout: 20_000 },
      );
      const [deleted, undone] = await Promise.all(deleting);
      expect(deleted.statusCode).toBe(200);
      expect(undone.statusCode).toBe(409);
      expect(undone.json().code).toBe('user.deleted_is_final');
      expect((await t.db.user.findUniqueOrThrow({ where: { id: user.id } })).status).toBe('deleted');
      expect(
        await t.db.auditEvent.count({
          where: { targetId: String(user.id), action: { in: ['user.activated', 'user.deactivated'] } },
        }),
      ).toBe(0);
    }
  });

  it('does not edit, promote or set a password for a deleted user (409), writing nothing', async () => {
    // The row as stored: its name and password hash must stay as they are.
    const user = await createUser(t.db, { accessType: 'General staff', status: 'deleted' });
    const before = await counts();
    const edit = await asAdmin({
      method: 'PUT',
      url: `/api/editUser/${user.id}`,
      payload: { first_name: 'Back', access_type: 'COMPANY ADMIN', role: 'admin' },
    });
    expect(edit.statusCode).toBe(409);
    expect(edit.json().message).toBe('A deleted user cannot be changed');
    const password = await asAdmin({
      method: 'POST',
      url: '/api/reset-password',
      payload: { user_id: user.id, password: NEW_PASSWORD },
    });
    expect(password.statusCode).toBe(409);
    expect(await counts()).toEqual(before);
    expect(await t.db.user.findUniqueOrThrow({ where: { id: user.id } })).toMatchObject({
      firstName: user.firstName,
      accessType: 'GENERAL_STAFF',
      passwordHash: user.passwordHash,
    });
  });

  it('answers 404 for an unknown id and 400 for a bad body, writing nothing', async () => {
    const before = await counts();
    expect(
      (await asAdmin({ method: 'PUT', url: '/api/delete_user', payload: { id: 999999 } })).statusCode,
    ).toBe(404);
    const bad = await asAdmin({ method: 'PUT', url: '/api/activate_user', payload: { id: 'abc' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].path).toBe('body.id');
    expect(await counts()).toEqual(before);
  });
});

describe('edits of one membership sent at once', () => {
  type Answer = Awaited<ReturnType<CallAs>>;
  const editUser = (id: number, payload: Record<string, unknown>) =>
    asAdmin({ method: 'PUT', url: `/api/editUser/${id}`, payload });
  const editGroup = (id: number, user_ids: number[]) =>
    asAdmin({ method: 'POST', url: `/api/edit_group/${id}`, payload: { user_ids } });
  /** The status, and the body of an answer that is not 200. */
  const answered = (r: Answer) => `${r.statusCode}${r.statusCode === 200 ? '' : ` ${r.body}`}`;
  const byId = (a: number, b: number) => a - b;

  /** The members of `groups` as GET /api/all_group shows them, and the groups of `users` as GET /api/users/all does. */
  async function shown(groups: number[], users: SeededUser[]) {
    const all = (await asAdmin({ method: 'GET', url: '/api/all_group' })).json().data as Array<{
      id: number;
      members: Array<{ id: number }>;
    }>;
    const members = Object.fromEntries(
      groups.map((g) => [g, (all.find((x) => x.id === g)?.members ?? []).map((m) => m.id).sort(byId)]),
    );
    const groupsOf: Record<number, number[]> = {};
    for (const u of users) {
      const page = await asAdmin({ method: 'GET', url: `/api/users/all?search=${u.username}&status=active` });
      const row = (page.json().data.users as Array<{ id: number; groups: Array<{ id: number }> }>).find(
        (x) => x.id === u.id,
      );
      if (row) groupsOf[u.id] = row.groups.map((g) => g.id).sort(byId);
    }
    return { members, groupsOf };
  }

  /** The groups of each person not deleted, from the members of each group. */
  const groupsFrom = (members: Record<number, number[]>, users: number[]) =>
    Object.fromEntries(
      users.map((u) => [
        u,
        Object.keys(members)
          .map(Number)
          .filter((g) => members[g]?.includes(u))
          .sort(byId),
      ]),
    );

  it('a user edit and a group edit of one membership: each answers, each audit starts where the last ended', async () => {
    for (let round = 0; round < 3; round += 1) {
      const {
        users: { u1, u2 },
        groups: { g1, g2 },
      } = await seed(t, {
        users: { u1: { signIn: false }, u2: { signIn: false } },
        groups: { g1: ['u1'], g2: ['u2'] },
      });
      const calls = [
        () => editUser(u1.id, { group_ids: [g1.id, g2.id] }),
        () => editGroup(g1.id, [u2.id]),
        () => editUser(u2.id, { group_ids: [g1.id] }),
        () => editGroup(g2.id, [u1.id, u2.id]),
        () => editUser(u1.id, { group_ids: [] }),
        () => editGroup(g1.id, [u1.id, u2.id]),
        () => editUser(u2.id, { group_ids: [g2.id] }),
        () => editGroup(g2.id, []),
        () => editUser(u1.id, { group_ids: [g2.id] }),
        () => editGroup(g1.id, [u1.id]),
        () => editUser(u2.id, { group_ids: [g1.id, g2.id] }),
        () => editGroup(g2.id, [u2.id]),
      ];
      const answers = await Promise.all(calls.map((send) => send()));
      expect(answers.map(answered)).toEqual(calls.map(() => '200'));
      const groups = [g1.id, g2.id];
      const members = await membershipsInTurn(t, {
        users: [u1.id, u2.id],
        groups,
        start: { [g1.id]: [u1.id], [g2.id]: [u2.id] },
      });
      expect(await shown(groups, [u1, u2])).toEqual({
        members,
        groupsOf: groupsFrom(members, [u1.id, u2.id]),
      });
    }
  });

  it('user edits of one person: each answers, each audit starts where the last ended', async () => {
    const {
      users: { u1 },
      groups: { g1, g2, g3 },
    } = await seed(t, { users: { u1: { signIn: false } }, groups: { g1: ['u1'], g2: [], g3: [] } });
    const sets = [
      [g2.id],
      [g1.id, g3.id],
      [],
      [g1.id, g2.id, g3.id],
      [g3.id],
      [g1.id],
      [g2.id, g3.id],
      [g1.id, g2.id],
    ];
    const answers = await Promise.all(
      sets.map((group_ids, i) => editUser(u1.id, { group_ids, first_name: `Turn${i}` })),
    );
    expect(answers.map(answered)).toEqual(sets.map(() => '200'));
    const groups = [g1.id, g2.id, g3.id];
    const members = await membershipsInTurn(t, { users: [u1.id], groups, start: { [g1.id]: [u1.id] } });
    expect(await shown(groups, [u1])).toEqual({ members, groupsOf: groupsFrom(members, [u1.id]) });
    // The names too: each edit's "before" is the previous one's "after".
    const events = await t.db.auditEvent.findMany({
      where: { action: 'user.updated', targetId: String(u1.id) },
      orderBy: { id: 'asc' },
    });
    let name = 'Test';
    for (const e of events) {
      const change = (e.details as { changes: Record<string, { before: string; after: string }> }).changes
        .first_name;
      if (!change) continue;
      expect(change.before, `audit event ${e.id}`).toBe(name);
      name = change.after;
    }
    expect((await t.db.user.findUniqueOrThrow({ where: { id: u1.id } })).firstName).toBe(name);
  });

  it('people and groups created with memberships while those are edited: each audit starts where the last ended', async () => {
    for (let round = 0; round < 3; round += 1) {
      const {
        users: { u1, u2 },
        groups: { g1 },
      } = await seed(t, { users: { u1: { signIn: false }, u2: { signIn: false } }, groups: { g1: ['u1'] } });
      const made = { users: [] as number[], groups: [] as number[] };
      const newUser = async () => {
        const res = await asAdmin({
          method: 'POST',
          url: '/api/users/createUser',
          payload: newUserBody({ group_ids: [g1.id] }),
        });
        if (res.statusCode === 200) made.users.push(res.json().data.id);
        return res;
      };
      const newGroup = async (user_ids: number[]) => {
        const res = await asAdmin({
          method: 'POST',
          url: '/api/create_group',
          payload: { name: uniqueName('Group'), user_ids },
        });
        if (res.statusCode === 200) made.groups.push(res.json().data.id);
        return res;
      };
      const calls = [
        () => newGroup([u1.id, u2.id]),
        () => editGroup(g1.id, [u2.id]),
        () => newUser(),
        () => editUser(u1.id, { group_ids: [g1.id] }),
        () => editGroup(g1.id, [u1.id, u2.id]),
        () => newGroup([u1.id]),
        () => editUser(u2.id, { group_ids: [] }),
        () => newUser(),
        () => editGroup(g1.id, []),
        () => editUser(u1.id, { group_ids: [] }),
      ];
      const answers = await Promise.all(calls.map((send) => send()));
      expect(answers.map(answered)).toEqual(calls.map(() => '200'));
      const users = [u1.id, u2.id, ...made.users];
      const groups = [g1.id, ...made.groups];
      const members = await membershipsInTurn(t, { users, groups, start: { [g1.id]: [u1.id] } });
      expect((await shown(groups, [u1, u2])).members).toEqual(members);
    }
  });

  it('a user deleted while group edits name them: each answers 200 or a clean 4xx, never 500', async () => {
    for (let round = 0; round < 3; round += 1) {
      const {
        users: { gone, stays },
        groups: { g1, g2 },
      } = await seed(t, {
        users: { gone: { signIn: false }, stays: { signIn: false } },
        groups: { g1: ['stays'], g2: ['gone'] },
      });
      const calls = [
        () => editGroup(g1.id, [gone.id, stays.id]),
        () => editGroup(g2.id, [stays.id]),
        () => editUser(gone.id, { group_ids: [g1.id] }),
        () => editGroup(g1.id, [gone.id]),
        () => asAdmin({ method: 'PUT', url: '/api/delete_user', payload: { id: gone.id } }),
        () => editGroup(g2.id, [gone.id, stays.id]),
        () => editGroup(g1.id, [stays.id, gone.id]),
        () => editUser(gone.id, { group_ids: [g1.id, g2.id] }),
        () => editGroup(g2.id, [gone.id]),
        () => editGroup(g1.id, [stays.id]),
      ];
      const answers = await Promise.all(calls.map((send) => send()));
      expect(answered(answers[4] as Answer)).toBe('200');
      for (const r of answers) {
        if (r.statusCode === 200) continue;
        expect(answered(r)).toMatch(/^(400|409) /);
        expect(r.json().message).toEqual(expect.any(String));
        if (r.statusCode === 400) expect(errorPaths(r)).toEqual(['body.user_ids']);
      }
      const groups = [g1.id, g2.id];
      const members = await membershipsInTurn(t, {
        users: [gone.id, stays.id],
        groups,
        start: { [g1.id]: [stays.id], [g2.id]: [gone.id] },
      });
      expect(await shown(groups, [stays])).toEqual({ members, groupsOf: groupsFrom(members, [stays.id]) });
    }
  });

  it('a group deleted while user edits name it: each answers 200 or 400 naming the groups, never 500', async () => {
    for (let round = 0; round < 3; round += 1) {
      const {
        users: { u1, u2 },
        groups: { gone, stays },
      } = await seed(t, {
        users: { u1: { signIn: false }, u2: { signIn: false } },
        groups: { gone: ['u1'], stays: ['u2'] },
      });
      const calls = [
        () => editUser(u1.id, { group_ids: [gone.id, stays.id] }),
        () => editUser(u2.id, { group_ids: [gone.id] }),
        () => asAdmin({ method: 'POST', url: `/api/group/delete/${gone.id}` }),
        () => editUser(u1.id, { group_ids: [gone.id] }),
        () => editGroup(gone.id, [u1.id, u2.id]),
        () => editUser(u2.id, { group_ids: [stays.id, gone.id] }),
      ];
      const answers = await Promise.all(calls.map((send) => send()));
      expect(answered(answers[2] as Answer)).toBe('200');
      for (const [i, r] of answers.entries()) {
        if (r.statusCode === 200) continue;
        // After the deletion: a user edit names an unknown group, the group edit finds none.
        expect(answered(r)).toMatch(i === 4 ? /^404 / : /^400 /);
        if (i !== 4) expect(errorPaths(r)).toEqual(['body.group_ids']);
      }
      // The group is gone with its memberships; nobody is left in it.
      expect(await t.db.groupMember.count({ where: { groupId: gone.id } })).toBe(0);
      const { groupsOf } = await shown([stays.id], [u1, u2]);
      for (const u of [u1, u2]) expect(groupsOf[u.id]?.every((g) => g === stays.id)).toBe(true);
    }
  });
});

describe('POST /api/reset-password', () => {
  const url = '/api/reset-password';

  it("sets a user's password, signs them out everywhere, and audits without the password", async () => {
    const {
      users: { user },
    } = await seed(t, { users: { user: { accessType: 'General staff' } } });
    const token = user.token;
    const res = await asAdmin({ method: 'POST', url, payload: { user_id: user.id, password: NEW_PASSWORD } });
    expect(res.statusCode).toBe(200);
    expect((await call(token, { method: 'GET', url: '/api/user/current' })).statusCode).toBe(401);
    await loginAs(t.app, user, 'user', NEW_PASSWORD);
    expect((await auditedWithoutPassword('password.reset_by_admin', user.id))?.userId).toBe(companyAdmin.id);
  });

  it('refuses the caller as target (403: the profile is the place), changing nothing', async () => {
    const before = await t.db.user.findUniqueOrThrow({ where: { id: companyAdmin.id } });
    const res = await asAdmin({
      method: 'POST',
      url,
      payload: { user_id: companyAdmin.id, password: NEW_PASSWORD },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Change your own password in your profile');
    expect((await t.db.user.findUniqueOrThrow({ where: { id: companyAdmin.id } })).passwordHash).toBe(
      before.passwordHash,
    );
    expect(
      await t.db.auditEvent.count({
        where: { action: 'password.reset_by_admin', targetId: String(companyAdmin.id) },
      }),
    ).toBe(0);
  });

  it('refuses a weak password (400 naming body.password) and an unknown user (404)', async () => {
    const {
      users: { user },
    } = await seed(t, { users: { user: { accessType: 'General staff', signIn: false } } });
    const before = await t.db.user.findUniqueOrThrow({ where: { id: user.id } });
    const weak = await asAdmin({
      method: 'POST',
      url,
      payload: { user_id: user.id, password: user.username },
    });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().errors[0].path).toBe('body.password');
    expect((await t.db.user.findUniqueOrThrow({ where: { id: user.id } })).passwordHash).toBe(
      before.passwordHash,
    );
    expect(
      (await asAdmin({ method: 'POST', url, payload: { user_id: 999999, password: NEW_PASSWORD } }))
        .statusCode,
    ).toBe(404);
  });
});

describe('who may manage whom', () => {
  const MORE_ACCESS = 'You cannot manage a user with more access than your own';
  let userAdmin: string;
  beforeAll(async () => {
    const { users } = await seed(t, { users: { userAdmin: { accessType: 'User Administration Admin' } } });
    userAdmin = users.userAdmin.token;
  });
  const byUserAdmin = (opts: Inject) => call(userAdmin, opts);
  const refused = (res: { statusCode: number; json(): { message: string } }) => {
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(MORE_ACCESS);
  };

  it.each(['COMPANY ADMIN', 'Auditor', 'File Control Admin'])(
    'a User Administration Admin cannot create a %s (403), alone, in a batch or by import; nothing is written',
    async (access_type) => {
      const before = await counts();
      refused(
        await byUserAdmin({
          method: 'POST',
          url: '/api/users/createUser',
          payload: newUserBody({ access_type }),
        }),
      );
      refused(
        await byUserAdmin({
          method: 'POST',
          url: '/api/users/create-many-users',
          payload: { users: [newUserBody({ access_type: 'General staff' }), newUserBody({ access_type })] },
        }),
      );
      const b = newUserBody();
      const file = await xlsx([
        ['username', 'email', 'first_name', 'last_name', 'access_type', 'role', 'password'],
        [b.username, b.email, 'I', 'Mport', access_type, 'admin', NEW_PASSWORD],
      ]);
      refused(
        await byUserAdmin({
          method: 'POST',
          url: '/api/import_user',
          ...multipart({ file: { content: file, filename: 'u.xlsx' } }),
        }),
      );
      expect(await counts()).toEqual(before);
    },
  );

  it('a User Administration Admin creates General staff and its own kind', async () => {
    for (const access_type of ['General staff', 'User Administration Admin']) {
      const res = await byUserAdmin({
        method: 'POST',
        url: '/api/users/createUser',
        payload: newUserBody({ access_type }),
      });
      expect(res.statusCode, res.body).toBe(200);
    }
  });

  it('a User Administration Admin cannot edit, promote, deactivate, reset or sign for a Company Admin (403)', async () => {
    const {
      users: { boss },
    } = await seed(t, { users: { boss: { accessType: 'COMPANY ADMIN', signIn: false } } });
    const {
      users: { staff },
    } = await seed(t, { users: { staff: { accessType: 'General staff', signIn: false } } });
    const before = await counts();
    const rowBefore = await t.db.user.findUniqueOrThrow({ where: { id: boss.id } });
    refused(
      await byUserAdmin({ method: 'PUT', url: `/api/editUser/${boss.id}`, payload: { first_name: 'X' } }),
    );
    refused(
      await byUserAdmin({
        method: 'PUT',
        url: `/api/editUser/${staff.id}`,
        payload: { access_type: 'COMPANY ADMIN' },
      }),
    );
    for (const url of ['/api/deactivate_user', '/api/delete_user']) {
      refused(await byUserAdmin({ method: 'PUT', url, payload: { id: boss.id } }));
    }
    refused(
      await byUserAdmin({
        method: 'POST',
        url: '/api/reset-password',
        payload: { user_id: boss.id, password: NEW_PASSWORD },
      }),
    );
    const png = tinyPng();
    refused(
      await byUserAdmin({
        method: 'POST',
        url: '/api/upload-user-signature',
        ...multipart({ user_id: String(boss.id), file: { content: png, filename: 's.png' } }),
      }),
    );
    expect(await counts()).toEqual(before);
    expect(await t.db.user.findUniqueOrThrow({ where: { id: boss.id } })).toEqual(rowBefore);
    expect((await t.db.user.findUniqueOrThrow({ where: { id: staff.id } })).accessType).toBe('GENERAL_STAFF');
  });

  it('a Company Admin may edit another Company Admin (200)', async () => {
    const {
      users: { boss },
    } = await seed(t, { users: { boss: { accessType: 'COMPANY ADMIN', signIn: false } } });
    const res = await asAdmin({
      method: 'PUT',
      url: `/api/editUser/${boss.id}`,
      payload: { first_name: 'Bea' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.first_name).toBe('Bea');
  });
});

describe('GET /api/users/all', () => {
  it('pages (default 20), searches over names and e-mail, filters by status, sorts', async () => {
    const tag = fresh();
    for (let i = 0; i < 23; i += 1) {
      await person(t, {
        accessType: 'Auditor',
        username: `${tag}u${String(i).padStart(2, '0')}`,
        signIn: false,
      });
    }
    const {
      users: { deactivated },
    } = await seed(t, {
      users: {
        deactivated: { accessType: 'Auditor', username: `${tag}off`, status: 'deactivated', signIn: false },
      },
    });
    const page1 = await asAdmin({ method: 'GET', url: `/api/users/all?search=${tag}` });
    expect(page1.statusCode).toBe(200);
    const d1 = page1.json().data;
    expect(d1).toMatchObject({ page: 1, quantity: 20, total: 24, last_page: 2 });
    expect(d1.users).toHaveLength(20);
    expect(d1.users[0].username).toBe(`${tag}off`); // newest first

    const page2 = await asAdmin({
      method: 'GET',
      url: `/api/users/all?search=${tag}&page=2&sort=name&quantity=20`,
    });
    expect(page2.json().data.users.map((u: { username: string }) => u.username)).toHaveLength(4);

    const off = await asAdmin({
      method: 'GET',
      url: `/api/users/all?search=${tag.toUpperCase()}&status=deactivated`,
    });
    expect(off.json().data.users.map((u: { id: number }) => u.id)).toEqual([deactivated.id]);

    const mail = await asAdmin({ method: 'GET', url: `/api/users/all?search=${tag}u05@example` });
    expect(mail.json().data.total).toBe(1);

    // % and _ are letters like any other, not wildcards.
    const {
      users: { percent },
    } = await seed(t, {
      users: {
        percent: { accessType: 'Auditor', username: `${tag}pct`, lastName: '100% sure', signIn: false },
      },
    });
    const wild = await asAdmin({ method: 'GET', url: `/api/users/all?search=${encodeURIComponent('%')}` });
    expect(wild.json().data.users.map((u: { id: number }) => u.id)).toEqual([percent.id]);
    const underscore = await asAdmin({ method: 'GET', url: `/api/users/all?search=${tag}u0_` });
    expect(underscore.json().data.total).toBe(0);
    const backslash = await asAdmin({
      method: 'GET',
      url: `/api/users/all?search=${encodeURIComponent('\\')}`,
    });
    expect(backslash.statusCode).toBe(200);
    expect(backslash.json().data.total).toBe(0);

    const bad = await asAdmin({ method: 'GET', url: '/api/users/all?page=0&status=gone' });
    expect(bad.statusCode).toBe(400);
    expect(errorPaths(bad).sort()).toEqual(['query.page', 'query.status']);
  });
});
