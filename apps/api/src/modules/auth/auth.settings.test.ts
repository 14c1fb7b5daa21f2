import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs, expectAccess, readCase, SETTINGS_CALLERS, writeCase } from '../../../test/access.js';
import type { TestContext } from '../../../test/app.js';
import { createUser } from '../../../test/factories.js';
import { adminApp, seed } from '../../../test/seed.js';

let t: TestContext;
let admin: string;
beforeAll(async () => {
  ({
    t,
    admin: { token: admin },
  } = await adminApp('User Administration Admin'));
});
afterAll(() => t.close());

const put = (token: string | null, payload: unknown) =>
  callAs(t, token, { method: 'PUT', url: '/api/sign-in-settings', payload: payload as object });

describe('sign-in settings', () => {
  it('are off by default, and an admin turns self-registration on so people can register', async () => {
    const read = await callAs(t, admin, { method: 'GET', url: '/api/sign-in-settings' });
    expect(read.json().data).toEqual({ require_2fa: false, self_registration: false });
    const closed = await t.app.inject({
      method: 'POST',
      url: '/account/register',
      payload: { username: 'newbie', email: 'newbie@example.test', password: 'Violet-Harbour-Tram-42' },
    });
    expect(closed.statusCode).toBe(403);

    const res = await put(admin, { self_registration: true });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ require_2fa: false, self_registration: true });
    const open = await t.app.inject({
      method: 'POST',
      url: '/account/register',
      payload: { username: 'newbie', email: 'newbie@example.test', password: 'Violet-Harbour-Tram-42' },
    });
    expect(open.statusCode).toBe(200);
    expect(
      await t.db.auditEvent.count({ where: { action: 'company.self_registration.on', type: 'settings' } }),
    ).toBe(1);
  });

  it('GET /account/registration tells anyone, with 200 and no refusal audited, whether registration is open', async () => {
    const company = await t.db.company.findFirstOrThrow();
    const refusals = () => t.db.auditEvent.count({ where: { action: 'access.denied' } });
    const before = await refusals();
    const ask = () => t.app.inject({ method: 'GET', url: '/account/registration' });
    await t.db.company.update({ where: { id: company.id }, data: { selfRegistration: false } });
    const closed = await ask();
    expect(closed.statusCode).toBe(200);
    expect(closed.json().data).toEqual({ open: false });
    await t.db.company.update({ where: { id: company.id }, data: { selfRegistration: true } });
    expect((await ask()).json().data).toEqual({ open: true });
    await t.db.company.update({
      where: { id: company.id },
      data: { selfRegistration: company.selfRegistration },
    });
    expect(await refusals()).toBe(before);
  });

  it('refuses to require 2FA from an admin without 2FA of their own', async () => {
    const res = await put(admin, { require_2fa: true });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toContain('your own account');
    expect((await t.db.company.findFirstOrThrow()).twoFactorRequired).toBe(false);
  });

  it('requiring 2FA puts every unverified session on hold, and the next login goes through 2FA', async () => {
    const { secured, bystander } = (
      await seed(t, {
        users: { secured: { accessType: 'COMPANY ADMIN' }, bystander: { accessType: 'Auditor' } },
      })
    ).users;
    const securedToken = secured.token;
    await t.db.user.update({ where: { id: secured.id }, data: { twoFactorEnabled: true } });
    await t.db.session.updateMany({ where: { userId: secured.id }, data: { twoFactorVerified: true } });

    const res = await put(securedToken, { require_2fa: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.require_2fa).toBe(true);
    const held = await callAs(t, bystander.token, { method: 'GET', url: '/api/sign-in-settings' });
    expect(held.statusCode).toBe(403);
    const user = await createUser(t.db, { accessType: 'General staff' });
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: user.username, password: 'Correct-Horse-Battery-9', role: 'user' },
    });
    expect(login.json().data.isCompany2FAEnabled).toBe(true);
    const token = login.json().data.access_token;
    const state = await callAs(t, token, { method: 'GET', url: '/api/check-session' });
    expect(state.json().data.twoFactorVerified).toBe(false);
    expect((await put(securedToken, { require_2fa: false })).statusCode).toBe(200);
  });

  it('answers an empty or wrong body with 400 and changes nothing', async () => {
    const before = await t.db.company.findFirstOrThrow();
    for (const body of [{}, { require_2fa: 'yes' }]) {
      const res = await put(admin, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().errors.length).toBeGreaterThan(0);
    }
    expect(await t.db.company.findFirstOrThrow()).toEqual(before);
  });

  const cases = [
    readCase('/api/sign-in-settings'),
    writeCase('PUT /api/sign-in-settings', async () => {
      const company = await t.db.company.findFirstOrThrow();
      return {
        method: 'PUT',
        url: '/api/sign-in-settings',
        payload: { self_registration: !company.selfRegistration },
      };
    }),
  ];
  const snapshot = async () => ({
    company: await t.db.company.findFirstOrThrow(),
    audits: await t.db.auditEvent.count({ where: { type: 'settings' } }),
  });
  it.each(SETTINGS_CALLERS)('as %s', (...caller) => expectAccess(t, caller, cases, snapshot));
});
