import { createHash } from 'node:crypto';
import { generate } from 'otplib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { errorPaths } from '../../../test/errors.js';
import { bearer, loginAs, TEST_PASSWORD } from '../../../test/factories.js';
import { person, type SeedUser } from '../../../test/seed.js';

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

/** A person of `o`, signed in with their login role. */
async function signedIn(o: SeedUser = {}) {
  const user = await person(t, o);
  return { user, token: user.token };
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
      data: {
        verified: true,
        isCompany2FAEnabled: false,
        isUser2FAEnabled: true,
        recovery_codes: expect.any(Array),
      },
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
      expect(errorPaths(res)).toEqual(['body.code']);
      expect(await t.db.auditEvent.count()).toBe(audits);
      expect((await t.db.user.findUniqueOrThrow({ where: { id: user.id } })).twoFactorEnabled).toBe(false);
    },
  );

  it('refuses a code before 2FA was set up', async () => {
    const { token } = await signedIn();
    const res = await post('/api/users/verify2fa', token, { code: '123456' });
    expect(res.statusCode).toBe(409);
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
        createdAt: new Date(clock - 10 * 60_000),
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
    // 16 minutes later they no longer count (the audit trail cannot be changed: time passes).
    clock += 16 * 60_000;
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
    const user = await person(t, { accessType: 'Auditor', signIn: false });
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
      recovery_codes: expect.any(Array),
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

describe('two-factor recovery codes', () => {
  const CODE = /^[a-hjkmnp-z2-9]{5}-[a-hjkmnp-z2-9]{5}$/;
  const signIn = async (username: string) => {
    const res = await post('/api/login', undefined, { username, password: TEST_PASSWORD, role: 'user' });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.access_token as string;
  };
  const left = async (token: string) =>
    (
      await t.app.inject({ method: 'GET', url: '/api/users/2fa-recovery-codes', headers: bearer(token) })
    ).json().data.remaining;

  /** A user with 2FA on, the codes they were given, and a verified session. */
  async function withCodes() {
    const { user, token } = await signedIn();
    const { secret } = (await post('/api/users/enable2fa', token)).json().data;
    const res = await post('/api/users/verify2fa', token, { code: await codeAt(secret) });
    expect(res.statusCode).toBe(200);
    tick();
    return { user, token, secret: secret as string, codes: res.json().data.recovery_codes as string[] };
  }

  it('turning 2FA on answers ten single-use codes once; only keyed hashes are stored', async () => {
    const { user, token, secret, codes } = await withCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(CODE);
    const rows = await t.db.userToken.findMany({
      where: { userId: user.id, purpose: 'two_factor_recovery' },
    });
    expect(rows).toHaveLength(10);
    const sha = (v: string) => createHash('sha256').update(v).digest('hex');
    for (const r of rows) {
      expect(r.usedAt).toBeNull();
      expect(codes.some((c) => r.tokenHash.includes(c.replace('-', '')) || r.tokenHash === sha(c))).toBe(
        false,
      );
    }
    expect(await left(token)).toBe(10);
    const event = await t.db.auditEvent.findFirstOrThrow({
      where: { action: '2fa.enabled', targetId: String(user.id) },
    });
    expect(event.details).toMatchObject({ recovery_codes_issued: 10 });
    // A later verification (the next sign-in) answers no codes.
    const next = await signIn(user.username);
    const again = await post('/api/users/verify2fa', next, { code: await codeAt(secret) });
    expect(again.statusCode).toBe(200);
    expect(again.json().data.recovery_codes).toBeUndefined();
    tick();
  });

  it('a code signs in once in place of the authenticator: spent, audited, mailed', async () => {
    const { user, codes } = await withCodes();
    const pending = await signIn(user.username);
    expect((await sessionState(pending)).twoFactorVerified).toBe(false);
    const typed = ` ${codes[3]!.toUpperCase().replace('-', ' - ')} `; // case, spaces and dashes do not matter
    const res = await post('/api/users/verify2fa-recovery', pending, { recovery_code: typed });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({
      verified: true,
      isCompany2FAEnabled: false,
      isUser2FAEnabled: true,
      remaining_recovery_codes: 9,
    });
    expect((await sessionState(pending)).twoFactorVerified).toBe(true);
    expect(await auditCount('2fa.recovery_used', user.id)).toBe(1);
    const mail = await t.db.mailJob.findFirstOrThrow({
      where: { kind: 'two_factor_recovery_used', to: user.email },
    });
    expect(mail.text).toContain('9 recovery codes are left');
    expect(mail.text).not.toContain(codes[3]!);

    // The same code again: refused like a wrong code (400 naming the field, audited), session still pending.
    const second = await signIn(user.username);
    const failures = await auditCount('2fa.failed', user.id);
    const reused = await post('/api/users/verify2fa-recovery', second, { recovery_code: codes[3] });
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toMatchObject({
      code: 'auth.invalid_recovery_code',
      errors: [{ path: 'body.recovery_code' }],
    });
    expect(await auditCount('2fa.failed', user.id)).toBe(failures + 1);
    expect((await sessionState(second)).twoFactorVerified).toBe(false);
    // Another user's code is no code of this one.
    const other = await withCodes();
    const foreign = await post('/api/users/verify2fa-recovery', second, { recovery_code: other.codes[0] });
    expect(foreign.statusCode).toBe(400);
    expect(await left(other.token)).toBe(10);
  });

  it('refuses a recovery code without a session (401) and for a user without 2FA (409)', async () => {
    expect(
      (await post('/api/users/verify2fa-recovery', undefined, { recovery_code: 'abcde-fghjk' })).statusCode,
    ).toBe(401);
    const { token } = await signedIn();
    const res = await post('/api/users/verify2fa-recovery', token, { recovery_code: 'abcde-fghjk' });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('auth.two_factor_not_set_up');
    const empty = await post('/api/users/verify2fa-recovery', token, { recovery_code: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors[0].path).toBe('body.recovery_code');
  });

  it('new codes need the password or a current code; the old ones stop working', async () => {
    const { user, token, secret, codes } = await withCodes();
    const wrong = await post('/api/users/2fa-recovery-codes', token, { password: 'not-the-password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors[0].path).toBe('body.password');
    const missing = await post('/api/users/2fa-recovery-codes', token, {});
    expect(missing.statusCode).toBe(400);
    expect(await left(token)).toBe(10);

    const byPassword = await post('/api/users/2fa-recovery-codes', token, { password: TEST_PASSWORD });
    expect(byPassword.statusCode, byPassword.body).toBe(200);
    const fresh = byPassword.json().data;
    expect(fresh.remaining).toBe(10);
    expect(fresh.recovery_codes).toHaveLength(10);
    expect(fresh.recovery_codes.some((c: string) => codes.includes(c))).toBe(false);
    expect(await auditCount('2fa.recovery_codes_issued', user.id)).toBe(1);

    const byCode = await post('/api/users/2fa-recovery-codes', token, { code: await codeAt(secret) });
    expect(byCode.statusCode).toBe(200);
    tick();
    const newest = byCode.json().data.recovery_codes as string[];

    const pending = await signIn(user.username);
    for (const old of [codes[0], fresh.recovery_codes[0]])
      expect((await post('/api/users/verify2fa-recovery', pending, { recovery_code: old })).statusCode).toBe(
        400,
      );
    expect(
      (await post('/api/users/verify2fa-recovery', pending, { recovery_code: newest[0] })).statusCode,
    ).toBe(200);
  });

  it('a half-signed-in session may not make new codes nor count them (403)', async () => {
    const { user } = await withCodes();
    const pending = await signIn(user.username);
    expect(
      (await post('/api/users/2fa-recovery-codes', pending, { password: TEST_PASSWORD })).statusCode,
    ).toBe(403);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/users/2fa-recovery-codes', headers: bearer(pending) }))
        .statusCode,
    ).toBe(403);
  });

  it('turning 2FA off removes the codes', async () => {
    const { user, token } = await withCodes();
    expect((await post('/api/users/disable2fa', token, { password: TEST_PASSWORD })).statusCode).toBe(200);
    expect(await t.db.userToken.count({ where: { userId: user.id, purpose: 'two_factor_recovery' } })).toBe(
      0,
    );
    expect(await left(token)).toBe(0);
  });
});
