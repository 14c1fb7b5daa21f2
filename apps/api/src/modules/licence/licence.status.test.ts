import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs, expectAccess, readCase, SETTINGS_CALLERS } from '../../../test/access.js';
import type { TestContext } from '../../../test/app.js';
import { seededApp } from '../../../test/seed.js';
import { signLicence } from './licence.document.js';

// GET /api/licence/status: the Company Admin (and the Settings readers) see the licence's
// state read only — who it is for, the seats used of the seats bought, and when it ends —
// while installing one stays the vendor admin's.

const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const vendorKey = {
  publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
};
const NOW = new Date('2026-06-01T12:00:00.000Z');

let t: TestContext;
let vendor: string;
let companyAdmin: string;
beforeAll(async () => {
  const world = await seededApp(
    { users: { vendor: { accessType: 'DATAMAX ADMIN' }, companyAdmin: { accessType: 'COMPANY ADMIN' } } },
    { LICENCE_PUBLIC_KEY: vendorKey.publicPem, SESSION_MAX_HOURS: '8760' },
    { now: () => NOW },
  );
  t = world.t;
  vendor = world.users.vendor.token;
  companyAdmin = world.users.companyAdmin.token;
});
afterAll(() => t.close());

const status = (token: string | null) => callAs(t, token, { method: 'GET', url: '/api/licence/status' });
const activeSeats = () =>
  t.db.user.count({ where: { status: 'active', accessType: { not: 'VENDOR_ADMIN' } } });

describe('GET /api/licence/status', () => {
  it('tells the Company Admin there is no licence (no limits), then the installed one with its seats', async () => {
    const none = await status(companyAdmin);
    expect(none.statusCode).toBe(200);
    expect(none.json().data).toMatchObject({
      licence: null,
      seats_used: await activeSeats(),
      days_left: null,
      read_only: false,
    });

    const licence = signLicence(
      {
        v: 1,
        licensee: 'Acme Ltd',
        seats: 25,
        starts_at: '2026-01-01T00:00:00.000Z',
        expires_at: '2026-07-01T12:00:00.000Z',
        features: [],
      },
      vendorKey.privatePem,
    );
    const installed = await callAs(t, vendor, {
      method: 'POST',
      url: '/api/controlpanel/license-management',
      payload: { licence },
    });
    expect(installed.statusCode, installed.body).toBe(200);
    const res = await status(companyAdmin);
    expect(res.json().data).toMatchObject({
      licence: { licensee: 'Acme Ltd', seats: 25, expires_at: '2026-07-01T12:00:00.000Z' },
      seats_used: await activeSeats(),
      days_left: 30,
      read_only: false,
    });
  });

  it.each(SETTINGS_CALLERS)('as %s', (...caller) =>
    expectAccess(t, caller, [readCase('/api/licence/status')], async () => t.db.licence.count()),
  );
});
