import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs, expectAccess, readCase, SETTINGS_CALLERS, writeCase } from '../../../test/access.js';
import type { TestContext } from '../../../test/app.js';
import { ensureCompany } from '../../../test/factories.js';
import { multipart, tinyJpegHead, tinyPng, tinyWebp } from '../../../test/multipart.js';
import { adminApp, person } from '../../../test/seed.js';

let t: TestContext;
let adminToken: string;

beforeAll(async () => {
  ({
    t,
    admin: { token: adminToken },
  } = await adminApp('COMPANY ADMIN'));
});
afterAll(() => t.close());

const asAdmin = (opts: InjectOptions) => callAs(t, adminToken, opts);
const image = (content: Buffer, filename = 'logo.png') =>
  multipart({ file: { content, filename, contentType: 'image/png' } });
const company = () => ensureCompany(t.db);
const counts = async () => {
  const c = await company();
  return {
    company: [c.name, c.address, c.phone, c.email, c.website, c.logoBlobId, c.backgroundBlobId],
    blobs: await t.db.blob.count(),
    audits: await t.db.auditEvent.count({ where: { type: 'setup' } }),
  };
};

/** Every file in the blob store (temp files included). */
async function storedFiles(): Promise<string[]> {
  const root = t.app.deps.config.storageDir;
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

describe('who may call the setup calls', () => {
  const cases = [
    readCase('/api/company_details', true),
    writeCase('PUT /api/company_details', () => ({
      method: 'PUT',
      url: '/api/company_details',
      payload: { phone: '+1 555 0100' },
    })),
    writeCase('POST /api/controlpanel/upload-logo', () => ({
      method: 'POST',
      url: '/api/controlpanel/upload-logo',
      ...image(tinyPng(3, 3)),
    })),
    writeCase('POST /api/controlpanel/upload-background', () => ({
      method: 'POST',
      url: '/api/controlpanel/upload-background',
      ...image(tinyPng(4, 4)),
    })),
  ];
  it.each(SETTINGS_CALLERS)('as %s', (...caller) => expectAccess(t, caller, cases, counts));

  it('lets anyone read the branding and the images (the login screen shows them)', async () => {
    await asAdmin({ method: 'POST', url: '/api/controlpanel/upload-logo', ...image(tinyPng(5, 5)) });
    const res = await t.app.inject({ method: 'GET', url: '/api/get_logo_and_expiry_date' });
    expect(res.statusCode).toBe(200);
    const logo = await t.app.inject({ method: 'GET', url: res.json().data.logo_url });
    expect(logo.statusCode).toBe(200);
  });
});

describe('GET /api/get_logo_and_expiry_date', () => {
  it('gives the company name, image addresses (versioned by content) and no expiry while no licence exists', async () => {
    await asAdmin({ method: 'DELETE', url: '/api/company/background' });
    const res = await t.app.inject({ method: 'GET', url: '/api/get_logo_and_expiry_date' });
    const c = await company();
    expect(res.json().data).toEqual({
      company_name: c.name,
      logo_url: c.logoBlobId ? `/api/company/logo?v=${c.logoBlobId.slice(0, 16)}` : null,
      background_url: null,
      expiry_date: null,
    });
  });
});

describe('company details', () => {
  it('changes the details and audits what changed', async () => {
    const res = await asAdmin({
      method: 'PUT',
      url: '/api/company_details',
      payload: {
        name: 'Acme Ltd',
        address: '1 Main St',
        email: 'Office@Acme.example',
        website: 'https://acme.example',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      name: 'Acme Ltd',
      address: '1 Main St',
      email: 'office@acme.example',
      website: 'https://acme.example',
    });
    const { token: staff } = await person(t);
    expect((await callAs(t, staff, { method: 'GET', url: '/api/company_details' })).json().data.name).toBe(
      'Acme Ltd',
    );
    const event = await t.db.auditEvent.findFirst({
      where: { action: 'company.updated' },
      orderBy: { id: 'desc' },
    });
    expect(event?.details).toMatchObject({ address: { after: '1 Main St' } });
  });

  it('refuses bad details (400 naming the field) and an empty change, writing nothing', async () => {
    const before = await counts();
    for (const [payload, path] of [
      [{ email: 'not-an-address' }, 'body.email'],
      [{ website: 'javascript:alert(1)' }, 'body.website'],
      [{ phone: 'call me' }, 'body.phone'],
      [{ name: '' }, 'body.name'],
      [{}, 'body'],
    ] as const) {
      const res = await asAdmin({ method: 'PUT', url: '/api/company_details', payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().errors[0].path).toBe(path);
    }
    expect(await counts()).toEqual(before);
  });
});

describe('logo and background', () => {
  it.each([
    ['PNG', tinyPng(6, 6), 'image/png'],
    ['JPEG', tinyJpegHead(), 'image/jpeg'],
    ['WebP', tinyWebp(), 'image/webp'],
  ])(
    'stores a %s logo, served with its type, a year of caching at its versioned address, 304 on its ETag',
    async (_l, content, type) => {
      const res = await asAdmin({
        method: 'POST',
        url: '/api/controlpanel/upload-logo',
        ...image(content, 'x.bin'),
      });
      expect(res.statusCode, res.body).toBe(200);
      const { url, mime_type, size } = res.json().data;
      expect([mime_type, size]).toEqual([type, content.length]);
      const served = await t.app.inject({ method: 'GET', url });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe(type);
      expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(served.rawPayload.equals(content)).toBe(true);
      const unversioned = await t.app.inject({ method: 'GET', url: '/api/company/logo' });
      expect(unversioned.headers['cache-control']).toBe('public, no-cache');
      const again = await t.app.inject({
        method: 'GET',
        url: '/api/company/logo',
        headers: { 'if-none-match': served.headers.etag as string },
      });
      expect(again.statusCode).toBe(304);
    },
  );

  it('stores a background and removes it (then 404)', async () => {
    const up = await asAdmin({
      method: 'POST',
      url: '/api/controlpanel/upload-background',
      ...image(tinyPng(9, 9)),
    });
    expect(up.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: up.json().data.url })).statusCode).toBe(200);
    expect((await asAdmin({ method: 'DELETE', url: '/api/company/background' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/company/background' })).statusCode).toBe(404);
    expect((await asAdmin({ method: 'DELETE', url: '/api/company/background' })).statusCode).toBe(404);
  });

  it('refuses SVG and other non-images by content (400) and a file over the limit (413), keeping nothing', async () => {
    const before = await counts();
    const files = await storedFiles();
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect/></svg>');
    for (const content of [svg, Buffer.from('GIF89a....'), Buffer.from('%PDF-1.7')]) {
      const res = await asAdmin({
        method: 'POST',
        url: '/api/controlpanel/upload-logo',
        ...image(content, 'logo.png'),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual([{ path: 'body.file', message: 'Not a PNG, JPEG or WebP image' }]);
    }
    const big = Buffer.concat([tinyPng(2, 2), Buffer.alloc(2 * 1024 * 1024)]);
    const res = await asAdmin({ method: 'POST', url: '/api/controlpanel/upload-logo', ...image(big) });
    expect(res.statusCode).toBe(413);
    expect(await counts()).toEqual(before);
    expect(await storedFiles()).toEqual(files);
  });
});
