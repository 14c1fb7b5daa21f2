import { ACCESS_TYPES, type AccessType, type LoginRole } from '@quire/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { errorPaths } from '../../../test/errors.js';
import { bearer, createUser, loginAs, TEST_PASSWORD } from '../../../test/factories.js';
import { person, seed } from '../../../test/seed.js';

let t: TestContext;
/** How far the app's clock runs ahead of real time (the throttle tests move it). */
let clockOffset = 0;
beforeAll(async () => {
  t = await createTestApp({}, { now: () => new Date(Date.now() + clockOffset) });
});
afterAll(() => t.close());

const login = (payload: unknown, remoteAddress = '127.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/login', payload: payload as object, remoteAddress });

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
    expect(errorPaths(res).sort()).toEqual(['body.password', 'body.role', 'body.username']);
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
    const user = await person(t, { accessType: 'File Control Admin' });
    const event = await t.db.auditEvent.findFirst({ where: { userId: user.id, action: 'login.success' } });
    expect(event?.message).toContain(user.username);
    const session = await t.db.session.findFirst({ where: { userId: user.id } });
    expect(session?.tokenHash).toMatch(/^[0-9a-f]{64}$/);

    // When the audit event cannot be written, no session is opened either.
    const other = await createUser(t.db, { accessType: 'File Control Admin' });
    await t.db.$executeRawUnsafe(`
      CREATE FUNCTION refuse_login_audit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.action = 'login.success' AND NEW.target_id = '${other.id}' THEN
          RAISE EXCEPTION 'audit refused for the test';
        END IF;
        RETURN NEW;
      END $$`);
    await t.db.$executeRawUnsafe(
      'CREATE TRIGGER refuse_login_audit BEFORE INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION refuse_login_audit()',
    );
    try {
      const res = await login({ username: other.username, password: TEST_PASSWORD, role: 'admin' });
      expect(res.statusCode).toBe(500);
      expect(await t.db.session.count({ where: { userId: other.id } })).toBe(0);
    } finally {
      await t.db.$executeRawUnsafe('DROP TRIGGER refuse_login_audit ON audit_events');
      await t.db.$executeRawUnsafe('DROP FUNCTION refuse_login_audit()');
    }
  });
});

describe('sessions', () => {
  it('logout revokes the token at once, and only that one', async () => {
    const user = await person(t, { accessType: 'COMPANY ADMIN' });
    const { token } = user;
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

  it('refuses calls without a token, with a made-up token, and audits each refusal', async () => {
    const where = { action: 'access.unauthenticated', ip: '10.20.30.40' };
    const before = await t.db.auditEvent.count({ where });
    const none = await t.app.inject({
      method: 'GET',
      url: '/api/check-session',
      remoteAddress: '10.20.30.40',
    });
    const fake = await t.app.inject({
      method: 'GET',
      url: '/api/check-session',
      headers: bearer('made-up'),
      remoteAddress: '10.20.30.40',
    });
    expect(none.statusCode).toBe(401);
    expect(fake.statusCode).toBe(401);
    const events = await t.db.auditEvent.findMany({ where, orderBy: { id: 'asc' }, skip: before });
    expect(events.map((e) => [e.userId, e.message])).toEqual([
      [null, 'GET /api/check-session: You are not authenticated, Please login'],
      [null, 'GET /api/check-session: You are not authenticated, Please login'],
    ]);
  });

  it('stops a session when its user is deactivated', async () => {
    const { id, token } = await person(t, { accessType: 'Auditor' });
    await t.db.user.update({ where: { id }, data: { status: 'deactivated' } });
    const res = await t.app.inject({ method: 'GET', url: '/api/user/current', headers: bearer(token) });
    expect(res.statusCode).toBe(401);
  });

  it('stops an expired session', async () => {
    const { id, token } = await person(t, { accessType: 'Auditor' });
    await t.db.session.updateMany({
      where: { userId: id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const res = await t.app.inject({ method: 'GET', url: '/api/check-session', headers: bearer(token) });
    expect(res.statusCode).toBe(401);
  });
});

describe('current user', () => {
  it.each(['/api/user/current', '/user/current/'])('GET %s returns the signed-in user', async (url) => {
    const user = await person(t, {
      accessType: 'User Administration Admin',
      firstName: 'Ada',
      lastName: 'Byron',
    });
    const res = await t.app.inject({ method: 'GET', url, headers: bearer(user.token) });
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

describe('sign-in throttle (docs/decisions/011-sign-in-throttle.md)', () => {
  const DELAYED =
    /^Too many failed attempts for this account\. Wait \d+ seconds? and try again, or reset your password\.$/;
  let address = 0;
  /** A caller address of its own, so tests do not share the per-address budget. */
  const fresh = () => {
    address += 1;
    return `10.77.${Math.floor(address / 250)}.${address % 250}`;
  };
  /**
   * Lets `ms` pass on the app's clock (the audit trail cannot be changed, so the failed
   * attempts are not moved back: the clock the throttle reads moves on).
   */
  const age = (ms: number) => {
    clockOffset += ms;
  };
  const attempt = (username: string, password: string, from = fresh()) =>
    login({ username, password, role: 'admin' }, from);

  it('slows an account after 5 failures, whoever tries: the right password waits too, but only briefly', async () => {
    const user = await createUser(t.db, { accessType: 'Auditor' });
    const other = await createUser(t.db, { accessType: 'Auditor' });
    for (let i = 0; i < 5; i++) {
      // By username and by e-mail alike: they name the same account.
      expect((await attempt(i % 2 ? user.username : user.email.toUpperCase(), `guess-${i}`)).statusCode).toBe(
        401,
      );
    }
    const waiting = await attempt(user.username, TEST_PASSWORD);
    expect(waiting.statusCode).toBe(429);
    expect(waiting.json().code).toBe('auth.sign_in_delayed');
    expect(waiting.json().message).toMatch(DELAYED);
    expect(await t.db.session.count({ where: { userId: user.id } })).toBe(0);
    // Another account is not affected.
    expect((await attempt(other.username, TEST_PASSWORD)).statusCode).toBe(200);
    // Two seconds later the right password gets in.
    age(2100);
    expect((await attempt(user.username, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('bounds a brute force spread over many addresses to about one guess a minute', async () => {
    const user = await createUser(t.db, { accessType: 'Auditor' });
    for (let i = 0; i < 12; i++) {
      expect((await attempt(user.username, `guess-${i}`)).statusCode).toBe(401);
      // Past the free failures, a guess inside the wait is not even looked at, from anywhere.
      if (i >= 4) {
        const inside = await attempt(user.username, TEST_PASSWORD);
        expect(inside.statusCode).toBe(429);
      }
      age(61_000);
    }
    // Refused attempts inside a wait did not count: 12 failures, each a minute apart.
    expect(
      await t.db.auditEvent.count({
        where: { action: 'access.unauthenticated', details: { path: ['username'], equals: user.username } },
      }),
    ).toBe(12);
    age(-61_000);
    const capped = await attempt(user.username, TEST_PASSWORD);
    expect(capped.statusCode).toBe(429);
    expect(capped.json().message).toMatch(/Wait (59|60) seconds/);
    age(61_000);
    expect((await attempt(user.username, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('slows an unknown login the same way (no difference tells which accounts exist)', async () => {
    for (let i = 0; i < 5; i++) expect((await attempt('ghost-account', 'x')).statusCode).toBe(401);
    const res = await attempt('ghost-account', 'x');
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toMatch(DELAYED);
  });

  it('throttles the source: an address that failed 30 times is refused for every account', async () => {
    const from = fresh();
    // Failed sign-ins count past the 30 anonymous refusals a minute that are audited otherwise.
    for (let i = 0; i < 30; i++) {
      expect((await attempt(`sprayed${i}`, 'wrong-one', from)).statusCode).toBe(401);
    }
    const user = await createUser(t.db, { accessType: 'Auditor' });
    const refused = await attempt(user.username, TEST_PASSWORD, from);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('auth.too_many_failures_from_address');
    // The account itself is not slowed: from elsewhere its owner signs in.
    expect((await attempt(user.username, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('is lifted by a reset link, an admin’s new password or an admin’s unlock', async () => {
    const { token: admin } = await person(t, { accessType: 'COMPANY ADMIN' });
    const asAdmin = (method: 'PUT' | 'POST', url: string, payload: object) =>
      t.app.inject({ method, url, payload, headers: bearer(admin) });
    const slowed = async () => {
      const user = await createUser(t.db, { accessType: 'Auditor' });
      for (let i = 0; i < 8; i++) await attempt(user.username, `guess-${i}`);
      expect((await attempt(user.username, TEST_PASSWORD)).statusCode).toBe(429);
      return user;
    };

    const a = await slowed();
    const unlocked = await asAdmin('PUT', '/api/unlock_user', { id: a.id });
    expect(unlocked.statusCode).toBe(200);
    expect(unlocked.json().data.id).toBe(a.id);
    expect((await attempt(a.username, TEST_PASSWORD)).statusCode).toBe(200);
    expect(
      await t.db.auditEvent.count({ where: { action: 'user.sign_in_unlocked', targetId: String(a.id) } }),
    ).toBe(1);

    const b = await slowed();
    expect(
      (await asAdmin('POST', '/api/reset-password', { user_id: b.id, password: 'Fresh-Meadow-Lamp-5' }))
        .statusCode,
    ).toBe(200);
    expect((await attempt(b.username, 'Fresh-Meadow-Lamp-5')).statusCode).toBe(200);

    const c = await slowed();
    await t.app.inject({ method: 'POST', url: '/account/password/email', payload: { email: c.email } });
    await t.settle();
    const mail = await t.db.mailJob.findFirstOrThrow({ where: { to: c.email, kind: 'password_reset' } });
    const link = new URL(mail.text.match(/https?:\/\/\S+\/reset-password\?\S+/)?.[0] ?? '');
    const reset = await t.app.inject({
      method: 'POST',
      url: '/account/reset-password',
      payload: { email: c.email, token: link.searchParams.get('token'), password: 'Fresh-Meadow-Lamp-6' },
    });
    expect(reset.statusCode).toBe(200);
    expect((await attempt(c.username, 'Fresh-Meadow-Lamp-6')).statusCode).toBe(200);
  });

  it('lets only a Settings writer unlock, and only users they may manage', async () => {
    const { auditor, userAdmin, boss } = (
      await seed(t, {
        users: {
          auditor: { accessType: 'Auditor' },
          userAdmin: { accessType: 'User Administration Admin' },
          boss: { accessType: 'COMPANY ADMIN', signIn: false },
        },
      })
    ).users;
    const put = (token: string, id: number) =>
      t.app.inject({ method: 'PUT', url: '/api/unlock_user', payload: { id }, headers: bearer(token) });
    expect((await put(auditor.token, boss.id)).statusCode).toBe(403);
    expect((await put(userAdmin.token, boss.id)).statusCode).toBe(403);
    expect((await put(userAdmin.token, 999_999)).statusCode).toBe(404);
    expect(
      await t.db.auditEvent.count({ where: { action: 'user.sign_in_unlocked', targetId: String(boss.id) } }),
    ).toBe(0);
  });
});
