import { generate } from 'otplib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { bearer, createUser, loginAs, TEST_PASSWORD, type UserOverrides } from '../../../test/factories.js';

// The clock is ours: 15 s into a 30-s TOTP step, moved on by whole steps, so codes of the
// previous and the next step are exact and never flaky at a step boundary.
const STEP_MS = 30_000;
let clock = Math.floor(Date.now() / STEP_MS) * STEP_MS + 15_000;
const tick = (steps = 1) => {
  clock += steps * STEP_MS;
};
/** The code of the current step, or `offset` steps before/after it. */
const codeAt = (secret: string, offset = 0) =>
  generate({ secret, epoch: Math.floor(clock / 1000) + offset * 30 });

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: 'error' }, { now: () => new Date(clock) });
});
afterAll(() => t.close());

const post = (url: string, token?: string, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers: token ? bearer(token) : {}, ...(payload ? { payload } : {}) });
const sessionState = async (token: string) =>
  (await t.app.inject({ method: 'GET', url: '/api/check-session', headers: bearer(token) })).json().data;
const auditCount = (action: string, userId?: number) =>
  t.db.auditEvent.count({ where: { action, ...(userId ? { targetId: String(userId) } : {}) } });

async function signedIn(overrides: UserOverrides = {}) {
  const user = await createUser(t.db, overrides);
  const token = await loginAs(t.app, user, user.loginRole);
  return { user, token };
}

/** Sets up and turns on 2FA for a fresh user; returns the secret. */
async function withTwoFactor(token: string) {
  const { secret } = (await post('/api/users/enable2fa', token)).json().data;
  const res = await post('/api/users/verify2fa', token, { code: await codeAt(secret) });
  expect(res.statusCode).toBe(200);
  tick();
  return secret as string;
}

describe('POST /api/users/is2faenabled', () => {
  it('tells whether the company and the user use 2FA', async () => {
    const { token } = await signedIn();
    const res = await post('/api/users/is2faenabled', token);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ isCompany2FAEnabled: false, isUser2FAEnabled: false });
    const withBody = await post('/api/users/is2faenabled', token, {});
    expect(withBody.json().data).toEqual({ isCompany2FAEnabled: false, isUser2FAEnabled: false });
  });

  it('refuses a caller without a token', async () => {
    expect((await post('/api/users/is2faenabled')).statusCode).toBe(401);
  });

  it.each([
    ['General staff', 'General staff'],
    ['Auditor', 'Auditor'],
    ['File Control Admin', 'File Control Admin'],
  ] as const)(
    'refuses %s changing the company requirement (403), and changes nothing',
    async (_, accessType) => {
      const { token } = await signedIn({ accessType });
      const res = await post('/api/users/is2faenabled', token, { company_2fa: true });
      expect(res.statusCode).toBe(403);
      expect((await t.db.company.findFirstOrThrow()).twoFactorRequired).toBe(false);
    },
  );

  it('answers a bad body with 400 naming the field, and writes nothing', async () => {
    const { token } = await signedIn({ accessType: 'COMPANY ADMIN' });
    const audits = await t.db.auditEvent.count();
    const res = await post('/api/users/is2faenabled', token, { company_2fa: 'yes' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].path).toBe('body.company_2fa');
    expect(await t.db.auditEvent.count()).toBe(audits);
    expect((await t.db.company.findFirstOrThrow()).twoFactorRequired).toBe(false);
  });
});

describe('POST /api/users/enable2fa', () => {
  it('returns a new secret, its otpauth URL and a PNG QR code, stored encrypted and not yet on', async () => {
    const { user, token } = await signedIn();
    const res = await post('/api/users/enable2fa', token);
    expect(res.statusCode).toBe(200);
    const { secret, otpauth_url, qr_code } = res.json().data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauth_url).toMatch(new RegExp(`^otpauth://totp/Quire:${user.username}\\?`));
    expect(otpauth_url).toContain('issuer=Quire');
    expect(otpauth_url).toContain(`secret=${secret}`);
    expect(qr_code).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/=]{200,}$/);
    const row = await t.db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.twoFactorEnabled).toBe(false);
    expect(row.twoFactorSecret).toBeTruthy();
    expect(row.twoFactorSecret).not.toContain(secret);
    expect(await auditCount('2fa.setup_started', user.id)).toBe(1);
  });

  it('refuses a caller without a token', async () => {
    expect((await post('/api/users/enable2fa')).statusCode).toBe(401);
  });

  it('refuses a new secret while 2FA is on (409), so a password alone cannot replace the authenticator', async () => {
    const { user, token } = await signedIn();
    await withTwoFactor(token);
    const before = (await t.db.user.findUniqueOrThrow({ where: { id: user.id } })).twoFactorSecret;
    const res = await post('/api/users/enable2fa', token);
    expect(res.statusCode).toBe(409);
    expect((await t.db.user.findUniqueOrThrow({ where: { id: user.id } })).twoFactorSecret).toBe(before);
  });
});

describe('POST /api/users/verify2fa', () => {
  it('accepts a current code: turns 2FA on and marks this session verified', async () => {
    const { user, token } = await signedIn();
    const { secret } = (await post('/api/users/enable2fa', token)).json().data;
    const res = await post('/api/users/verify2fa', token, { code: await codeAt(secret) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      message: '2FA verified successfully!',
      data: { verified: true, isCompany2FAEnabled: false, isUser2FAEnabled: true },
    });
    const row = await t.db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.twoFactorEnabled).toBe(true);
    expect(row.twoFactorLastStep).toBe(BigInt(Math.floor(clock / STEP_MS)));
    expect((await sessionState(token)).twoFactorVerified).toBe(true);
    expect(await auditCount('2fa.enabled', user.id)).toBe(1);
    tick();
  });

  it('refuses a wrong code with a clear message, changes nothing, and audits the attempt', async () => {
    const { user, token } = await signedIn();
    const { secret } = (await post('/api/users/enable2fa', token)).json().data;
    const right = await codeAt(secret);
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
    const res = await post('/api/users/verify2fa', token, { code: wrong });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Invalid verification code');
    expect(res.json().errors).toEqual([{ path: 'body.code', message: 'Invalid verification code' }]);
    const row = await t.db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.twoFactorEnabled).toBe(false);
    expect(row.twoFactorLastStep).toBeNull();
    expect(await auditCount('2fa.failed', user.id)).toBe(1);
  });

  it.each([['12345'], ['1234567'], ['12a456'], ['']])(
    'answers the code %j with 400 naming body.code',
    async (code) => {
      const { user, token } = await signedIn();
      await post('/api/users/enable2fa', token);
      const audits = await t.db.auditEvent.count();
      const res = await post('/api/users/verify2fa', token, { code });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors.map((e: { path: string }) => e.path)).toEqual(['body.code']);
      expect(await t.db.auditEvent.count()).toBe(audits);
      expect((await t.db.user.findUniqueOrThrow({ where: { id: user.id } })).twoFactorEnabled).toBe(false);
    },
  );

  it('refuses a code before 2FA was set up', async () => {
    const { token } = await signedIn();
    const res = await post('/api/users/verify2fa', token, { code: '123456' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('not set up');
  });

  it('refuses a caller without a token', async () => {
    expect((await post('/api/users/verify2fa', undefined, { code: '123456' })).statusCode).toBe(401);
  });

  it('allows one step of clock drift either way, never two', async () => {
    const { user, token } = await signedIn();
    const { secret } = (await post('/api/users/enable2fa', token)).json().data;
    const first = await codeAt(secret);
    expect((await post('/api/users/verify2fa', token, { code: first })).statusCode).toBe(200);
    tick(2);
    // Two steps back: too old.
    const tooOld = await post('/api/users/verify2fa', token, { code: first });
    expect(tooOld.statusCode).toBe(400);
    expect(tooOld.json().message).toBe('Invalid verification code');
    // One step back (the phone's clock is slow): accepted.
    expect((await post('/api/users/verify2fa', token, { code: await codeAt(secret, -1) })).statusCode).toBe(
      200,
    );
    // Two steps ahead: refused; one step ahead (the phone's clock is fast): accepted.
    expect((await post('/api/users/verify2fa', token, { code: await codeAt(secret, 2) })).statusCode).toBe(
      400,
    );
    expect((await post('/api/users/verify2fa', token, { code: await codeAt(secret, 1) })).statusCode).toBe(
      200,
    );
    const row = await t.db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.twoFactorLastStep).toBe(BigInt(Math.floor(clock / STEP_MS) + 1));
    tick(2);
  });

  it('never accepts a code of a step already used, or of an older one', async () => {
    const { user, token } = await signedIn();
    const { secret } = (await post('/api/users/enable2fa', token)).json().data;
    const ahead = await codeAt(secret, 1);
    expect((await post('/api/users/verify2fa', token, { code: ahead })).statusCode).toBe(200);
    const replay = await post('/api/users/verify2fa', token, { code: ahead });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().message).toBe('This code has already been used. Wait for the next code.');
    // The current step is older than the one just used: refused too.
    const older = await post('/api/users/verify2fa', token, { code: await codeAt(secret) });
    expect(older.statusCode).toBe(400);
    expect(await auditCount('2fa.failed', user.id)).toBe(2);
    tick(2);
  });

  it('limits verification attempts per user (429 past 5 a minute)', async () => {
    const { user, token } = await signedIn();
    const other = await loginAs(t.app, user, user.loginRole);
    await post('/api/users/enable2fa', token);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await post('/api/users/verify2fa', token, { code: '000000' })).statusCode);
    // A second session of the same user shares the budget.
    statuses.push((await post('/api/users/verify2fa', other, { code: '000000' })).statusCode);
    expect(statuses.slice(0, 5).every((s) => s === 400)).toBe(true);
    expect(statuses[5]).toBe(429);
  });
});

describe('POST /api/users/disable2fa', () => {
  it('turns 2FA off with a current code, clears the secret, and audits it', async () => {
    const { user, token } = await signedIn();
    const secret = await withTwoFactor(token);
    const res = await post('/api/users/disable2fa', token, { code: await codeAt(secret) });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ isCompany2FAEnabled: false, isUser2FAEnabled: false });
    const row = await t.db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row).toMatchObject({ twoFactorEnabled: false, twoFactorSecret: null, twoFactorLastStep: null });
    expect(await auditCount('2fa.disabled', user.id)).toBe(1);
    tick();
  });

  it('turns 2FA off with the password', async () => {
    const { user, token } = await signedIn();
    await withTwoFactor(token);
    const res = await post('/api/users/disable2fa', token, { password: TEST_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect((await t.db.user.findUniqueOrThrow({ where: { id: user.id } })).twoFactorEnabled).toBe(false);
    const events = await t.db.auditEvent.findMany({ where: { targetId: String(user.id) } });
    expect(JSON.stringify(events.map((e) => [e.message, e.details]))).not.toContain(TEST_PASSWORD);
  });

  it('refuses a wrong code or a wrong password with 400, and keeps 2FA on', async () => {
    const { user, token } = await signedIn();
    const secret = await withTwoFactor(token);
    const wrongCode = await post('/api/users/disable2fa', token, { code: await codeAt(secret, -3) });
    expect(wrongCode.statusCode).toBe(400);
    expect(wrongCode.json().message).toBe('Invalid verification code');
    const wrongPassword = await post('/api/users/disable2fa', token, { password: 'not-the-password' });
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json().errors[0].path).toBe('body.password');
    const empty = await post('/api/users/disable2fa', token, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors[0].path).toBe('body.code');
    expect((await t.db.user.findUniqueOrThrow({ where: { id: user.id } })).twoFactorEnabled).toBe(true);
    expect(await auditCount('2fa.disabled', user.id)).toBe(0);
  });

  it('refuses a caller without a token, and a session still waiting for its code', async () => {
    expect((await post('/api/users/disable2fa', undefined, { password: 'x' })).statusCode).toBe(401);
    const { user, token } = await signedIn();
    await withTwoFactor(token);
    const pending = await loginAs(t.app, user, user.loginRole);
    const res = await post('/api/users/disable2fa', pending, { password: TEST_PASSWORD });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Two-factor verification is required before you can continue');
    expect((await t.db.user.findUniqueOrThrow({ where: { id: user.id } })).twoFactorEnabled).toBe(true);
  });
});

describe('per-account two-factor throttle', () => {
  const LOCKED = 'Too many refused two-factor codes for this account. Try again in 15 minutes.';
  /** Refusals recorded earlier in the window (the per-minute rate limit allows 5 a minute). */
  const earlierRefusals = (userId: number, action: string, n: number) =>
    t.db.auditEvent.createMany({
      data: Array.from({ length: n }, () => ({
        userId,
        type: 'security',
        action,
        message: 'a two-factor code was refused',
        targetType: 'user',
        targetId: String(userId),
        createdAt: new Date(Date.now() - 10 * 60_000),
      })),
    });

  it('after 10 refused codes within 15 minutes, verify2fa answers 429 even for a right code', async () => {
    const { user, token } = await signedIn();
    const secret = await withTwoFactor(token);
    const pending = await loginAs(t.app, user, user.loginRole);
    await earlierRefusals(user.id, '2fa.failed', 9);
    const wrong = await post('/api/users/verify2fa', pending, { code: '000000' });
    expect(wrong.statusCode).toBe(400);
    const res = await post('/api/users/verify2fa', pending, { code: await codeAt(secret) });
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toBe(LOCKED);
    expect((await sessionState(pending)).twoFactorVerified).toBe(false);
    // Older than 15 minutes: they no longer count.
    await t.db.auditEvent.updateMany({
      where: { targetId: String(user.id), action: '2fa.failed' },
      data: { createdAt: new Date(Date.now() - 16 * 60_000) },
    });
    expect((await post('/api/users/verify2fa', pending, { code: await codeAt(secret) })).statusCode).toBe(
      200,
    );
    tick();
  });

  it('counts refused codes and passwords of disable2fa too, and answers 429 there', async () => {
    const { user, token } = await signedIn();
    await withTwoFactor(token);
    await earlierRefusals(user.id, '2fa.disable_failed', 5);
    await earlierRefusals(user.id, '2fa.failed', 5);
    const res = await post('/api/users/disable2fa', token, { password: TEST_PASSWORD });
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toBe(LOCKED);
    expect((await t.db.user.findUniqueOrThrow({ where: { id: user.id } })).twoFactorEnabled).toBe(true);
  });
});

describe('POST /api/users/clear2fa', () => {
  it('without user_id: ends the half-signed-in session', async () => {
    const { user, token } = await signedIn();
    await withTwoFactor(token);
    const pending = await loginAs(t.app, user, user.loginRole);
    expect((await sessionState(pending)).twoFactorVerified).toBe(false);
    const res = await post('/api/users/clear2fa', pending);
    expect(res.statusCode).toBe(200);
    const after = await t.app.inject({ method: 'GET', url: '/api/check-session', headers: bearer(pending) });
    expect(after.statusCode).toBe(401);
    // The user's 2FA and other session stay as they were.
    expect((await t.db.user.findUniqueOrThrow({ where: { id: user.id } })).twoFactorEnabled).toBe(true);
    expect((await sessionState(token)).active).toBe(true);
    expect(await auditCount('2fa.session_cleared', user.id)).toBe(1);
  });

  it("with user_id: a Settings-write admin resets that user's 2FA and ends their sessions", async () => {
    const { user, token } = await signedIn();
    await withTwoFactor(token);
    const admin = await signedIn({ accessType: 'User Administration Admin' });
    const res = await post('/api/users/clear2fa', admin.token, { user_id: user.id });
    expect(res.statusCode).toBe(200);
    const row = await t.db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row).toMatchObject({ twoFactorEnabled: false, twoFactorSecret: null });
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/check-session', headers: bearer(token) })).statusCode,
    ).toBe(401);
    expect((await sessionState(admin.token)).active).toBe(true);
    const event = await t.db.auditEvent.findFirstOrThrow({
      where: { action: '2fa.reset', targetId: String(user.id) },
    });
    expect(event.userId).toBe(admin.user.id);
  });

  it.each(['General staff', 'Auditor', 'File Control Admin'] as const)(
    'refuses %s resetting another user (403), and changes nothing',
    async (accessType) => {
      const { user, token } = await signedIn();
      await withTwoFactor(token);
      const caller = await signedIn({ accessType });
      const res = await post('/api/users/clear2fa', caller.token, { user_id: user.id });
      expect(res.statusCode).toBe(403);
      expect((await t.db.user.findUniqueOrThrow({ where: { id: user.id } })).twoFactorEnabled).toBe(true);
      expect((await sessionState(token)).active).toBe(true);
    },
  );

  it('refuses the vendor admin, the caller itself and a user with more access (403), changing nothing', async () => {
    const admin = await signedIn({ accessType: 'COMPANY ADMIN' });
    await withTwoFactor(admin.token);
    const vendor = await signedIn({ accessType: 'DATAMAX ADMIN' });
    await withTwoFactor(vendor.token);
    const userAdmin = await signedIn({ accessType: 'User Administration Admin' });
    const cases = [
      [
        admin.token,
        vendor.user.id,
        'The Vendor Admin account cannot be changed, deactivated or deleted here',
      ],
      [admin.token, admin.user.id, 'Use Profile to turn off your own two-factor authentication'],
      [userAdmin.token, admin.user.id, 'You cannot manage a user with more access than your own'],
    ] as const;
    for (const [token, userId, message] of cases) {
      const res = await post('/api/users/clear2fa', token, { user_id: userId });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(message);
    }
    for (const id of [admin.user.id, vendor.user.id]) {
      expect((await t.db.user.findUniqueOrThrow({ where: { id } })).twoFactorEnabled).toBe(true);
    }
    expect(await auditCount('2fa.reset', admin.user.id)).toBe(0);
    expect(await auditCount('2fa.reset', vendor.user.id)).toBe(0);
  });

  it('answers an unknown user with 404 and a bad user_id with 400', async () => {
    const admin = await signedIn({ accessType: 'COMPANY ADMIN' });
    expect((await post('/api/users/clear2fa', admin.token, { user_id: 99_999_999 })).statusCode).toBe(404);
    const bad = await post('/api/users/clear2fa', admin.token, { user_id: 'abc' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].path).toBe('body.user_id');
  });

  it('refuses a caller without a token', async () => {
    expect((await post('/api/users/clear2fa')).statusCode).toBe(401);
  });
});

describe('when the company requires 2FA', () => {
  afterEach(async () => {
    await t.db.company.updateMany({ data: { twoFactorRequired: false } });
  });

  it('a Company Admin with 2FA turns the requirement on (not one without); the audit records it', async () => {
    const { user, token } = await signedIn({ accessType: 'COMPANY ADMIN' });
    const refused = await post('/api/users/is2faenabled', token, { company_2fa: true });
    expect(refused.statusCode).toBe(409);
    expect((await t.db.company.findFirstOrThrow()).twoFactorRequired).toBe(false);

    await t.db.user.update({ where: { id: user.id }, data: { twoFactorEnabled: true } });
    await t.db.session.updateMany({ where: { userId: user.id }, data: { twoFactorVerified: true } });
    const res = await post('/api/users/is2faenabled', token, { company_2fa: true });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ isCompany2FAEnabled: true, isUser2FAEnabled: true });
    expect((await t.db.company.findFirstOrThrow()).twoFactorRequired).toBe(true);
    const event = await t.db.auditEvent.findFirstOrThrow({ where: { action: 'company.require_2fa.on' } });
    expect(event.userId).toBe(user.id);
  });

  it('a new session opens only session calls until verify2fa accepts a code', async () => {
    await t.db.company.updateMany({ data: { twoFactorRequired: true } });
    const user = await createUser(t.db, { accessType: 'Auditor' });
    const login = await post('/api/login', undefined, {
      username: user.username,
      password: TEST_PASSWORD,
      role: 'admin',
    });
    expect(login.statusCode).toBe(200);
    expect(login.json().data).toMatchObject({ isCompany2FAEnabled: true, isUser2FAEnabled: false });
    const token = login.json().data.access_token;
    expect((await sessionState(token)).twoFactorVerified).toBe(false);

    // A Settings call and a signed-in call are refused while pending.
    const settings = await t.app.inject({ method: 'GET', url: '/api/client-errors', headers: bearer(token) });
    expect(settings.statusCode).toBe(403);
    expect(settings.json().message).toBe('Two-factor verification is required before you can continue');
    const change = await t.app.inject({
      method: 'PUT',
      url: '/account/updatepassword',
      headers: bearer(token),
      payload: { current_password: TEST_PASSWORD, new_password: 'A-much-longer-pass-77' },
    });
    expect(change.statusCode).toBe(403);
    for (const url of ['/api/user/current', '/user/current/']) {
      const me = await t.app.inject({ method: 'GET', url, headers: bearer(token) });
      expect(me.statusCode, url).toBe(403);
    }

    const { secret } = (await post('/api/users/enable2fa', token)).json().data;
    const verified = await post('/api/users/verify2fa', token, { code: await codeAt(secret) });
    expect(verified.statusCode).toBe(200);
    expect(verified.json().data).toEqual({
      verified: true,
      isCompany2FAEnabled: true,
      isUser2FAEnabled: true,
    });
    expect((await sessionState(token)).twoFactorVerified).toBe(true);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/client-errors', headers: bearer(token) })).statusCode,
    ).toBe(200);

    // The next sign-in asks for a code again.
    tick();
    const again = await post('/api/login', undefined, {
      username: user.username,
      password: TEST_PASSWORD,
      role: 'admin',
    });
    expect(again.json().data).toMatchObject({ isCompany2FAEnabled: true, isUser2FAEnabled: true });
    const next = again.json().data.access_token;
    expect((await sessionState(next)).twoFactorVerified).toBe(false);
    expect((await post('/api/users/enable2fa', next)).statusCode).toBe(409);
    expect((await post('/api/users/verify2fa', next, { code: await codeAt(secret) })).statusCode).toBe(200);
    expect((await sessionState(next)).twoFactorVerified).toBe(true);
    tick();
  });

  it('a pending admin session may not change the requirement', async () => {
    await t.db.company.updateMany({ data: { twoFactorRequired: true } });
    const { token } = await signedIn({ accessType: 'COMPANY ADMIN' });
    const res = await post('/api/users/is2faenabled', token, { company_2fa: false });
    expect(res.statusCode).toBe(403);
    expect((await t.db.company.findFirstOrThrow()).twoFactorRequired).toBe(true);
  });

  it('refuses to turn off 2FA', async () => {
    const { user, token } = await signedIn();
    await withTwoFactor(token);
    await t.db.company.updateMany({ data: { twoFactorRequired: true } });
    const res = await post('/api/users/disable2fa', token, { password: TEST_PASSWORD });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toContain('requires two-factor');
    expect((await t.db.user.findUniqueOrThrow({ where: { id: user.id } })).twoFactorEnabled).toBe(true);
  });
});
