import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import ExcelJS from 'exceljs';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestContext } from '../../../test/app.js';
import { errorPaths } from '../../../test/errors.js';
import { bearer, loginAs } from '../../../test/factories.js';
import { multipart, tinyJpegHead, tinyPng } from '../../../test/multipart.js';
import { seed, seededApp } from '../../../test/seed.js';
import { rowXml, workbook } from '../../../test/xlsx.js';

// Uploads and downloads of the user area: signatures, the import spreadsheet and its template.

let t: TestContext;
let dataDir: string;
let adminToken: string;

beforeAll(async () => {
  let admin: { token: string };
  ({
    t,
    users: { admin },
  } = await seededApp({ users: { admin: { accessType: 'COMPANY ADMIN' } } }));
  dataDir = t.dataDir;
  adminToken = admin.token;
});
afterAll(() => t.close());

type Inject = InjectOptions;
const call = (token: string | null, opts: Inject) =>
  t.app.inject({ ...opts, headers: { ...(opts.headers ?? {}), ...(token ? bearer(token) : {}) } });

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const blobPath = (id: string) => path.join(dataDir, 'blobs', id.slice(0, 2), id.slice(2, 4), id);
const blobFiles = () => {
  const root = path.join(dataDir, 'blobs');
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);
};

const upload = (token: string | null, parts: Parameters<typeof multipart>[0]) =>
  call(token, { method: 'POST', url: '/api/upload-user-signature', ...multipart(parts) });

describe('POST /api/upload-user-signature', () => {
  it('stores a real PNG as the own signature, by content address, and audits', async () => {
    const { users } = await seed(t, { users: { user: {}, other: { accessType: 'Auditor' } } });
    const { user, other } = users;
    const token = user.token;
    const png = tinyPng(3, 2);
    const res = await upload(token, {
      file: { content: png, filename: 'sig.png', contentType: 'image/png' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ user_id: user.id, blob_id: sha256(png), size: png.length });
    expect((await t.db.user.findUniqueOrThrow({ where: { id: user.id } })).signatureBlobId).toBe(sha256(png));
    expect(await t.db.blob.findUnique({ where: { id: sha256(png) } })).toMatchObject({
      mimeType: 'image/png',
    });
    expect(existsSync(blobPath(sha256(png)))).toBe(true);
    expect(
      await t.db.auditEvent.count({ where: { action: 'signature.updated', targetId: String(user.id) } }),
    ).toBe(1);

    // The same picture for a second user reuses the blob row.
    const again = await upload(other.token, { file: { content: png, filename: 'x.png' } });
    expect(again.statusCode).toBe(200);
    expect(await t.db.blob.count({ where: { id: sha256(png) } })).toBe(1);
  });

  it('accepts a JPEG whatever its name', async () => {
    const { users } = await seed(t, { users: { auditor: { accessType: 'Auditor' } } });
    const res = await upload(users.auditor.token, {
      file: { content: tinyJpegHead(), filename: 'sig.bin' },
    });
    expect(res.statusCode).toBe(200);
    expect(await t.db.blob.findUnique({ where: { id: res.json().data.blob_id } })).toMatchObject({
      mimeType: 'image/jpeg',
    });
  });

  it('refuses a text file named .png (400 naming body.file) and records nothing', async () => {
    const {
      users: { user },
    } = await seed(t, { users: { user: {} } });
    const token = user.token;
    const blobs = await t.db.blob.count();
    const text = Buffer.from('this is not a picture at all');
    const res = await upload(token, {
      file: { content: text, filename: 'sig.png', contentType: 'image/png' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      message: 'The signature must be a PNG or JPEG image',
      errors: [{ path: 'body.file' }],
    });
    expect(await t.db.blob.count()).toBe(blobs);
    expect((await t.db.user.findUniqueOrThrow({ where: { id: user.id } })).signatureBlobId).toBeNull();
  });

  it('stores nothing of refused files, even many large ones, and rate-limits the uploads (issue 10, item 6)', async () => {
    const { users } = await seed(t, { users: { staff: {} } });
    const token = users.staff.token;
    const files = blobFiles().length;
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      const junk = Buffer.alloc(1024 * 1024, i + 1); // 1 MiB that is not an image
      statuses.push((await upload(token, { file: { content: junk, filename: `x${i}.png` } })).statusCode);
    }
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(400));
    expect(statuses[20]).toBe(429);
    expect(blobFiles()).toHaveLength(files);
    expect(readdirSync(path.join(dataDir, 'blobs', 'tmp'))).toHaveLength(0);
  });

  it("refuses another user's signature before reading the file: nothing of it is stored", async () => {
    const {
      users: { target, staff },
    } = await seed(t, { users: { target: { signIn: false }, staff: {} } });
    const png = tinyPng(9, 5);
    const refused = await upload(staff.token, {
      user_id: String(target.id),
      file: { content: png, filename: 's.png' },
    });
    expect(refused.statusCode).toBe(403);
    expect(existsSync(blobPath(sha256(png)))).toBe(false);
  });

  it('never deletes a blob file on a refused upload: another upload of the same content may need it', async () => {
    // The same bytes, stored a moment ago by another request whose row is not committed yet.
    const png = tinyPng(7, 3);
    const file = blobPath(sha256(png));
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, png);
    const {
      users: { target, auditor },
    } = await seed(t, { users: { target: { signIn: false }, auditor: { accessType: 'Auditor' } } });
    const refused = await upload(auditor.token, {
      user_id: String(target.id),
      file: { content: png, filename: 's.png' },
    });
    expect(refused.statusCode).toBe(403);
    expect(existsSync(file)).toBe(true);
    expect(await readFile(file)).toEqual(png);
  });

  it('refuses a file over 1 MiB with 413 and stores nothing', async () => {
    const { users } = await seed(t, { users: { user: {} } });
    const token = users.user.token;
    const blobs = await t.db.blob.count();
    const files = blobFiles().length;
    const big = Buffer.concat([tinyPng(), Buffer.alloc(1024 * 1024 + 10, 7)]);
    const res = await upload(token, { file: { content: big, filename: 'big.png' } });
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toMatch(/larger than the 1 MiB limit/);
    expect(await t.db.blob.count()).toBe(blobs);
    expect(blobFiles()).toHaveLength(files);
    expect(readdirSync(path.join(dataDir, 'blobs', 'tmp'))).toHaveLength(0);
  });

  it('refuses a request without a file part or not multipart (400)', async () => {
    const { users } = await seed(t, { users: { auditor: { accessType: 'Auditor' } } });
    const token = users.auditor.token;
    const none = await upload(token, { note: 'no file here' });
    expect(none.statusCode).toBe(400);
    expect(none.json().errors[0].path).toBe('body.file');
    const json = await call(token, {
      method: 'POST',
      url: '/api/upload-user-signature',
      payload: { file: 'x' },
    });
    expect(json.statusCode).toBe(400);
  });

  it("lets a Settings writer set another user's signature with user_id; others get 403", async () => {
    const {
      users: { target, auditor },
    } = await seed(t, { users: { target: { signIn: false }, auditor: { accessType: 'Auditor' } } });
    const png = tinyPng(5, 5);
    const res = await upload(adminToken, {
      user_id: String(target.id),
      file: { content: png, filename: 's.png' },
    });
    expect(res.statusCode).toBe(200);
    expect((await t.db.user.findUniqueOrThrow({ where: { id: target.id } })).signatureBlobId).toBe(
      sha256(png),
    );

    const other = tinyPng(6, 6);
    const refused = await upload(auditor.token, {
      user_id: String(target.id),
      file: { content: other, filename: 's.png' },
    });
    expect(refused.statusCode).toBe(403);
    expect((await t.db.user.findUniqueOrThrow({ where: { id: target.id } })).signatureBlobId).toBe(
      sha256(png),
    );
    expect(await t.db.blob.count({ where: { id: sha256(other) } })).toBe(0);
  });

  it('answers 401 without a token', async () => {
    expect((await upload(null, { file: { content: tinyPng(), filename: 'a.png' } })).statusCode).toBe(401);
  });
});

describe('GET /api/user-signature/{id}', () => {
  it('downloads the own signature; Settings readers may download anyone’s; others 403', async () => {
    const {
      users: { owner, auditor, staff },
    } = await seed(t, { users: { owner: {}, auditor: { accessType: 'Auditor' }, staff: {} } });
    const ownerToken = owner.token;
    const png = tinyPng(4, 4);
    await upload(ownerToken, { file: { content: png, filename: 'mine.png' } });
    const url = `/api/user-signature/${owner.id}`;

    const own = await call(ownerToken, { method: 'GET', url });
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toBe('image/png');
    expect(own.rawPayload.equals(png)).toBe(true);

    expect((await call(auditor.token, { method: 'GET', url })).statusCode).toBe(200);
    expect((await call(staff.token, { method: 'GET', url })).statusCode).toBe(403);
    expect((await call(null, { method: 'GET', url })).statusCode).toBe(401);
  });

  it('streams as a download should: strong ETag and 304, one byte range (206/416), sandboxed, inline only as an image', async () => {
    const {
      users: { owner },
    } = await seed(t, { users: { owner: {} } });
    const ownerToken = owner.token;
    const png = tinyPng(8, 8);
    await upload(ownerToken, { file: { content: png, filename: 'mine.png' } });
    const url = `/api/user-signature/${owner.id}`;
    const full = await call(ownerToken, { method: 'GET', url });
    const etag = full.headers.etag as string;
    expect(etag).toBe(`"${createHash('sha256').update(png).digest('hex')}"`);
    expect(full.headers['content-security-policy']).toBe('sandbox');
    expect(full.headers['accept-ranges']).toBe('bytes');
    expect(full.headers['content-disposition']).toBe(
      `inline; filename="signature-${owner.username}.png"; filename*=UTF-8''signature-${owner.username}.png`,
    );

    const again = await call(ownerToken, { method: 'GET', url, headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);

    const middle = await call(ownerToken, { method: 'GET', url, headers: { range: 'bytes=10-19' } });
    expect(middle.statusCode).toBe(206);
    expect(middle.headers['content-range']).toBe(`bytes 10-19/${png.length}`);
    expect(middle.rawPayload.equals(png.subarray(10, 20))).toBe(true);

    const tail = await call(ownerToken, { method: 'GET', url, headers: { range: 'bytes=-5' } });
    expect(tail.rawPayload.equals(png.subarray(png.length - 5))).toBe(true);

    const past = await call(ownerToken, { method: 'GET', url, headers: { range: `bytes=${png.length}-` } });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${png.length}`);

    // If-Range with an old ETag: the whole (changed) file, not a piece of it.
    const stale = await call(ownerToken, {
      method: 'GET',
      url,
      headers: { range: 'bytes=0-3', 'if-range': '"0000"' },
    });
    expect(stale.statusCode).toBe(200);
    expect(stale.rawPayload.equals(png)).toBe(true);
  });

  it('answers 404 when there is no signature or no such user', async () => {
    const { users } = await seed(t, { users: { user: { accessType: 'Auditor', signIn: false } } });
    expect(
      (await call(adminToken, { method: 'GET', url: `/api/user-signature/${users.user.id}` })).statusCode,
    ).toBe(404);
    expect((await call(adminToken, { method: 'GET', url: '/api/user-signature/999999' })).statusCode).toBe(
      404,
    );
  });
});

// ---------------------------------------------------------------------------------------------

const HEADER = ['username', 'email', 'first_name', 'last_name', 'access_type', 'role', 'password'];
const GOOD_PASSWORD = 'Imported-Passphrase-77';
let seq = 0;
const fresh = () => {
  seq += 1;
  return `imp${seq}${Date.now().toString(36)}`;
};
const row = (over: Partial<Record<(typeof HEADER)[number], string>> = {}) => {
  const u = fresh();
  const r = {
    username: u,
    email: `${u}@example.test`,
    first_name: 'Im',
    last_name: 'Port',
    access_type: 'Auditor',
    role: 'admin',
    password: GOOD_PASSWORD,
    ...over,
  };
  return HEADER.map((h) => r[h as keyof typeof r]);
};

async function xlsx(rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Users');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const importFile = (content: Buffer, fields: Record<string, string> = {}) =>
  call(adminToken, {
    method: 'POST',
    url: '/api/import_user',
    ...multipart({ ...fields, file: { content, filename: 'users.xlsx' } }),
  });

describe('POST /api/import_user', () => {
  it('imports every row; access types may be written as shown (Company Admin) in any case', async () => {
    const rows = [
      row(),
      row({ access_type: 'company admin', role: 'ADMIN' }),
      row({ access_type: 'General Staff', role: 'admin' }),
    ];
    const res = await importFile(await xlsx([HEADER, ...rows]));
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ dry_run: false, created: 3, errors: [] });
    expect(res.json().data.rows[0]).not.toHaveProperty('password');
    const created = await t.db.user.findMany({
      where: { username: { in: rows.map((r) => r[0]!) } },
      orderBy: { id: 'asc' },
    });
    expect(created.map((u) => [u.accessType, u.loginRole])).toEqual([
      ['AUDITOR', 'admin'],
      ['COMPANY_ADMIN', 'admin'],
      ['GENERAL_STAFF', 'user'],
    ]);
    await loginAs(t.app, { username: rows[0]![0]! }, 'admin', GOOD_PASSWORD);
    expect(
      await t.db.auditEvent.count({
        where: { action: 'user.created', details: { path: ['source'], equals: 'import' } },
      }),
    ).toBe(3);
  });

  it('names every bad row by its spreadsheet row, and imports nothing', async () => {
    const {
      users: { existing },
    } = await seed(t, { users: { existing: { accessType: 'Auditor', signIn: false } } });
    const first = row();
    const rows = [
      first, // row 2: fine
      row({ email: 'not-an-email' }), // row 3
      row({ username: existing.username }), // row 4
      row({ access_type: 'Vendor Admin' }), // row 5
      row({ password: 'short' }), // row 6
      row({ email: first[1]!.toUpperCase() }), // row 7: same e-mail as row 2
      row({ access_type: 'Boss' }), // row 8
    ];
    const users = await t.db.user.count();
    const res = await importFile(await xlsx([HEADER, ...rows]));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^Nothing was imported/);
    expect(errorPaths(res)).toEqual([
      'row 3.email',
      'row 4.username',
      'row 5.access_type',
      'row 6.password',
      'row 7.email',
      'row 8.access_type',
    ]);
    expect(await t.db.user.count()).toBe(users);
  });

  it('lists every problem of a row in one preview, in words a person can act on', async () => {
    const {
      users: { existing },
    } = await seed(t, { users: { existing: { accessType: 'Auditor', signIn: false } } });
    const rows = [
      row({ username: existing.username, email: 'not-an-email', password: 'short', access_type: 'Boss' }),
    ];
    const res = await importFile(await xlsx([HEADER, ...rows]), { dry_run: 'true' });
    expect(res.statusCode).toBe(200);
    const errors = res.json().data.errors as Array<{ path: string; message: string }>;
    expect(errors.map((e) => e.path).sort()).toEqual([
      'row 2.access_type',
      'row 2.email',
      'row 2.password',
      'row 2.username',
    ]);
    expect(errors.find((e) => e.path === 'row 2.access_type')?.message).toBe(
      'Unknown access type. Use one of: General Staff, File Control Admin, User Administration Admin, Auditor, Company Admin',
    );
  });

  it('previews with dry_run=true: the rows and their errors, nothing written', async () => {
    const rows = [row(), row({ email: 'bad' })];
    const users = await t.db.user.count();
    const res = await importFile(await xlsx([HEADER, ...rows]), { dry_run: 'true' });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ dry_run: true, created: 0 });
    expect(data.rows.map((r: { row: number; username: string }) => [r.row, r.username])).toEqual([
      [2, rows[0]![0]],
      [3, rows[1]![0]],
    ]);
    expect(data.errors).toEqual([{ path: 'row 3.email', message: expect.any(String) }]);
    expect(await t.db.user.count()).toBe(users);
  });

  it('reads columns in any order and skips empty rows; names a missing column', async () => {
    const [u, e] = row();
    const reordered = await xlsx([
      ['Email', 'USERNAME', 'password', 'role', 'access_type', 'last_name', 'first_name'],
      [e, u, GOOD_PASSWORD, 'admin', 'Auditor', 'Z', 'A'],
      [],
    ]);
    const ok = await importFile(reordered);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.created).toBe(1);

    const missing = await importFile(await xlsx([HEADER.slice(0, 6), row().slice(0, 6)]));
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual([{ path: 'row 1.password', message: 'Missing column "password"' }]);
  });

  it('refuses a file that is not an .xlsx (400), no file (400) and an oversized one (413)', async () => {
    const users = await t.db.user.count();
    const text = await importFile(Buffer.from('username,email\nx,y\n'));
    expect(text.statusCode).toBe(400);
    expect(text.json().errors[0].path).toBe('body.file');
    const none = await call(adminToken, {
      method: 'POST',
      url: '/api/import_user',
      ...multipart({ dry_run: 'true' }),
    });
    expect(none.statusCode).toBe(400);
    const big = await importFile(
      Buffer.concat([Buffer.from([0x50, 0x4b, 3, 4]), Buffer.alloc(5 * 1024 * 1024 + 1)]),
    );
    expect(big.statusCode).toBe(413);
    expect(await t.db.user.count()).toBe(users);
  });
});

describe('hostile spreadsheets', () => {
  /**
   * Runs `work` while asking GET /api/health every 20 ms; returns the slowest answer and the
   * longest the event loop was blocked meanwhile.
   */
  async function whileServing<T>(work: () => Promise<T>) {
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    let done = false;
    let slowest = 0;
    const prober = (async () => {
      while (!done) {
        const started = performance.now();
        const res = await t.app.inject({ method: 'GET', url: '/api/health' });
        expect(res.statusCode).toBe(200);
        slowest = Math.max(slowest, performance.now() - started);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    try {
      return { result: await work(), slowest: () => slowest, blockedMs: () => loop.max / 1e6 };
    } finally {
      done = true;
      await prober;
      loop.disable();
    }
  }

  it.each([1_048_576, 3_000_000])(
    'reads a small file with one row at r="%i" as one row, while the server keeps answering',
    async (far) => {
      const [, ...cells] = row();
      const u = fresh();
      // What the attacker sent: a few KB declaring a million rows, with one row far down.
      const file = workbook(rowXml(1, HEADER) + rowXml(far, [u, `${u}@example.test`, ...cells.slice(1)]), {
        dimension: `A1:G${far}`,
      });
      expect(file.length).toBeLessThan(8 * 1024);
      const rssBefore = process.memoryUsage().rss;
      const run = await whileServing(() => importFile(file, { dry_run: 'true' }));
      const res = run.result;
      expect(res.statusCode).toBe(200);
      expect(res.json().data.rows.map((r: { row: number; username: string }) => [r.row, r.username])).toEqual(
        [[far, u]],
      );
      // Generous bounds: the old reader blocked every request for ~58 s at 2.6 GB (or died).
      expect(run.slowest()).toBeLessThan(1000);
      expect(run.blockedMs()).toBeLessThan(1000);
      expect(process.memoryUsage().rss - rssBefore).toBeLessThan(256 * 1024 * 1024);
    },
  );

  it('refuses a sheet of 50,000 users with a clear 400 (at most 1000), reading no further, writing nothing', async () => {
    const data = Array.from({ length: 50_000 }, (_, i) =>
      rowXml(i + 2, [`bulk${i}`, `bulk${i}@example.test`, 'B', 'U', 'General staff', 'user', GOOD_PASSWORD]),
    ).join('');
    const users = await t.db.user.count();
    const run = await whileServing(() => importFile(workbook(rowXml(1, HEADER) + data)));
    expect(run.result.statusCode).toBe(400);
    expect(run.result.json()).toMatchObject({
      message: 'The spreadsheet has more than 1000 users. Import at most 1000 at a time.',
      errors: [{ path: 'body.file', message: 'More than 1000 users' }],
    });
    expect(run.blockedMs()).toBeLessThan(1000);
    const preview = await importFile(workbook(rowXml(1, HEADER) + data), { dry_run: 'true' });
    expect(preview.statusCode).toBe(400);
    expect(await t.db.user.count()).toBe(users);
  });
});

describe('GET /api/users/import-template', () => {
  it('is an .xlsx whose imported sheet holds only the header row; the example sits on a sheet that is not imported', async () => {
    const res = await call(adminToken, { method: 'GET', url: '/api/users/import-template' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toContain('users-import-template.xlsx');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ExcelJS.Buffer);
    const [users, example] = wb.worksheets;
    expect((users!.getRow(1).values as unknown[]).slice(1)).toEqual(HEADER);
    expect(users!.actualRowCount).toBe(1);
    expect((example!.getRow(1).values as unknown[]).slice(1)).toEqual(HEADER);
    expect(example!.getRow(2).getCell(1).text).toBe('jdoe');

    // Imported untouched, the template creates nobody (the example is not a user).
    const untouched = await importFile(res.rawPayload, { dry_run: 'true' });
    expect(untouched.statusCode).toBe(200);
    expect(untouched.json().data.rows).toEqual([]);
    expect(untouched.json().data.errors).toEqual([
      { path: 'row 2', message: 'The spreadsheet has no users below the header row' },
    ]);

    // The example row, copied below the header, imports cleanly.
    const exampleRow = (example!.getRow(2).values as unknown[]).slice(1);
    users!.addRow(exampleRow);
    const filled = await importFile(Buffer.from(await wb.xlsx.writeBuffer()), { dry_run: 'true' });
    expect(filled.statusCode).toBe(200);
    expect(filled.json().data.rows).toHaveLength(1);
    expect(filled.json().data.errors).toEqual([]);
  });
});
