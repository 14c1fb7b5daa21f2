import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { bearer, createUser, ensureCompany } from '../../../test/factories.js';
import { tokenFromMail } from '../../../test/mail.js';
import { person } from '../../../test/seed.js';

const RESENT =
  'If an account waiting for verification exists for that address, we have sent a new verification link.';
const INVALID = 'This link is invalid or has expired';
const PASSWORD = 'Quiet-Lantern-River-8';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://quire.example.test' });
  await ensureCompany(t.db);
});
afterAll(() => t.close());

/** A call, then the work the app does after answering (registrations, mails). */
let caller = 0;
const post = async (url: string, payload: object, token?: string) => {
  // Each from an address of its own: registration allows 10 a minute per address.
  caller += 1;
  const res = await t.app.inject({
    method: 'POST',
    url,
    payload,
    headers: token ? bearer(token) : {},
    remoteAddress: `10.9.${Math.floor(caller / 250)}.${caller % 250}`,
  });
  await t.settle();
  return res;
};
const resend = async (email: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/account/resend-verification/${email}` });
  await t.settle();
  return res;
};
const REGISTERED = {
  message: 'Thank you. Check your e-mail for the link that activates your account.',
  data: null,
};
const setSelfRegistration = (on: boolean) => t.db.company.updateMany({ data: { selfRegistration: on } });
const counts = async () => ({
  users: await t.db.user.count(),
  mails: await t.db.mailJob.count(),
  tokens: await t.db.userToken.count(),
  audits: await t.db.auditEvent.count(),
  errors: await t.db.clientError.count(),
});

let seq = 0;
const newcomer = () => {
  seq += 1;
  return { username: `newcomer${seq}`, email: `newcomer${seq}@example.test`, password: PASSWORD };
};

/** The token of the newest verification mail sent to `email`. */
const verificationToken = (email: string) => tokenFromMail(t, email, 'email_verification');

describe('POST /account/register', () => {
  it('is refused with 403 while self-registration is off, and creates nothing', async () => {
    await setSelfRegistration(false);
    const before = await counts();
    const res = await post('/account/register', newcomer());
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(
      'Self-registration is turned off. Ask your administrator for an account.',
    );
    const after = await counts();
    expect({ ...after, audits: before.audits }).toEqual(before);
  });

  it('creates a deactivated General staff account and queues a verification mail; the link activates it', async () => {
    await setSelfRegistration(true);
    const who = { ...newcomer(), first_name: 'Nia', last_name: 'Okafor' };
    const res = await post('/account/register', { ...who, username: who.username.toUpperCase() });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(REGISTERED);
    const row = await t.db.user.findUniqueOrThrow({ where: { email: who.email } });
    expect(row).toMatchObject({
      username: who.username,
      firstName: 'Nia',
      lastName: 'Okafor',
      status: 'deactivated',
      accessType: 'GENERAL_STAFF',
      loginRole: 'user',
      emailVerifiedAt: null,
    });
    expect(row.passwordHash).not.toContain(PASSWORD);

    // Not yet: the account waits for its e-mail link, and the answer says so (after the right
    // password only; a wrong one is the usual 401).
    const early = await post('/api/login', { username: who.username, password: PASSWORD, role: 'user' });
    expect(early.statusCode).toBe(403);
    expect(early.json()).toMatchObject({
      code: 'auth.email_not_verified',
      message: 'Your e-mail address is not confirmed yet. Open the link we sent you, or ask for a new one.',
    });
    expect(
      (await post('/api/login', { username: who.username, password: 'Not-The-Password-1', role: 'user' }))
        .statusCode,
    ).toBe(401);

    const token = await verificationToken(who.email);
    const tokenRow = await t.db.userToken.findFirstOrThrow({ where: { userId: row.id } });
    expect(tokenRow.purpose).toBe('email_verification');
    expect(tokenRow.expiresAt.getTime() - tokenRow.createdAt.getTime()).toBeGreaterThan(23 * 3_600_000);

    const verified = await post('/account/verify-email', { email: who.email, token });
    expect(verified.statusCode).toBe(200);
    expect(verified.json().data).toEqual({ verified: true });
    const active = await t.db.user.findUniqueOrThrow({ where: { id: row.id } });
    expect(active.status).toBe('active');
    expect(active.emailVerifiedAt).toBeInstanceOf(Date);
    expect(
      (await post('/api/login', { username: who.username, password: PASSWORD, role: 'user' })).statusCode,
    ).toBe(200);

    // The link works once.
    const again = await post('/account/verify-email', { email: who.email, token });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(INVALID);
    const events = await t.db.auditEvent.findMany({ where: { targetId: String(row.id) } });
    expect(events.map((e) => e.action)).toEqual(
      expect.arrayContaining(['user.registered', 'user.email_verified']),
    );
    expect(JSON.stringify(events.map((e) => [e.message, e.details]))).not.toContain(token);
  });

  it('answers a taken username with 400 naming the field, and creates nothing', async () => {
    await setSelfRegistration(true);
    const existing = await createUser(t.db);
    const before = await counts();
    const byName = await post('/account/register', { ...newcomer(), username: existing.username });
    expect(byName.statusCode).toBe(400);
    expect(byName.json().errors).toEqual([{ path: 'body.username', message: 'This username is taken' }]);
    expect(await counts()).toEqual(before);
  });

  it('answers a taken e-mail exactly as a free one, creates no account, and mails the owner instead', async () => {
    await setSelfRegistration(true);
    const owner = await createUser(t.db);
    const users = await t.db.user.count();
    const taken = await post('/account/register', { ...newcomer(), email: owner.email.toUpperCase() });
    const free = await post('/account/register', newcomer());
    expect([taken.statusCode, taken.json()]).toEqual([free.statusCode, free.json()]);
    expect(taken.json()).toEqual(REGISTERED);
    expect(await t.db.user.count()).toBe(users + 1);
    const mail = await t.db.mailJob.findFirstOrThrow({ where: { to: owner.email }, orderBy: { id: 'desc' } });
    expect(mail.kind).toBe('account_exists');
    expect(mail.text).toContain('already has an account');
    expect(mail.text).toContain('https://quire.example.test/forgot-password');
    expect(
      await t.db.auditEvent.count({
        where: { action: 'user.registration_for_taken_email', targetId: String(owner.id) },
      }),
    ).toBe(1);
  });

  it('sends a new link when the taken e-mail belongs to an account still waiting for its link', async () => {
    await setSelfRegistration(true);
    const who = newcomer();
    await post('/account/register', who);
    const first = await verificationToken(who.email);
    const again = await post('/account/register', { ...newcomer(), email: who.email });
    expect(again.json()).toEqual(REGISTERED);
    const second = await verificationToken(who.email);
    expect(second).not.toBe(first);
    expect(await t.db.user.count({ where: { email: who.email } })).toBe(1);
  });

  it('keeps what a person typed out of the verification mail: it can reach any address', async () => {
    await setSelfRegistration(true);
    const who = { ...newcomer(), first_name: 'Prize winner', last_name: 'visit https://evil.example' };
    expect((await post('/account/register', who)).statusCode).toBe(200);
    const mail = await t.db.mailJob.findFirstOrThrow({ where: { to: who.email } });
    expect(mail.text).not.toContain('evil.example');
    expect(mail.text).not.toContain('Prize');
    expect(mail.text).toContain(`"${who.username}"`);
    const lines = await post('/account/register', { ...newcomer(), first_name: 'Nia\nClick here' });
    expect(lines.statusCode).toBe(400);
    expect(lines.json().errors).toEqual([
      { path: 'body.first_name', message: 'Use a single line, without line breaks' },
    ]);
  });

  it.each([
    [{ password: 'short' }, 'body.password'],
    [{ password: 'password123' }, 'body.password'],
    [{ email: 'not-an-email' }, 'body.email'],
    [{ username: 'x' }, 'body.username'],
    [{ username: 'has spaces' }, 'body.username'],
  ])('answers %j with 400 naming %s, and creates nothing', async (change, path) => {
    await setSelfRegistration(true);
    const before = await counts();
    const res = await post('/account/register', { ...newcomer(), ...change });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].path).toBe(path);
    expect(await counts()).toEqual(before);
  });
});

describe('POST /account/verify-email', () => {
  it('refuses a made-up token, a wrong e-mail and an expired link alike', async () => {
    await setSelfRegistration(true);
    const who = newcomer();
    await post('/account/register', who);
    const token = await verificationToken(who.email);
    for (const payload of [
      { email: who.email, token: 'made-up' },
      { email: 'other@example.test', token },
    ]) {
      const res = await post('/account/verify-email', payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(INVALID);
    }
    await t.db.userToken.updateMany({
      where: { user: { email: who.email } },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect((await post('/account/verify-email', { email: who.email, token })).statusCode).toBe(400);
    expect((await t.db.user.findUniqueOrThrow({ where: { email: who.email } })).status).toBe('deactivated');
  });

  it('does not activate an account an administrator deactivated', async () => {
    const user = await createUser(t.db, { status: 'deactivated' });
    const res = await resend(user.email);
    expect(res.statusCode).toBe(200);
    expect(await t.db.mailJob.count({ where: { to: user.email } })).toBe(0);
  });
});

describe('GET /account/resend-verification/{email}', () => {
  it('sends a new link for an account waiting for verification; the old link stops working', async () => {
    await setSelfRegistration(true);
    const who = newcomer();
    await post('/account/register', who);
    const first = await verificationToken(who.email);
    const res = await resend(who.email);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: RESENT, data: null });
    const second = await verificationToken(who.email);
    expect(second).not.toBe(first);
    expect((await post('/account/verify-email', { email: who.email, token: first })).statusCode).toBe(400);
    expect((await post('/account/verify-email', { email: who.email, token: second })).statusCode).toBe(200);
  });

  it('does not let an account an admin activated and then deactivated reactivate itself', async () => {
    await setSelfRegistration(true);
    const who = newcomer();
    await post('/account/register', who);
    const oldToken = await verificationToken(who.email);
    const row = await t.db.user.findUniqueOrThrow({ where: { email: who.email } });
    const { token: admin } = await person(t, { accessType: 'COMPANY ADMIN' });
    const put = (url: string) =>
      t.app.inject({ method: 'PUT', url, payload: { id: row.id }, headers: bearer(admin) });
    expect((await put('/api/activate_user')).statusCode).toBe(200);
    // The admin vouches for the address; the pending link is spent.
    expect((await t.db.user.findUniqueOrThrow({ where: { id: row.id } })).emailVerifiedAt).toBeInstanceOf(
      Date,
    );
    expect(await t.db.userToken.count({ where: { userId: row.id, usedAt: null } })).toBe(0);
    expect((await put('/api/deactivate_user')).statusCode).toBe(200);

    const mails = await t.db.mailJob.count({ where: { to: who.email } });
    const res = await resend(who.email);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: RESENT, data: null });
    expect(await t.db.mailJob.count({ where: { to: who.email } })).toBe(mails);

    const verify = await post('/account/verify-email', { email: who.email, token: oldToken });
    expect(verify.statusCode).toBe(400);
    expect(verify.json().message).toBe(INVALID);
    expect((await t.db.user.findUniqueOrThrow({ where: { id: row.id } })).status).toBe('deactivated');
  });

  it('answers an unknown or an active address the same way, and sends nothing', async () => {
    const active = await createUser(t.db);
    const before = await t.db.mailJob.count();
    for (const email of ['ghost@example.test', active.email]) {
      const res = await resend(email);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: RESENT, data: null });
    }
    expect(await t.db.mailJob.count()).toBe(before);
  });

  it('answers a malformed address with 400 naming the field', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/account/resend-verification/nope' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].path).toBe('params.email');
  });
});

describe('POST /account/email/is-valid', () => {
  it('tells whether an address is well-formed, and answers a taken one exactly as a free one', async () => {
    await setSelfRegistration(true);
    const user = await createUser(t.db);
    const check = async (email: string) => (await post('/account/email/is-valid', { email })).json();
    expect(await check('free.address@example.test')).toEqual({ data: { valid: true, available: true } });
    expect(await check(user.email.toUpperCase())).toEqual(await check('free.address@example.test'));
    expect(await check('not an address')).toEqual({ data: { valid: false, available: false } });
  });

  it('is refused with 403 while self-registration is off (it would only tell who has an account)', async () => {
    await setSelfRegistration(false);
    const user = await createUser(t.db);
    const res = await post('/account/email/is-valid', { email: user.email });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({
      message: 'Self-registration is turned off. Ask your administrator for an account.',
    });
    expect(res.json()).not.toHaveProperty('data');
    await setSelfRegistration(true);
  });

  it('answers a missing field with 400', async () => {
    const res = await post('/account/email/is-valid', {});
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].path).toBe('body.email');
  });
});

describe('POST /v1/log/error and GET /api/client-errors', () => {
  it('records an anonymous report with its message, page, browser and address', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/log/error',
      headers: { 'user-agent': 'TestBrowser/1.0', referer: 'https://quire.example.test/dashboard' },
      payload: { data: { message: 'Loading chunk failed', stack: 'at x', access_token: 'leaked-token' } },
    });
    expect(res.statusCode).toBe(200);
    const row = await t.db.clientError.findFirstOrThrow({ orderBy: { id: 'desc' } });
    expect(row).toMatchObject({
      userId: null,
      message: 'Loading chunk failed',
      url: 'https://quire.example.test/dashboard',
      userAgent: 'TestBrowser/1.0',
      ip: '127.0.0.1',
    });
    expect(JSON.stringify(row.data)).not.toContain('leaked-token');
  });

  it('keeps no reset or verification token from a reported address, wherever it is', async () => {
    const link = 'https://quire.example.test/reset-password?token=live-reset-token&email=ann%40example.test';
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/log/error',
      headers: { referer: 'https://quire.example.test/verify-email?token=live-verify-token&email=x%40y.z' },
      payload: {
        data: {
          message: `Failed to load ${link}`,
          url: link,
          context: { href: `${link}#code=123456`, list: [`see ${link}`] },
        },
      },
    });
    expect(res.statusCode).toBe(200);
    const row = await t.db.clientError.findFirstOrThrow({ orderBy: { id: 'desc' } });
    const stored = JSON.stringify(row);
    expect(stored).not.toContain('live-reset-token');
    expect(stored).not.toContain('123456');
    expect(row.url).toBe(
      'https://quire.example.test/reset-password?token=%5Bredacted%5D&email=ann%40example.test',
    );
    expect(row.message).toContain('/reset-password?token=%5Bredacted%5D');
    // Without a url in the data, the page comes from the referer: redacted the same way.
    await t.app.inject({
      method: 'POST',
      url: '/v1/log/error',
      headers: { referer: 'https://quire.example.test/verify-email?token=live-verify-token&email=x%40y.z' },
      payload: { data: { message: 'boom' } },
    });
    const second = await t.db.clientError.findFirstOrThrow({ orderBy: { id: 'desc' } });
    expect(second.url).toBe('https://quire.example.test/verify-email?token=%5Bredacted%5D&email=x%40y.z');
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/client-errors',
      headers: bearer((await person(t, { accessType: 'Auditor' })).token),
    });
    expect(list.body).not.toContain('live-reset-token');
    expect(list.body).not.toContain('live-verify-token');
  });

  it('records the user when a valid token is sent, and a short string of non-object data', async () => {
    const user = await person(t);
    expect((await post('/v1/log/error', { data: 'TypeError: x is undefined' }, user.token)).statusCode).toBe(
      200,
    );
    const row = await t.db.clientError.findFirstOrThrow({ orderBy: { id: 'desc' } });
    expect(row).toMatchObject({ userId: user.id, message: 'TypeError: x is undefined' });
    expect((await post('/v1/log/error', { data: [1, 2, 3] })).statusCode).toBe(200);
    expect((await t.db.clientError.findFirstOrThrow({ orderBy: { id: 'desc' } })).message).toBe('[1,2,3]');
  });

  it('refuses a body over 16 KiB with 413 and a missing data with 400, and stores nothing', async () => {
    const before = await counts();
    const big = await post('/v1/log/error', { data: { message: 'x'.repeat(17 * 1024) } });
    expect(big.statusCode).toBe(413);
    const none = await post('/v1/log/error', {});
    expect(none.statusCode).toBe(400);
    expect(none.json().errors[0].path).toBe('body.data');
    expect(await counts()).toEqual(before);
  });

  it('lists the reports newest first, a page at a time, for Settings readers', async () => {
    for (const n of [1, 2, 3]) await post('/v1/log/error', { data: { message: `paged error ${n}` } });
    const { token } = await person(t, { accessType: 'Auditor' });
    const total = await t.db.clientError.count();
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/client-errors?page=1&quantity=2',
      headers: bearer(token),
    });
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data).toMatchObject({ page: 1, quantity: 2, total, last_page: Math.ceil(total / 2) });
    expect(data.items.map((i: { message: string }) => i.message)).toEqual(['paged error 3', 'paged error 2']);
    const all = await t.app.inject({ method: 'GET', url: '/api/client-errors', headers: bearer(token) });
    expect(all.json().data.quantity).toBe(20);
  });

  it('refuses the list without a token (401) and to General staff (403)', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/client-errors' })).statusCode).toBe(401);
    const { token } = await person(t);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/client-errors', headers: bearer(token) })).statusCode,
    ).toBe(403);
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/client-errors?page=0',
      headers: bearer((await person(t, { accessType: 'COMPANY ADMIN' })).token),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].path).toBe('query.page');
  });
});

describe('rate limits', () => {
  it('limits the address check (10 a minute) and error reports (30) per address, then 429', async () => {
    const limited = await createTestApp();
    try {
      await ensureCompany(limited.db);
      await limited.db.company.updateMany({ data: { selfRegistration: true } });
      for (const [url, payload, max] of [
        ['/account/email/is-valid', { email: 'a@example.test' }, 10],
        ['/v1/log/error', { data: 'boom' }, 30],
      ] as const) {
        const statuses: number[] = [];
        for (let i = 0; i <= max; i++)
          statuses.push((await limited.app.inject({ method: 'POST', url, payload })).statusCode);
        expect(statuses.slice(0, max).every((s) => s === 200)).toBe(true);
        expect(statuses[max]).toBe(429);
      }
      // Another e-mail from the same address is refused too: the limit guards the lookup.
      const other = await limited.app.inject({
        method: 'POST',
        url: '/account/email/is-valid',
        payload: { email: 'b@example.test' },
      });
      expect(other.statusCode).toBe(429);
    } finally {
      await limited.close();
    }
  });
});
