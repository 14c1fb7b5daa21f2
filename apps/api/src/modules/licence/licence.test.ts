import { createHash, generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs } from '../../../test/access.js';
import type { TestContext } from '../../../test/app.js';
import { bearer, createCategory, loginAs, TEST_PASSWORD } from '../../../test/factories.js';
import { multipart } from '../../../test/multipart.js';
import { person, type SeededUser, seededApp } from '../../../test/seed.js';
import { type LicencePayload, signLicence } from './licence.document.js';
import { LICENCE_READ_MS } from './licence.service.js';

// The tests make their own vendor key pair; the app checks licences against its public key
// (LICENCE_PUBLIC_KEY), as a real install checks them against the shipped one.
const keys = () => {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
};
const vendorKeys = keys();
const otherKeys = keys();

const START = new Date('2026-06-01T12:00:00.000Z');
let clock = START;
let t: TestContext;
let vendorAdmin: SeededUser;
let vendor: string;
let companyAdmin: string;

const payload = (o: Partial<LicencePayload> = {}): LicencePayload => ({
  v: 1,
  licensee: 'Acme Ltd',
  seats: 100,
  starts_at: '2026-01-01T00:00:00.000Z',
  expires_at: '2026-12-31T23:59:59.000Z',
  features: ['ldap', 'backups'],
  ...o,
});
const issue = (o: Partial<LicencePayload> = {}, privatePem = vendorKeys.privatePem) =>
  signLicence(payload(o), privatePem);

const install = (token: string | null, licence: string) =>
  callAs(t, token, { method: 'POST', url: '/api/controlpanel/license-management', payload: { licence } });
const state = (token: string | null) =>
  callAs(t, token, { method: 'GET', url: '/api/controlpanel/license-management' });
const licenceCount = () => t.db.licence.count();

async function activeSeats() {
  return t.db.user.count({ where: { status: 'active', accessType: { not: 'VENDOR_ADMIN' } } });
}

beforeAll(async () => {
  // Sessions carry the database's creation time: let them live through the clock's jumps.
  const world = await seededApp(
    {
      users: { vendorAdmin: { accessType: 'DATAMAX ADMIN' }, companyAdmin: { accessType: 'COMPANY ADMIN' } },
    },
    { LICENCE_PUBLIC_KEY: vendorKeys.publicPem, SESSION_MAX_HOURS: '8760' },
    { now: () => clock },
  );
  ({
    t,
    users: { vendorAdmin },
  } = world);
  vendor = vendorAdmin.token;
  companyAdmin = world.users.companyAdmin.token;
});
afterAll(() => t.close());

describe('licence management', () => {
  it('is the vendor admin’s only: anonymous 401, everyone else 403 (audited)', async () => {
    const { token: staff } = await person(t, { accessType: 'General staff' });
    expect((await state(null)).statusCode).toBe(401);
    for (const token of [companyAdmin, staff]) {
      expect((await state(token)).statusCode).toBe(403);
      const res = await install(token, issue());
      expect(res.statusCode).toBe(403);
    }
    expect(await licenceCount()).toBe(0);
    const refusals = await t.db.auditEvent.count({
      where: { action: 'access.denied', message: { contains: 'license-management' } },
    });
    expect(refusals).toBeGreaterThanOrEqual(4);
  });

  it('shows no licence and no limits before one is installed', async () => {
    const res = await state(vendor);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      licence: null,
      seats_used: await activeSeats(),
      days_left: null,
      read_only: false,
      problem: null,
    });
  });

  it('refuses a forged, an altered and a malformed licence, storing nothing', async () => {
    const forged = issue({}, otherKeys.privatePem);
    const [prefix, body, signature] = issue().split('.');
    const altered = [
      prefix,
      Buffer.from(JSON.stringify(payload({ seats: 100000 }))).toString('base64url'),
      signature,
    ].join('.');
    // One bit of the signature flipped (never a no-op, whatever the random key made it).
    const bytes = Buffer.from(signature!, 'base64url');
    bytes[0] = bytes[0]! ^ 1;
    const flipped = `${prefix}.${body}.${bytes.toString('base64url')}`;
    for (const [name, text, words] of [
      ['forged', forged, /altered or not issued by the vendor/],
      ['altered', altered, /altered or not issued by the vendor/],
      ['bad signature', flipped, /altered or not issued by the vendor/],
      ['not a licence', 'hello world', /not a Quire licence/],
    ] as const) {
      const res = await install(vendor, text);
      expect(`${name} ${res.statusCode}`).toBe(`${name} 400`);
      expect(res.json()).toMatchObject({ code: 'licence.invalid', errors: [{ path: 'body.licence' }] });
      expect(res.json().message).toMatch(words);
    }
    const empty = await install(vendor, '');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors[0].path).toBe('body.licence');
    expect(await licenceCount()).toBe(0);
    expect(await t.db.auditEvent.count({ where: { action: 'licence.refused' } })).toBe(4);
  });

  it('refuses a licence that has already expired', async () => {
    const res = await install(vendor, issue({ expires_at: '2026-05-31T00:00:00.000Z' }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'licence.already_expired',
      errors: [
        {
          path: 'body.licence',
          message: 'This licence expired on 2026-05-31. Ask the vendor for a current one.',
        },
      ],
    });
    expect(await licenceCount()).toBe(0);
  });

  it('installs a signed licence and shows its terms, seats used and days left', async () => {
    const res = await install(vendor, issue());
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      licence: {
        licensee: 'Acme Ltd',
        seats: 100,
        expires_at: '2026-12-31T23:59:59.000Z',
        features: ['ldap', 'backups'],
      },
      seats_used: await activeSeats(),
      days_left: 213,
      read_only: false,
    });
    const again = await install(vendor, issue());
    expect(again.statusCode).toBe(409);
    expect(await t.db.auditEvent.count({ where: { action: 'licence.installed' } })).toBe(1);
  });

  it('counts seats when users are created and activated, with a clear refusal at the limit', async () => {
    const used = await activeSeats();
    const res = await install(vendor, issue({ seats: used + 1, licensee: 'Small Co' }));
    expect(res.statusCode).toBe(200);
    // The old licence is kept, marked replaced.
    expect(await t.db.licence.count({ where: { replacedAt: { not: null } } })).toBe(1);
    const create = (username: string) =>
      callAs(t, companyAdmin, {
        method: 'POST',
        url: '/api/users/createUser',
        payload: {
          username,
          email: `${username}@example.test`,
          first_name: 'Seat',
          last_name: 'Holder',
          password: 'Quiet-Lantern-River-8',
          role: 'user',
          access_type: 'General staff',
        },
      });
    expect((await create('seat.one')).statusCode).toBe(200);
    const refused = await create('seat.two');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'licence.seats_exhausted' });
    expect(refused.json().message).toMatch(/allows \d+ active users/);
    expect(await t.db.user.count({ where: { username: 'seat.two' } })).toBe(0);

    const sleeper = await person(t, { status: 'deactivated', signIn: false });
    const activate = await callAs(t, companyAdmin, {
      method: 'PUT',
      url: '/api/activate_user',
      payload: { id: sleeper.id },
    });
    expect(activate.statusCode).toBe(409);
    expect(activate.json().code).toBe('licence.seats_exhausted');
    expect((await t.db.user.findUniqueOrThrow({ where: { id: sleeper.id } })).status).toBe('deactivated');

    // The vendor admin takes no seat; the count shows on the licence screen.
    expect((await state(vendor)).json().data.seats_used).toBe(used + 1);
  });

  it('after expiry: sign-in, reads and downloads work, writes are refused with one message, nothing is deleted', async () => {
    const users = await t.db.user.count();
    clock = new Date('2027-01-02T09:00:00.000Z');
    const admin = await person(t, { accessType: 'COMPANY ADMIN' });
    const { token } = admin; // sign-in works
    const list = await callAs(t, token, { method: 'GET', url: '/api/users/all' });
    expect(list.statusCode).toBe(200);
    // Searching is a read, though the spec sends its filters as a POST body.
    const search = await callAs(t, token, { method: 'POST', url: '/api/filter-files', payload: {} });
    expect(search.statusCode).toBe(200);
    const write = await callAs(t, token, {
      method: 'POST',
      url: '/api/create_group',
      payload: { name: 'After expiry', description: '' },
    });
    expect(write.statusCode).toBe(403);
    expect(write.json()).toMatchObject({ code: 'licence.expired' });
    expect(write.json().message).toMatch(/expired on 2026-12-31.*read-only.*sign in, view and download/);
    expect(await t.db.group.count({ where: { name: 'After expiry' } })).toBe(0);
    // An upload is refused alike, whatever its category (one that is not there too: the
    // licence answers first), and nothing of its file is kept.
    const category = await createCategory(t.db);
    for (const folderId of [category.id, 999_999]) {
      const content = Buffer.from(`uploaded after expiry into ${folderId}`);
      const form = multipart({ folder_id: String(folderId), file: { content, filename: 'late.txt' } });
      const upload = await t.app.inject({
        method: 'POST',
        url: '/api/new-upload',
        headers: { ...bearer(token), ...form.headers },
        payload: form.payload,
      });
      expect(upload.statusCode).toBe(403);
      expect(upload.json()).toMatchObject({ code: 'licence.expired' });
      expect(await t.app.deps.blobs.exists(createHash('sha256').update(content).digest('hex'))).toBe(false);
    }
    expect(await t.db.file.count({ where: { categoryId: category.id } })).toBe(0);
    expect((await state(vendor)).statusCode).toBe(401); // the vendor's session ran out meanwhile
    const vendorAgain = await loginAs(t.app, vendorAdmin, 'admin', TEST_PASSWORD);
    const s = (await state(vendorAgain)).json().data;
    expect(s).toMatchObject({ read_only: true, days_left: -2 });
    // Nothing was deleted; sign-out still works.
    expect(await t.db.user.count()).toBe(users + 1);
    expect((await callAs(t, token, { method: 'POST', url: '/api/logout' })).statusCode).toBe(200);

    // A new licence lifts it at once.
    const renewed = await install(
      vendorAgain,
      issue({ licensee: 'Acme Ltd', seats: 1000, expires_at: '2028-01-01T00:00:00.000Z' }),
    );
    expect(renewed.statusCode).toBe(200);
    const token2 = await loginAs(t.app, admin);
    const ok = await callAs(t, token2, {
      method: 'POST',
      url: '/api/create_group',
      payload: { name: 'After renewal', description: '' },
    });
    expect(ok.statusCode).toBe(200);
  });

  it('a licence row that was not installed (database edit, restored backup) is not honoured', async () => {
    const vendorToken = await loginAs(t.app, vendorAdmin, 'admin');
    // Columns edited beside a genuine document: the terms shown are the document's.
    const current = await t.db.licence.findFirstOrThrow({ where: { replacedAt: null } });
    await t.db.licence.update({
      where: { id: current.id },
      data: { seats: 100000, expiresAt: new Date('2099-12-31T00:00:00.000Z') },
    });
    expect((await state(vendorToken)).json().data.licence).toMatchObject({
      seats: 1000,
      expires_at: '2028-01-01T00:00:00.000Z',
    });

    // A forged document (not the vendor's key), 100,000 seats to 2099, put straight in the table.
    const forged = issue(
      { licensee: 'Forger', seats: 100000, expires_at: '2099-12-31T00:00:00.000Z' },
      otherKeys.privatePem,
    );
    await t.db.licence.updateMany({ where: { replacedAt: null }, data: { replacedAt: clock } });
    await t.db.licence.create({
      data: {
        document: forged,
        documentSha256: 'f'.repeat(64),
        licensee: 'Forger',
        seats: 100000,
        startsAt: new Date('2026-01-01T00:00:00.000Z'),
        expiresAt: new Date('2099-12-31T00:00:00.000Z'),
        features: [],
        installedAt: clock,
      },
    });
    const s = (await state(vendorToken)).json().data;
    expect(s).toMatchObject({ licence: null, read_only: true, days_left: null });
    expect(s.problem).toMatch(
      /installed licence is not valid.*altered or not issued by the vendor.*read-only/,
    );
    // The write gate keeps its read of the row for up to LICENCE_READ_MS (one read serves every
    // write in that time): a row put in by hand holds once that has passed.
    await new Promise((resolve) => setTimeout(resolve, LICENCE_READ_MS));
    const { token: admin } = await person(t, { accessType: 'COMPANY ADMIN' });
    const write = await callAs(t, admin, {
      method: 'POST',
      url: '/api/create_group',
      payload: { name: 'Under a forged licence', description: '' },
    });
    expect(write.statusCode).toBe(403);
    expect(write.json()).toMatchObject({ code: 'licence.not_valid' });
    expect(await t.db.group.count({ where: { name: 'Under a forged licence' } })).toBe(0);

    // Installing a genuine licence puts it right.
    const genuine = await install(
      vendorToken,
      issue({ licensee: 'Acme Ltd', seats: 500, expires_at: '2028-06-01T00:00:00.000Z' }),
    );
    expect(genuine.statusCode).toBe(200);
    expect(genuine.json().data).toMatchObject({ read_only: false, problem: null, licence: { seats: 500 } });
  });
});
