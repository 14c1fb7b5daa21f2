import { createServer, type Server } from 'node:net';
import { freePort } from '@quire/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANY_ADMIN_WRITES, callAs, callerToken } from '../../../test/access.js';
import type { TestContext } from '../../../test/app.js';
import { errorPaths } from '../../../test/errors.js';
import { createUser, TEST_PASSWORD } from '../../../test/factories.js';
import { membershipsInTurn } from '../../../test/in-turn.js';
import { adminApp, seededApp } from '../../../test/seed.js';
import {
  ADMINS_GROUP,
  BASE_DN,
  DIRECTORY_PASSWORDS,
  directoryPassword,
  READER_DN,
  READER_PASSWORD,
  STAFF_GROUP,
  startTestDirectory,
  type TestDirectory,
} from '../../../test/slapd.js';
import { decryptSecret, loadSecretKey } from '../../lib/secrets.js';

const APP_SECRET = 'settings-tests-secret-0123456789';
let t: TestContext;
let ldap: TestDirectory;
let admin: string;
let adminId: number;
let staffGroupId: number;

const form = (o: Record<string, unknown> = {}) => ({
  name: 'Test directory',
  enabled: true,
  url: ldap.url,
  start_tls: false,
  verify_certificate: true,
  bind_dn: READER_DN,
  bind_password: READER_PASSWORD,
  base_dn: BASE_DN,
  user_filter: '(&(objectClass=inetOrgPerson)(uid={username}))',
  username_attribute: 'uid',
  email_attribute: 'mail',
  first_name_attribute: 'givenName',
  last_name_attribute: 'sn',
  default_access_type: 'General staff',
  group_mappings: [
    { directory_group: ADMINS_GROUP, access_type: 'COMPANY ADMIN' },
    { directory_group: STAFF_GROUP, group_id: staffGroupId },
  ],
  ...o,
});

const save = (token: string | null, body: object) =>
  callAs(t, token, { method: 'POST', url: '/api/settings/authentication/create', payload: body });
const test = (token: string | null, settings: unknown, username = 'alice') =>
  callAs(t, token, {
    method: 'POST',
    url: '/api/settings/authentication/test',
    payload: { settings, username },
  });
const signIn = (username: string, password: string, role = 'user') =>
  t.app.inject({ method: 'POST', url: '/api/login', payload: { username, password, role } });

beforeAll(async () => {
  ldap = await startTestDirectory();
  // The test directory runs on 127.0.0.1: allowed here, refused by default (tested below).
  const world = await seededApp(
    {
      users: { admin: { accessType: 'COMPANY ADMIN' } },
      groups: { staff: { name: 'Directory staff', members: [] } },
    },
    { APP_SECRET, LDAP_TIMEOUT_MS: '3000', LDAP_ALLOW_PRIVATE_HOSTS: 'true' },
  );
  t = world.t;
  admin = world.users.admin.token;
  adminId = world.users.admin.id;
  staffGroupId = world.groups.staff.id;
}, 30_000);
afterAll(async () => {
  await t?.close();
  await ldap?.stop();
});

describe('external authentication settings', () => {
  it('refuses callers without the right: 401, 403 (writes are the Company Admin’s), nothing stored', async () => {
    for (const [label, accessType, role, read, write] of COMPANY_ADMIN_WRITES) {
      const token = await callerToken(t, accessType, role);
      const got = [
        (await callAs(t, token, { method: 'GET', url: '/api/settings/authentication' })).statusCode,
        (await save(token, form())).statusCode,
        (await test(token, form())).statusCode,
        (
          await callAs(t, token, {
            method: 'POST',
            url: '/api/settings/authentication/delete',
            payload: { id: 1 },
          })
        ).statusCode,
      ];
      expect(`${label} ${got.join(' ')}`).toBe(`${label} ${read} ${write} ${write} ${write}`);
    }
    expect(await t.db.authProvider.count()).toBe(0);
  });

  it('answers null before anything is set', async () => {
    const res = await callAs(t, admin, { method: 'GET', url: '/api/settings/authentication' });
    expect(res.json().data).toBeNull();
  });

  it('refuses bad input naming the field, storing nothing', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ url: 'http://127.0.0.1:389' }, 'body.url'],
      [{ user_filter: '(uid=alice)' }, 'body.user_filter'],
      [{ url: 'ldaps://127.0.0.1:636', start_tls: true }, 'body.start_tls'],
      [{ default_access_type: 'DATAMAX ADMIN' }, 'body.default_access_type'],
      [{ ca_certificate: 'not a certificate' }, 'body.ca_certificate'],
      [
        { group_mappings: [{ directory_group: STAFF_GROUP, group_id: 999999 }] },
        'body.group_mappings.0.group_id',
      ],
      [
        {
          group_mappings: [
            { directory_group: STAFF_GROUP, group_id: null },
            { directory_group: STAFF_GROUP.toUpperCase(), group_id: null },
          ],
        },
        'body.group_mappings.1.directory_group',
      ],
    ];
    for (const [change, path] of cases) {
      const res = await save(admin, form(change));
      expect(`${path} ${res.statusCode}`).toBe(`${path} 400`);
      expect(errorPaths(res)).toContain(path);
    }
    expect(await t.db.authProvider.count()).toBe(0);
  });

  it('saves the connection with the bind password encrypted, never returned', async () => {
    const res = await save(admin, form());
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({
      url: ldap.url,
      bind_dn: READER_DN,
      has_bind_password: true,
      verify_certificate: true,
    });
    expect(JSON.stringify(data)).not.toContain(READER_PASSWORD);
    expect(data.group_mappings).toEqual([
      { directory_group: ADMINS_GROUP, group_id: null, group_name: null, access_type: 'COMPANY ADMIN' },
      {
        directory_group: STAFF_GROUP,
        group_id: staffGroupId,
        group_name: 'Directory staff',
        access_type: null,
      },
    ]);
    const row = await t.db.authProvider.findFirstOrThrow();
    expect(row.bindPasswordEncrypted).toMatch(/^v1\./);
    expect(decryptSecret(loadSecretKey(APP_SECRET, '/nonexistent'), row.bindPasswordEncrypted!)).toBe(
      READER_PASSWORD,
    );
    // Saving again without a password keeps it.
    const { bind_password: _omit, ...withoutPassword } = form();
    expect((await save(admin, withoutPassword)).json().data.has_bind_password).toBe(true);
    expect(await t.db.authProvider.count()).toBe(1);
    expect(await t.db.auditEvent.count({ where: { action: { startsWith: 'authentication.' } } })).toBe(2);
  });

  it('test: binds, finds the user and says what Quire would make of them', async () => {
    const { bind_password: _omit, ...saved } = form(); // the stored password is used
    const res = await test(admin, saved);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      bound_as: READER_DN,
      user: {
        dn: `uid=alice,ou=people,${BASE_DN}`,
        username: 'alice',
        email: 'alice@quire.test',
        first_name: 'Alice',
        last_name: 'Archer',
        groups: [ADMINS_GROUP, STAFF_GROUP],
        access_type: 'COMPANY ADMIN',
        quire_groups: ['Directory staff'],
      },
    });
  });

  it('test: reports the exact reason it failed (502)', async () => {
    const closed = await freePort();
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ bind_password: 'wrong' }, 'alice', /Bind as cn=reader.*invalid credentials/],
      [{}, 'nobody', /no entry matches .*uid=nobody.* under dc=quire,dc=test/],
      [{ url: `ldap://127.0.0.1:${closed}` }, 'alice', /connection refused/],
      [
        { base_dn: 'ou=nowhere,dc=quire,dc=test' },
        'alice',
        /search base "ou=nowhere,dc=quire,dc=test" does not exist/,
      ],
      [{ url: ldap.ldapsUrl }, 'alice', /certificate was not accepted/],
      [{ start_tls: true }, 'alice', /StartTLS: the server's TLS certificate was not accepted/],
    ];
    for (const [change, username, reason] of cases) {
      const res = await test(admin, form(change), username);
      expect(`${reason} ${res.statusCode}`).toBe(`${reason} 502`);
      expect(res.json().message).toMatch(reason);
    }
  });

  it('test: TLS works with the server’s CA, over ldaps:// and StartTLS', async () => {
    for (const change of [
      { url: ldap.ldapsUrl, ca_certificate: ldap.caPem },
      { start_tls: true, ca_certificate: ldap.caPem },
    ]) {
      const res = await test(admin, form(change));
      expect(res.statusCode).toBe(200);
      expect(res.json().data.user.username).toBe('alice');
    }
  });

  it('signs in a directory user, created on first sign-in with the mapped access type and groups', async () => {
    await save(admin, form());
    const res = await signIn('alice', DIRECTORY_PASSWORDS.alice, 'admin');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ access_type: 'COMPANY ADMIN', role: 'admin' });
    const alice = await t.db.user.findUniqueOrThrow({
      where: { username: 'alice' },
      include: { memberships: true },
    });
    expect(alice).toMatchObject({
      email: 'alice@quire.test',
      firstName: 'Alice',
      lastName: 'Archer',
      accessType: 'COMPANY_ADMIN',
      passwordHash: null,
      externalId: `uid=alice,ou=people,${BASE_DN}`,
    });
    expect(alice.memberships.map((m) => m.groupId)).toEqual([staffGroupId]);
    // The token works.
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/check-session',
      headers: { authorization: `Bearer ${res.json().data.access_token}` },
    });
    expect(me.statusCode).toBe(200);
    // The second sign-in finds the same account.
    expect((await signIn('alice', DIRECTORY_PASSWORDS.alice, 'admin')).statusCode).toBe(200);
    expect(await t.db.user.count({ where: { username: 'alice' } })).toBe(1);

    const bob = await signIn('bob', DIRECTORY_PASSWORDS.bob);
    expect(bob.statusCode).toBe(200);
    expect(bob.json().data.access_type).toBe('General staff');
  });

  it('a sign-in that changes an account audits it, in turn with group edits sent at once', async () => {
    const bob = await t.db.user.findUniqueOrThrow({ where: { username: 'bob' } });
    const alice = await t.db.user.findUniqueOrThrow({ where: { username: 'alice' } });
    const editStaff = (user_ids: number[]) =>
      callAs(t, admin, { method: 'POST', url: `/api/edit_group/${staffGroupId}`, payload: { user_ids } });
    const bobUpdates = () =>
      t.db.auditEvent.findMany({
        where: { action: 'user.updated', targetId: String(bob.id) },
        orderBy: { id: 'asc' },
      });
    const lastEventId = async () =>
      Number((await t.db.auditEvent.findFirst({ orderBy: { id: 'desc' } }))?.id ?? 0);

    // Taken out of the group by hand, bob is put back by the directory at his next sign-in.
    expect((await editStaff([alice.id])).statusCode).toBe(200);
    const updatesBefore = (await bobUpdates()).length;
    expect((await signIn('bob', DIRECTORY_PASSWORDS.bob)).statusCode).toBe(200);
    const [put] = (await bobUpdates()).slice(updatesBefore);
    expect(put).toMatchObject({
      userId: null,
      details: {
        source: 'directory',
        changes: { group_ids: { before: [], after: [staffGroupId] } },
      },
    });
    // A sign-in that changes nothing writes no such event.
    expect((await signIn('bob', DIRECTORY_PASSWORDS.bob)).statusCode).toBe(200);
    expect(await bobUpdates()).toHaveLength(updatesBefore + 1);

    // Sign-ins and group edits sent at once: each answers, and the trail follows in turn.
    for (let round = 0; round < 3; round += 1) {
      const start = { [staffGroupId]: [alice.id, bob.id] };
      const since = await lastEventId();
      const calls = [
        () => editStaff([alice.id]),
        () => signIn('bob', DIRECTORY_PASSWORDS.bob),
        () => editStaff([]),
        () => signIn('bob', DIRECTORY_PASSWORDS.bob),
        () => editStaff([alice.id]),
        () => signIn('bob', DIRECTORY_PASSWORDS.bob),
      ];
      const answers = await Promise.all(calls.map((send) => send()));
      expect(answers.map((r) => r.statusCode)).toEqual(calls.map(() => 200));
      const followed = await membershipsInTurn(t, {
        users: [alice.id, bob.id],
        groups: [staffGroupId],
        start,
        afterEventId: since,
      });
      const members = (
        await t.db.groupMember.findMany({ where: { groupId: staffGroupId }, orderBy: { userId: 'asc' } })
      ).map((m) => m.userId);
      expect(followed[staffGroupId]).toEqual(members);
      // Back to where the next round starts.
      expect((await editStaff([alice.id, bob.id])).statusCode).toBe(200);
    }
  });

  it('refuses a wrong directory password and unknown users like any bad sign-in', async () => {
    for (const [login, password] of [
      ['alice', 'not-her-password'],
      ['dora', 'whatever-it-is'],
      ['alice', ''],
    ] as const) {
      const res = await signIn(login, password, 'admin');
      expect(res.statusCode).toBe(password === '' ? 400 : 401);
    }
    expect(await t.db.user.count({ where: { username: 'dora' } })).toBe(0);
  });

  it('keeps local accounts local: a same-named local account is never taken over', async () => {
    const carol = await createUser(t.db, { username: 'carol', email: 'carol@local.test' });
    expect((await signIn('carol', DIRECTORY_PASSWORDS.carol)).statusCode).toBe(401);
    expect((await signIn('carol', TEST_PASSWORD)).statusCode).toBe(200);
    expect((await t.db.user.findUniqueOrThrow({ where: { id: carol.id } })).authProviderId).toBeNull();
  });

  it('a directory account cannot sign in while the directory is down (503); local ones can', async () => {
    const closed = await freePort();
    await save(admin, form({ url: `ldap://127.0.0.1:${closed}` }));
    const res = await signIn('alice', DIRECTORY_PASSWORDS.alice, 'admin');
    expect(res.statusCode).toBe(503);
    expect(res.json().code).toBe('settings.directory_unavailable');
    expect((await signIn('carol', TEST_PASSWORD)).statusCode).toBe(200);
    await save(admin, form());
  });

  it('delete: removes the connection; its accounts stay but cannot sign in', async () => {
    const provider = await t.db.authProvider.findFirstOrThrow();
    const bad = await callAs(t, admin, {
      method: 'POST',
      url: '/api/settings/authentication/delete',
      payload: { id: 'x' },
    });
    expect(bad.statusCode).toBe(400);
    const missing = await callAs(t, admin, {
      method: 'POST',
      url: '/api/settings/authentication/delete',
      payload: { id: provider.id + 100 },
    });
    expect(missing.statusCode).toBe(404);
    const res = await callAs(t, admin, {
      method: 'POST',
      url: '/api/settings/authentication/delete',
      payload: { id: provider.id },
    });
    expect(res.statusCode).toBe(200);
    expect(await t.db.authProvider.count()).toBe(0);
    expect(await t.db.user.count({ where: { username: 'alice' } })).toBe(1);
    expect((await signIn('alice', DIRECTORY_PASSWORDS.alice, 'admin')).statusCode).toBe(401);
  });
});

/** A plain TCP listener on 127.0.0.1 that keeps every byte it is sent (a would-be directory). */
async function listener(): Promise<{ url: string; received: () => string; close: () => Promise<void> }> {
  const chunks: Buffer[] = [];
  const server: Server = createServer((socket) => {
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `ldap://127.0.0.1:${port}`,
    received: () => Buffer.concat(chunks).toString('latin1'),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('the saved bind password and private hosts', () => {
  it('the saved bind password goes only to the saved server and bind DN; otherwise it must be typed', async () => {
    expect((await save(admin, form())).statusCode).toBe(200);
    const trap = await listener();
    try {
      const { bind_password: _, ...withoutPassword } = form();
      // Another server, no password typed: refused before any connection, naming the field.
      const elsewhere = await test(admin, { ...withoutPassword, url: trap.url });
      expect(elsewhere.statusCode).toBe(400);
      expect(elsewhere.json().errors).toEqual([
        { path: 'body.settings.bind_password', message: expect.stringMatching(/Type the bind password/) },
      ]);
      // The saved server with another bind DN: refused too.
      const otherDn = await test(admin, { ...withoutPassword, bind_dn: 'cn=someone-else,dc=quire,dc=test' });
      expect(otherDn.statusCode).toBe(400);
      expect(otherDn.json().errors[0].path).toBe('body.settings.bind_password');
      // Saving the other server without the password is refused the same way, nothing stored.
      const before = await t.db.authProvider.findFirstOrThrow();
      const saved = await save(admin, { ...withoutPassword, url: trap.url });
      expect(saved.statusCode).toBe(400);
      expect(saved.json().errors[0].path).toBe('body.bind_password');
      expect((await t.db.authProvider.findFirstOrThrow()).url).toBe(before.url);
      // The listener was never sent anything, let alone the password.
      await new Promise((r) => setTimeout(r, 200));
      expect(trap.received()).toBe('');
      // With the password typed, the new server is tried (and gets what was typed, not the saved one).
      const typed = await test(admin, { ...withoutPassword, url: trap.url, bind_password: 'typed-now' });
      expect(typed.statusCode).toBe(502);
      expect(trap.received()).not.toContain(READER_PASSWORD);
      // The saved server and DN, no password typed: the saved one is used.
      const same = await test(admin, withoutPassword);
      expect(same.statusCode).toBe(200);
      expect(same.json().data.bound_as).toBe(READER_DN);
    } finally {
      await trap.close();
    }
  }, 30_000);

  it('refuses directory hosts on this machine or a private network unless LDAP_ALLOW_PRIVATE_HOSTS', async () => {
    const {
      t: strict,
      admin: { token },
    } = await adminApp('COMPANY ADMIN', { APP_SECRET, LDAP_TIMEOUT_MS: '3000' });
    const trap = await listener();
    try {
      for (const url of [trap.url, 'ldap://localhost:389', 'ldaps://10.1.2.3', 'ldap://[::1]:389']) {
        const tested = await callAs(strict, token, {
          method: 'POST',
          url: '/api/settings/authentication/test',
          payload: { settings: form({ url, group_mappings: [] }), username: 'alice' },
        });
        expect(`${url} ${tested.statusCode}`).toBe(`${url} 400`);
        expect(tested.json().errors[0]).toEqual({
          path: 'body.settings.url',
          message: expect.stringMatching(/private network.*LDAP_ALLOW_PRIVATE_HOSTS=true/),
        });
        const saved = await callAs(strict, token, {
          method: 'POST',
          url: '/api/settings/authentication/create',
          payload: form({ url, group_mappings: [] }),
        });
        expect(saved.statusCode).toBe(400);
        expect(saved.json().errors[0].path).toBe('body.url');
      }
      expect(await strict.db.authProvider.count()).toBe(0);
      // One put there some other way (a restored backup): sign-in does not connect to it either.
      await strict.db.authProvider.create({
        data: {
          name: 'Planted',
          enabled: true,
          url: trap.url,
          baseDn: BASE_DN,
          userFilter: '(uid={username})',
          usernameAttribute: 'uid',
          emailAttribute: 'mail',
          firstNameAttribute: 'givenName',
          lastNameAttribute: 'sn',
          defaultAccessType: 'GENERAL_STAFF',
        },
      });
      await strict.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { username: 'alice', password: 'whatever-1', role: 'user' },
      });
      await new Promise((r) => setTimeout(r, 200));
      expect(trap.received()).toBe('');
    } finally {
      await trap.close();
      await strict.close();
    }
  }, 30_000);
});

describe('saves of the directory settings sent at once', () => {
  it.each([
    ['of the saved connection', true],
    ['as the first ones', false],
  ])(
    'takes them one after the other %s: the mappings and bind password are the last save’s',
    async (_case, saved) => {
      expect((await save(admin, form())).statusCode).toBe(200);
      if (!saved) {
        const { id } = await t.db.authProvider.findFirstOrThrow();
        const removed = await callAs(t, admin, {
          method: 'POST',
          url: '/api/settings/authentication/delete',
          payload: { id },
        });
        expect(removed.statusCode).toBe(200);
      }
      const since = (await t.db.auditEvent.aggregate({ _max: { id: true } }))._max.id ?? 0;
      const { bind_password: _, ...keeping } = form();
      // Each save maps its own number of groups (names shared among them) and names itself in its
      // base DN; the even ones type a bind password of their own, the odd ones keep the stored one.
      const mappings = (i: number) =>
        Array.from({ length: i }, (_, k) => ({
          directory_group: `cn=group-${k},${BASE_DN}`,
          ...(k % 2 ? { group_id: staffGroupId } : { access_type: 'General staff' }),
        }));
      const body = (i: number) => ({
        ...keeping,
        ...(i % 2 === 0 ? { bind_password: `bind-password-${i}` } : {}),
        base_dn: `ou=save-${i},${BASE_DN}`,
        group_mappings: mappings(i),
      });
      const answers = await Promise.all([1, 2, 3, 4, 5, 6, 7, 8].map((i) => save(admin, body(i))));
      expect(answers.map((r) => r.statusCode)).toEqual(answers.map(() => 200));
      expect(await t.db.authProvider.count()).toBe(1);
      const provider = await t.db.authProvider.findFirstOrThrow();
      const saves = (
        await t.db.auditEvent.findMany({
          where: { action: { in: ['authentication.created', 'authentication.updated'] }, id: { gt: since } },
          orderBy: { id: 'asc' },
        })
      ).map((e) => {
        const details = e.details as { base_dn: string; bind_password: string; group_mappings: number };
        const i = Number(/^ou=save-(\d+),/.exec(details.base_dn)?.[1]);
        expect(details.group_mappings, `audit event ${e.id}`).toBe(i);
        return { i, password: details.bind_password };
      });
      expect(saves.map((s) => s.i).sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      const last = saves.at(-1)!.i;
      const stored = await t.db.authProviderGroup.findMany({
        where: { providerId: provider.id },
        orderBy: { id: 'asc' },
      });
      expect(
        stored.map((m) => ({
          directory_group: m.directoryGroup,
          ...(m.groupId ? { group_id: m.groupId } : { access_type: 'General staff' }),
        })),
      ).toEqual(mappings(last));
      const typed = saves.filter((s) => s.password === 'changed').at(-1)?.i;
      expect(provider.baseDn).toBe(`ou=save-${last},${BASE_DN}`);
      const password = provider.bindPasswordEncrypted
        ? decryptSecret(loadSecretKey(APP_SECRET, '/nonexistent'), provider.bindPasswordEncrypted)
        : null;
      expect(password).toBe(typed !== undefined ? `bind-password-${typed}` : saved ? READER_PASSWORD : null);
      expect((await save(admin, form())).statusCode).toBe(200);
    },
  );
});

describe('directory saves and sign-ins sent with edits of the groups they map', () => {
  const createGroup = async (name: string) => {
    const res = await callAs(t, admin, { method: 'POST', url: '/api/create_group', payload: { name } });
    expect(res.statusCode).toBe(200);
    return res.json().data.id as number;
  };
  const deleteGroup = (id: number) => callAs(t, admin, { method: 'POST', url: `/api/group/delete/${id}` });
  const editGroup = (id: number, payload: object) =>
    callAs(t, admin, { method: 'POST', url: `/api/edit_group/${id}`, payload });
  const lastEventId = async () =>
    Number((await t.db.auditEvent.aggregate({ _max: { id: true } }))._max.id ?? 0);

  it('a save mapping a group deleted at once answers 200 or names the mapping (400), never 500', async () => {
    for (let round = 0; round < 2; round += 1) {
      const groups = await Promise.all([0, 1, 2, 3].map((i) => createGroup(`Mapped ${round}-${i}`)));
      const body = (group: number) =>
        form({
          group_mappings: [
            { directory_group: STAFF_GROUP, group_id: staffGroupId },
            { directory_group: `cn=mapped-${group},${BASE_DN}`, group_id: group },
          ],
        });
      // Each group: a save that maps it, sent with its deletion.
      const calls = groups.flatMap((group) => [() => save(admin, body(group)), () => deleteGroup(group)]);
      const answers = await Promise.all(calls.map((send) => send()));
      answers.forEach((res, k) => {
        if (k % 2) expect(res.statusCode, res.body).toBe(200);
        else expect([200, 400], res.body).toContain(res.statusCode);
        if (k % 2 === 0 && res.statusCode === 400) {
          expect(res.json().message).toBe('group_mappings: No such group');
          expect(errorPaths(res)).toEqual(['body.group_mappings.1.group_id']);
        }
      });
      expect(await t.db.group.count({ where: { id: { in: groups } } })).toBe(0);
      const stored = await t.db.authProviderGroup.findMany({ orderBy: { id: 'asc' } });
      expect(stored.map((m) => m.groupId).filter((g) => g !== null && groups.includes(g))).toEqual([]);
    }
    expect((await save(admin, form())).statusCode).toBe(200);
  });

  it.each([
    ['edited (members replaced, renamed)', 'edited'],
    ['deleted', 'deleted'],
  ])(
    'first sign-ins of directory users while the group they map to is %s: all 200, in turn',
    async (_case, kind) => {
      const group = await createGroup(`Crowd ${kind}`);
      const uids = [1, 2, 3, 4, 5, 6].map((i) => `crowd-${kind}-${i}`);
      const directoryGroup = ldap.addPeople(uids, `crowd-${kind}`);
      const mapped = form({
        group_mappings: [...form().group_mappings, { directory_group: directoryGroup, group_id: group }],
      });
      expect((await save(admin, mapped)).statusCode).toBe(200);
      const since = await lastEventId();
      const edits =
        kind === 'edited'
          ? [
              () => editGroup(group, { user_ids: [adminId] }),
              () => editGroup(group, { name: `Crowd ${kind} renamed`, user_ids: [] }),
              () => editGroup(group, { user_ids: [adminId] }),
            ]
          : [() => deleteGroup(group)];
      const signIns = uids.map((uid) => () => signIn(uid, directoryPassword(uid)));
      // The edits go out among the sign-ins.
      const calls = [
        ...signIns.slice(0, 2),
        edits[0]!,
        ...signIns.slice(2, 4),
        ...edits.slice(1),
        ...signIns.slice(4),
      ];
      const answers = await Promise.all(calls.map((send) => send()));
      expect(answers.map((r) => r.statusCode)).toEqual(calls.map(() => 200));
      const users = await t.db.user.findMany({ where: { username: { in: uids } }, orderBy: { id: 'asc' } });
      expect(users.map((u) => u.status)).toEqual(uids.map(() => 'active'));
      const ids = users.map((u) => u.id);
      const members = async () =>
        (await t.db.groupMember.findMany({ where: { groupId: group }, orderBy: { userId: 'asc' } })).map(
          (m) => m.userId,
        );
      if (kind === 'edited') {
        const followed = await membershipsInTurn(t, {
          users: [adminId, ...ids],
          groups: [group],
          start: { [group]: [] },
          afterEventId: since,
        });
        expect(followed[group]).toEqual(await members());
        return;
      }
      // Deleted: the people it had when it went are those created into it before, and none after.
      expect(await members()).toEqual([]);
      const events = await t.db.auditEvent.findMany({
        where: {
          id: { gt: since },
          OR: [
            { action: 'user.created', targetId: { in: ids.map(String) } },
            { action: 'group.deleted', targetId: String(group) },
          ],
        },
        orderBy: { id: 'asc' },
      });
      const deletion = events.findIndex((e) => e.action === 'group.deleted');
      expect(deletion).toBeGreaterThanOrEqual(0);
      const namedGroup = (e: (typeof events)[number]) =>
        (e.details as { group_ids: number[] }).group_ids.includes(group);
      const before = events.slice(0, deletion);
      expect(before.every(namedGroup)).toBe(true);
      expect(events.slice(deletion + 1).filter(namedGroup)).toEqual([]);
      expect((events[deletion]!.details as { user_ids: number[] }).user_ids.sort((a, b) => a - b)).toEqual(
        before.map((e) => Number(e.targetId)).sort((a, b) => a - b),
      );
    },
  );
});
