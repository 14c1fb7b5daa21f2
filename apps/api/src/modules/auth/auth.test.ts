import { ACCESS_TYPES, type AccessType, type LoginRole } from '@quire/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { bearer, createUser, loginAs, TEST_PASSWORD } from '../../../test/factories.js';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const login = (payload: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/login', payload: payload as object });

describe('POST /api/login', () => {
  const cases: Array<[AccessType, LoginRole, number]> = ACCESS_TYPES.flatMap((type) => [
    [type, 'admin', type === 'General staff' ? 403 : 200] as [AccessType, LoginRole, number],
    [type, 'user', type === 'DATAMAX ADMIN' ? 403 : 200] as [AccessType, LoginRole, number],
  ]);

  it.each(cases)('%s signing in as %s answers %i', async (accessType, role, status) => {
    const user = await createUser(t.db, { accessType });
    const res = await login({ username: user.username, password: TEST_PASSWORD, role });
    expect(res.statusCode).toBe(status);
    if (status === 200) {
      const { data, message } = res.json();
      expect(message).toBe('Login successful');
      expect(data.access_token).toMatch(/^[\w-]{40,}$/);
      expect(data.access_type).toBe(accessType);
      expect(data.accountType).toBe(role === 'admin' ? 'Admin' : 'User');
      expect(data.isCompany2FAEnabled).toBe(false);
      expect(data.isUser2FAEnabled).toBe(false);
      expect(data.user).toMatchObject({ id: user.id, username: user.username, access_type: accessType });
      expect(data.user).not.toHaveProperty('passwordHash');
      expect(data.user).not.toHaveProperty('password_hash');
    } else {
      expect(res.json().message).toBe('Invalid role, Try again with the correct role');
      expect(await t.db.session.count({ where: { userId: user.id } })).toBe(0);
    }
  });

  it('accepts the e-mail address in any case instead of the username', async () => {
    const user = await createUser(t.db, { accessType: 'Auditor', email: 'Mixed.Case@Example.test' });
    const res = await login({ username: 'MIXED.case@example.TEST', password: TEST_PASSWORD, role: 'admin' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.user.id).toBe(user.id);
  });

  it("signs in by e-mail as the e-mail's owner, even when an old username reads like that address", async () => {
    // Usernames can no longer hold "@"; an older row might, and must not capture the address.
    const squatter = await createUser(t.db, { username: 'owner.of@example.test', email: 'sq@example.test' });
    const owner = await createUser(t.db, { accessType: 'Auditor', email: 'owner.of@example.test' });
    const res = await login({ username: 'owner.of@example.test', password: TEST_PASSWORD, role: 'admin' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.user.id).toBe(owner.id);
    expect(res.json().data.user.id).not.toBe(squatter.id);
  });

  it('refuses a wrong password and an unknown user with the same message, and audits both', async () => {
    const user = await createUser(t.db, { accessType: 'COMPANY ADMIN' });
    const wrong = await login({ username: user.username, password: 'not-the-password', role: 'admin' });
    const unknown = await login({ username: 'nobody-here', password: 'whatever', role: 'admin' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json().message).toBe(unknown.json().message);
    expect(wrong.json().message).toBe('Invalid username or password');
    const events = await t.db.auditEvent.findMany({ where: { action: 'access.unauthenticated' } });
    const names = events.map((e) => (e.details as { username?: string }).username);
    expect(names).toEqual(expect.arrayContaining([user.username, 'nobody-here']));
    expect(JSON.stringify(events.map((e) => [e.message, e.details]))).not.toContain('not-the-password');
  });

  it.each(['deactivated', 'deleted'] as const)('refuses a %s user', async (status) => {
    const user = await createUser(t.db, { accessType: 'COMPANY ADMIN', status });
    const res = await login({ username: user.username, password: TEST_PASSWORD, role: 'admin' });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toContain(status);
    expect(await t.db.session.count({ where: { userId: user.id } })).toBe(0);
  });

  it('answers a bad body with 400 naming each field, and writes nothing', async () => {
    const sessions = await t.db.session.count();
    const audits = await t.db.auditEvent.count();
    const res = await login({ username: '', role: 'superuser' });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.message).toEqual(expect.any(String));
    expect(body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      'body.password',
      'body.role',
      'body.username',
    ]);
    expect(await t.db.session.count()).toBe(sessions);
    expect(await t.db.auditEvent.count()).toBe(audits);
  });

  it('answers malformed JSON with 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"username": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: 'The request body is not valid JSON' });
  });

  it('writes a login audit event in the same transaction as the session', async () => {
    const user = await createUser(t.db, { accessType: 'File Control Admin' });
    await loginAs(t.app, user);
    const event = await t.db.auditEvent.findFirst({ where: { userId: user.id, action: 'login.success' } });
    expect(event?.message).toContain(user.username);
    const session = await t.db.session.findFirst({ where: { userId: user.id } });
    expect(session?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('sessions', () => {
  it('logout revokes the token at once, and only that one', async () => {
    const user = await createUser(t.db, { accessType: 'COMPANY ADMIN' });
    const token = await loginAs(t.app, user);
    const other = await loginAs(t.app, user, 'user');

    const before = await t.app.inject({ method: 'GET', url: '/api/check-session', headers: bearer(token) });
    expect(before.statusCode).toBe(200);
    expect(before.json().data.active).toBe(true);

    const out = await t.app.inject({ method: 'POST', url: '/api/logout', headers: bearer(token) });
    expect(out.statusCode).toBe(200);

    const after = await t.app.inject({ method: 'GET', url: '/api/check-session', headers: bearer(token) });
    expect(after.statusCode).toBe(401);
    expect(after.json().message).toBe('You are not authenticated, Please login');
    const again = await t.app.inject({ method: 'POST', url: '/api/logout', headers: bearer(token) });
    expect(again.statusCode).toBe(401);

    const stillThere = await t.app.inject({
      method: 'GET',
      url: '/api/check-session',
      headers: bearer(other),
    });
    expect(stillThere.statusCode).toBe(200);
    expect(await t.db.auditEvent.count({ where: { userId: user.id, action: 'logout' } })).toBe(1);
  });

  it('refuses calls without a token, with a made-up token, and audits the refusal', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/api/check-session' });
    const fake = await t.app.inject({ method: 'GET', url: '/api/check-session', headers: bearer('made-up') });
    expect(none.statusCode).toBe(401);
    expect(fake.statusCode).toBe(401);
    const refusals = await t.db.auditEvent.count({
      where: { action: 'access.unauthenticated', message: { contains: '/api/check-session' } },
    });
    expect(refusals).toBeGreaterThanOrEqual(2);
  });

  it('stops a session when its user is deactivated', async () => {
    const user = await createUser(t.db, { accessType: 'Auditor' });
    const token = await loginAs(t.app, user);
    await t.db.user.update({ where: { id: user.id }, data: { status: 'deactivated' } });
    const res = await t.app.inject({ method: 'GET', url: '/api/user/current', headers: bearer(token) });
    expect(res.statusCode).toBe(401);
  });

  it('stops an expired session', async () => {
    const user = await createUser(t.db, { accessType: 'Auditor' });
    const token = await loginAs(t.app, user);
    await t.db.session.updateMany({
      where: { userId: user.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const res = await t.app.inject({ method: 'GET', url: '/api/check-session', headers: bearer(token) });
    expect(res.statusCode).toBe(401);
  });
});

describe('current user', () => {
  it.each(['/api/user/current', '/user/current/'])('GET %s returns the signed-in user', async (url) => {
    const user = await createUser(t.db, {
      accessType: 'User Administration Admin',
      firstName: 'Ada',
      lastName: 'Byron',
    });
    const token = await loginAs(t.app, user);
    const res = await t.app.inject({ method: 'GET', url, headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data).toMatchObject({ id: user.id, username: user.username, name: 'Ada Byron', status: 'active' });
    expect(Object.keys(data)).not.toContain('passwordHash');
    expect(Object.keys(data)).not.toContain('twoFactorSecret');
  });
});

describe('rate limit', () => {
  it('refuses the sign-in attempt past the limit with 429', async () => {
    const limited = await createTestApp({ LOGIN_RATE_LIMIT: '3' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await limited.app.inject({
          method: 'POST',
          url: '/api/login',
          payload: { username: 'target', password: `guess-${i}`, role: 'admin' },
        });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([401, 401, 401, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe('per-account sign-in throttle', () => {
  const LOCKED = 'Too many failed sign-in attempts for this account. Try again in 15 minutes.';

  it('after 10 failed sign-ins within 15 minutes answers 429 before looking at the password', async () => {
    // Other failures from the same address first: past the 30 anonymous refusals a minute
    // that are audited otherwise, failed sign-ins still count.
    for (let i = 0; i < 31; i++) {
      expect((await login({ username: `nobody${i}`, password: 'wrong-one', role: 'admin' })).statusCode).toBe(
        401,
      );
    }
    const user = await createUser(t.db, { accessType: 'Auditor' });
    const other = await createUser(t.db, { accessType: 'Auditor' });
    for (let i = 0; i < 10; i++) {
      // By username and by e-mail alike: they name the same account.
      const name = i % 2 ? user.username : user.email.toUpperCase();
      expect((await login({ username: name, password: `guess-${i}`, role: 'admin' })).statusCode).toBe(401);
    }
    const locked = await login({ username: user.username, password: TEST_PASSWORD, role: 'admin' });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toBe(LOCKED);
    expect(await t.db.session.count({ where: { userId: user.id } })).toBe(0);
    // Another account is not affected.
    expect(
      (await login({ username: other.username, password: TEST_PASSWORD, role: 'admin' })).statusCode,
    ).toBe(200);
    // Failures older than 15 minutes no longer count.
    await t.db.auditEvent.updateMany({
      where: { action: 'access.unauthenticated', createdAt: { gte: new Date(Date.now() - 60_000) } },
      data: { createdAt: new Date(Date.now() - 16 * 60_000) },
    });
    expect(
      (await login({ username: user.username, password: TEST_PASSWORD, role: 'admin' })).statusCode,
    ).toBe(200);
  });

  it('locks an unknown login the same way (no difference tells which accounts exist)', async () => {
    for (let i = 0; i < 10; i++) await login({ username: 'ghost-account', password: 'x', role: 'admin' });
    const res = await login({ username: 'ghost-account', password: 'x', role: 'admin' });
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toBe(LOCKED);
  });
});
