import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { errorPaths } from '../../../test/errors.js';
import { bearer, createUser, loginAs, TEST_PASSWORD } from '../../../test/factories.js';
import { tokenFromMail } from '../../../test/mail.js';
import { person } from '../../../test/seed.js';

const SENT = 'If an account exists for that address, we have sent a link to reset the password.';
const INVALID = 'This link is invalid or has expired';
const NEW_PASSWORD = 'Brand-New-Staple-42';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://quire.example.test' });
});
afterAll(() => t.close());

const post = (url: string, payload: object, token?: string) =>
  t.app.inject({ method: 'POST', url, payload, headers: token ? bearer(token) : {} });
/** Asks for a reset link, and waits for the work done after the answer. */
const requestReset = async (email: string) => {
  const res = await post('/account/password/email', { email });
  await t.settle();
  return res;
};
const checkSession = (token: string) =>
  t.app.inject({ method: 'GET', url: '/api/check-session', headers: bearer(token) });
const login = (username: string, password: string, role = 'admin') =>
  post('/api/login', { username, password, role });

/** The token of the newest reset mail sent to `email`, read from the queued message. */
const resetToken = (email: string) => tokenFromMail(t, email, 'password_reset');

const counts = async () => ({
  mails: await t.db.mailJob.count(),
  tokens: await t.db.userToken.count(),
  audits: await t.db.auditEvent.count(),
});

describe('POST /account/password/email and GET /account/forgot-password/{email}', () => {
  it('queues a reset mail with a link for an active user; only the hash of the token is stored', async () => {
    const user = await createUser(t.db, { accessType: 'Auditor' });
    const res = await requestReset(user.email.toUpperCase());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: SENT, data: null });
    const mail = await t.db.mailJob.findFirstOrThrow({ where: { to: user.email } });
    expect(mail).toMatchObject({ kind: 'password_reset', status: expect.any(String) });
    expect(mail.subject).toContain('password');
    const token = await resetToken(user.email);
    expect(token).toMatch(/^[\w-]{40,}$/);
    const row = await t.db.userToken.findFirstOrThrow({ where: { userId: user.id } });
    expect(row.purpose).toBe('password_reset');
    expect(row.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBeGreaterThan(59 * 60_000);
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBeLessThanOrEqual(61 * 60_000);
    const events = await t.db.auditEvent.findMany({ where: { targetId: String(user.id) } });
    expect(events.map((e) => e.action)).toContain('password.reset_requested');
    expect(JSON.stringify(events.map((e) => [e.message, e.details]))).not.toContain(token);
  });

  it('GET /account/forgot-password/{email} does the same', async () => {
    const user = await createUser(t.db);
    const res = await t.app.inject({
      method: 'GET',
      url: `/account/forgot-password/${encodeURIComponent(user.email)}`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(SENT);
    await t.settle();
    expect(await resetToken(user.email)).toBeTruthy();
  });

  it.each([
    ['POST /account/password/email', (email: string) => post('/account/password/email', { email })],
    [
      'GET /account/forgot-password/{email}',
      (email: string) => t.app.inject({ method: 'GET', url: `/account/forgot-password/${email}` }),
    ],
  ])(
    '%s answers a known address before any of its mail work (same time as an unknown one)',
    async (_, ask) => {
      // With the link and mail tables locked, work done before the answer would hold it back
      // (and the answer would take longer for a known address than for an unknown one).
      const user = await createUser(t.db);
      let answeredWhileLocked = false;
      await t.db.$transaction(
        async (tx) => {
          await tx.$executeRaw`LOCK TABLE user_tokens, mail_jobs IN EXCLUSIVE MODE`;
          const answer = await Promise.race([
            ask(user.email),
            new Promise<null>((resolve) => setTimeout(() => resolve(null), 5000)),
          ]);
          answeredWhileLocked = answer !== null && answer.statusCode === 200;
          expect(answer?.json()).toEqual({ message: SENT, data: null });
        },
        { timeout: 20_000 },
      );
      expect(answeredWhileLocked).toBe(true);
      // The work ran after the answer, once the tables were free again.
      await t.settle();
      expect(await resetToken(user.email)).toMatch(/^[\w-]{40,}$/);
    },
  );

  it('keeps a name with line breaks (from older data) on one quoted line of the mail', async () => {
    const user = await createUser(t.db, {
      firstName: 'Ann\r\n\r\nYour account is locked. Visit https://evil.example/unlock',
      lastName: 'Lee',
    });
    await requestReset(user.email);
    const mail = await t.db.mailJob.findFirstOrThrow({ where: { to: user.email } });
    const line = mail.text.split('\n').find((l) => l.includes('Ann'));
    expect(line).toMatch(
      /^Someone \(hopefully you\) asked to reset the password of the Quire account "Ann Your account is locked\. Visit https:\/\/evil\.example\/unlo…"\.$/,
    );
    expect(mail.text.split('\n').filter((l) => l.includes('evil.example'))).toHaveLength(1);
  });

  it('answers an unknown or inactive address exactly like a known one, and sends nothing', async () => {
    const inactive = await createUser(t.db, { status: 'deactivated' });
    const known = await createUser(t.db);
    const before = await t.db.mailJob.count();
    const answers = [];
    for (const email of ['nobody@example.test', inactive.email]) {
      answers.push(await requestReset(email));
      answers.push(await t.app.inject({ method: 'GET', url: `/account/forgot-password/${email}` }));
    }
    await t.settle();
    expect(await t.db.mailJob.count()).toBe(before);
    const knownAnswer = await requestReset(known.email);
    for (const res of answers) {
      expect(res.statusCode).toBe(knownAnswer.statusCode);
      expect(res.json()).toEqual(knownAnswer.json());
    }
  });

  it('answers a malformed address with 400 naming the field, and writes nothing', async () => {
    const before = await counts();
    const res = await requestReset('not-an-email');
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].path).toBe('body.email');
    const get = await t.app.inject({ method: 'GET', url: '/account/forgot-password/not-an-email' });
    expect(get.statusCode).toBe(400);
    expect(get.json().errors[0].path).toBe('params.email');
    expect(await counts()).toEqual(before);
  });

  it('a newer link replaces the earlier one', async () => {
    const user = await createUser(t.db);
    await requestReset(user.email);
    const first = await resetToken(user.email);
    await requestReset(user.email);
    const second = await resetToken(user.email);
    expect(second).not.toBe(first);
    expect(
      (await post('/account/password/verify-token', { email: user.email, token: first })).statusCode,
    ).toBe(400);
    expect(
      (await post('/account/password/verify-token', { email: user.email, token: second })).statusCode,
    ).toBe(200);
  });

  it('limits requests per address and e-mail (429 past 5 a minute)', async () => {
    const email = 'flood@example.test';
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await requestReset(email)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});

describe('POST /account/password/verify-token', () => {
  it('says a fresh link is valid, and refuses a wrong e-mail, a made-up token and an expired link alike', async () => {
    const user = await createUser(t.db);
    const other = await createUser(t.db);
    await requestReset(user.email);
    const token = await resetToken(user.email);
    const ok = await post('/account/password/verify-token', { email: user.email, token });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data).toEqual({ valid: true });

    for (const payload of [
      { email: other.email, token },
      { email: user.email, token: 'made-up-token' },
    ]) {
      const res = await post('/account/password/verify-token', payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(INVALID);
    }
    await t.db.userToken.updateMany({
      where: { userId: user.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const expired = await post('/account/password/verify-token', { email: user.email, token });
    expect(expired.statusCode).toBe(400);
    expect(expired.json().message).toBe(INVALID);
  });

  it('answers a missing token with 400 naming the field', async () => {
    const res = await post('/account/password/verify-token', { email: 'a@example.test' });
    expect(res.statusCode).toBe(400);
    expect(errorPaths(res)).toEqual(['body.token']);
  });
});

describe('POST /account/reset-password', () => {
  it('sets the new password, spends the link, and ends every session of the user', async () => {
    const user = await person(t, { accessType: 'COMPANY ADMIN' });
    const oldSession = user.token;
    await requestReset(user.email);
    const token = await resetToken(user.email);

    const res = await post('/account/reset-password', { email: user.email, token, password: NEW_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toContain('password has been reset');

    expect((await checkSession(oldSession)).statusCode).toBe(401);
    expect((await login(user.username, TEST_PASSWORD)).statusCode).toBe(401);
    expect((await login(user.username, NEW_PASSWORD)).statusCode).toBe(200);
    const row = await t.db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.passwordChangedAt).toBeInstanceOf(Date);

    // Single use.
    const again = await post('/account/reset-password', {
      email: user.email,
      token,
      password: 'Another-Fine-Phrase-7',
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(INVALID);
    expect((await post('/account/password/verify-token', { email: user.email, token })).statusCode).toBe(400);

    const events = await t.db.auditEvent.findMany({ where: { targetId: String(user.id) } });
    expect(events.map((e) => e.action)).toContain('password.reset');
    const written = JSON.stringify(events.map((e) => [e.message, e.details]));
    expect(written).not.toContain(NEW_PASSWORD);
    expect(written).not.toContain(token);
  });

  it('refuses a password the policy does not allow with 400 naming body.password, and changes nothing', async () => {
    const user = await createUser(t.db);
    await requestReset(user.email);
    const token = await resetToken(user.email);
    const hash = (await t.db.user.findUniqueOrThrow({ where: { id: user.id } })).passwordHash;
    for (const password of ['short', 'password123', `${user.username}-is-me`]) {
      const res = await post('/account/reset-password', { email: user.email, token, password });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors[0].path).toBe('body.password');
    }
    expect((await t.db.user.findUniqueOrThrow({ where: { id: user.id } })).passwordHash).toBe(hash);
    expect((await t.db.userToken.findFirstOrThrow({ where: { userId: user.id } })).usedAt).toBeNull();
  });

  it('refuses an expired link, a wrong e-mail and a missing field', async () => {
    const user = await createUser(t.db);
    await requestReset(user.email);
    const token = await resetToken(user.email);
    const wrong = await post('/account/reset-password', {
      email: 'x@example.test',
      token,
      password: NEW_PASSWORD,
    });
    expect(wrong.statusCode).toBe(400);
    await t.db.userToken.updateMany({
      where: { userId: user.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const expired = await post('/account/reset-password', {
      email: user.email,
      token,
      password: NEW_PASSWORD,
    });
    expect(expired.statusCode).toBe(400);
    expect(expired.json().message).toBe(INVALID);
    const missing = await post('/account/reset-password', { email: user.email, token });
    expect(missing.json().errors[0].path).toBe('body.password');
    expect((await login(user.username, TEST_PASSWORD, 'user')).statusCode).toBe(200);
  });
});

describe('PUT /account/updatepassword', () => {
  const update = (token: string | undefined, payload: object) =>
    t.app.inject({
      method: 'PUT',
      url: '/account/updatepassword',
      payload,
      headers: token ? bearer(token) : {},
    });

  it("changes the password and ends the user's other sessions, not this one", async () => {
    const user = await person(t, { accessType: 'Auditor' });
    const { token } = user;
    const other = await loginAs(t.app, user, 'user');
    const res = await update(token, {
      current_password: TEST_PASSWORD,
      new_password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Your password has been changed');
    expect((await checkSession(token)).statusCode).toBe(200);
    expect((await checkSession(other)).statusCode).toBe(401);
    expect((await login(user.username, NEW_PASSWORD)).statusCode).toBe(200);
    const events = await t.db.auditEvent.findMany({ where: { targetId: String(user.id) } });
    expect(events.map((e) => e.action)).toContain('password.changed');
    expect(JSON.stringify(events.map((e) => [e.message, e.details]))).not.toContain(NEW_PASSWORD);
  });

  it.each([
    [{ current_password: TEST_PASSWORD, new_password: 'short' }, 'body.new_password'],
    [{ current_password: TEST_PASSWORD, new_password: TEST_PASSWORD }, 'body.new_password'],
    [
      { current_password: TEST_PASSWORD, new_password: NEW_PASSWORD, password_confirmation: 'other' },
      'body.password_confirmation',
    ],
    [{ new_password: NEW_PASSWORD }, 'body.current_password'],
  ])('answers %j with 400 naming %s, and changes nothing', async (payload, path) => {
    const user = await person(t);
    const { token } = user;
    const before = await counts();
    const res = await update(token, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].path).toBe(path);
    expect(await counts()).toEqual(before);
    expect((await login(user.username, TEST_PASSWORD, 'user')).statusCode).toBe(200);
  });

  it('refuses a wrong current password with 400 naming it, changes nothing, and records the failure', async () => {
    const user = await person(t);
    const { token } = user;
    const before = await counts();
    const res = await update(token, { current_password: 'wrong-password', new_password: NEW_PASSWORD });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      { path: 'body.current_password', message: 'The current password is not correct' },
    ]);
    expect(await counts()).toEqual({ ...before, audits: before.audits + 1 });
    const event = await t.db.auditEvent.findFirstOrThrow({
      where: { action: 'password.check_failed', userId: user.id },
    });
    expect(event.details).toMatchObject({ username: user.username });
    expect((await login(user.username, TEST_PASSWORD, 'user')).statusCode).toBe(200);
  });

  it('counts wrong current passwords like failed sign-ins: a stolen session cannot keep guessing', async () => {
    const user = await person(t);
    const { token } = user;
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await update(token, { current_password: `guess-${i}-wrong`, new_password: NEW_PASSWORD });
      statuses.push(res.statusCode);
    }
    // Five free failures, then the account waits: the next guesses are not even looked at.
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429, 429]);
    const waiting = await update(token, { current_password: TEST_PASSWORD, new_password: NEW_PASSWORD });
    expect(waiting.statusCode).toBe(429);
    expect(waiting.json().code).toBe('auth.sign_in_delayed');
    // The same count slows signing in to that account.
    expect((await login(user.username, TEST_PASSWORD, 'user')).statusCode).toBe(429);
  });

  it('refuses a caller without a token', async () => {
    const res = await update(undefined, { current_password: TEST_PASSWORD, new_password: NEW_PASSWORD });
    expect(res.statusCode).toBe(401);
  });
});
