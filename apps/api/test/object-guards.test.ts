import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { type EndpointDef, endpoint, ZId, ZNull } from '@quire/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createError } from '../src/lib/errors.js';
import { defineRoutes, readsOnly } from '../src/lib/route.js';
import { storeUpload } from '../src/modules/file/file.service.js';
import { createTestApp, type TestContext } from './app.js';
import { errorPaths } from './errors.js';
import { bearer, createUser, loginAs } from './factories.js';
import { multipart } from './multipart.js';

// The second guard step, on entries of this test (the areas' own entries are walked by
// their tests): after validation, before the handler, with the real `file` and `category`
// checks (lib/visibility.ts) over rows made here. For the General staff caller:
//   file A: in a category granted view only        -> view yes, edit no (403)
//   file B: in a category granted edit and delete  -> view, edit, delete
//   file H: in a category granted nothing          -> not visible (404)

/** A probe entry of this test: for anyone signed in, an extension, with its own path and guard. */
const probeEntry = <const E extends Omit<EndpointDef, 'guard' | 'extension' | 'summary'>>(def: E) =>
  endpoint({ ...def, guard: 'signedIn', extension: true, summary: 'probe' } as const);

/** The fields of the two upload probes: the file to guard by, an optional note, the file. */
const ZProbeUpload = z.object({ file_id: ZId, note: z.string().max(20).optional(), file: z.custom<Blob>() });

const probe = {
  category: probeEntry({
    method: 'GET',
    path: '/api/test-probe-category/{id}',
    object: { category: 'manage' },
    params: z.object({ id: ZId }),
    response: z.object({ id: z.number() }),
  }),
  view: probeEntry({
    method: 'GET',
    path: '/api/test-probe/{id}',
    object: { file: 'view' },
    params: z.object({ id: ZId }),
    response: z.object({ id: z.number() }),
  }),
  // Only reads: its guard runs beside its handler (lib/route.ts readOnlyRun), whose every
  // call ends in a 409 of its own here.
  read: probeEntry({
    method: 'GET',
    path: '/api/test-probe-read/{id}',
    object: { file: 'view' },
    params: z.object({ id: ZId }),
    response: z.object({ id: z.number() }),
  }),
  edit: probeEntry({
    method: 'POST',
    path: '/api/test-probe-edit',
    object: { file: 'edit', from: 'body.file_id' },
    body: z.object({ file_id: ZId }),
    response: ZNull,
  }),
  many: probeEntry({
    method: 'POST',
    path: '/api/test-probe-many',
    object: { file: 'delete', from: 'body.file_ids' },
    body: z.object({ file_ids: z.array(ZId).min(1) }),
    response: z.object({ done: z.number() }),
  }),
  upload: probeEntry({
    method: 'POST',
    path: '/api/test-probe-upload',
    object: { file: 'edit', from: 'body.file_id' },
    consumes: 'multipart',
    upload: { field: 'file', max: 2 },
    body: ZProbeUpload,
    response: z.object({ stored: z.array(z.string()) }),
  }),
  // Stores as the real uploads do (storeUpload: written and synced while the guard runs);
  // with note "busy" it refuses (409) before reading a byte, as a check-in of a file not
  // checked out does.
  store: probeEntry({
    method: 'POST',
    path: '/api/test-probe-store',
    object: { file: 'edit', from: 'body.file_id' },
    consumes: 'multipart',
    upload: { field: 'file' },
    body: ZProbeUpload,
    response: z.object({ stored: z.string() }),
  }),
};

const busy = createError({ code: 'probe.busy', statusCode: 409, message: 'Checked out by someone else' });

let t: TestContext;
let dataDir: string;
let token: string;
const handled: string[] = [];

async function routes(app: FastifyInstance) {
  await app.register(
    defineRoutes('test', probe, {
      category: async ({ params }) => {
        handled.push(`category ${params.id}`);
        return { data: { id: params.id } };
      },
      view: async ({ params }) => {
        handled.push(`view ${params.id}`);
        return { data: { id: params.id } };
      },
      read: readsOnly(async ({ params }) => {
        handled.push(`read ${params.id}`);
        throw busy();
      }),
      edit: async ({ body }) => {
        handled.push(`edit ${body.file_id}`);
        return { data: null };
      },
      many: async ({ body }) => {
        handled.push(`many ${body.file_ids.join(',')}`);
        return { data: { done: body.file_ids.length } };
      },
      upload: {
        maxUploadBytes: 64 * 1024,
        handler: async ({ files }) => {
          const stored: string[] = [];
          for await (const file of files) stored.push((await app.deps.blobs.put(file.stream)).id);
          handled.push(`upload ${stored.length}`);
          return { data: { stored } };
        },
      },
      store: async ({ body, files }) => {
        if (body.note === 'busy') throw busy();
        let stored = '';
        for await (const file of files) stored = (await storeUpload(app.deps, file)).blobId;
        handled.push(`store ${body.file_id}`);
        return { data: { stored } };
      },
    }),
  );
}

const ids = { A: 0, B: 0, H: 0, viewOnly: 0, editable: 0, hidden: 0 };
beforeAll(async () => {
  t = await createTestApp({}, { routes });
  dataDir = t.app.deps.config.storageDir;
  const staff = await createUser(t.db, { accessType: 'General staff' });
  const owner = await createUser(t.db, { accessType: 'File Control Admin' });
  token = await loginAs(t.app, staff, 'user');
  const category = (name: string) => t.db.category.create({ data: { name } });
  const [viewOnly, editable, hidden] = await Promise.all([
    category('Seen'),
    category('Worked on'),
    category('Closed'),
  ]);
  await t.db.categoryPermission.create({ data: { categoryId: viewOnly.id, userId: staff.id } });
  await t.db.categoryPermission.create({
    data: { categoryId: editable.id, userId: staff.id, canEdit: true, canDelete: true, canManage: true },
  });
  const file = (name: string, categoryId: number) =>
    t.db.file.create({ data: { name, categoryId, ownerId: owner.id, indexStatus: 'indexed' } });
  Object.assign(ids, {
    A: (await file('a.pdf', viewOnly.id)).id,
    B: (await file('b.pdf', editable.id)).id,
    H: (await file('h.pdf', hidden.id)).id,
    viewOnly: viewOnly.id,
    editable: editable.id,
    hidden: hidden.id,
  });
});
afterAll(() => t.close());

const blobFiles = () =>
  existsSync(dataDir)
    ? readdirSync(dataDir, { recursive: true, withFileTypes: true }).filter(
        (e) => e.isFile() && !e.parentPath.endsWith(`${path.sep}tmp`),
      )
    : [];
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const tmpFiles = () =>
  existsSync(path.join(dataDir, 'tmp')) ? readdirSync(path.join(dataDir, 'tmp')).length : 0;

async function refusals() {
  return t.db.auditEvent.findMany({ where: { type: 'security' }, orderBy: { id: 'asc' } });
}

describe('an object guard', () => {
  it('lets the handler run for an object the caller may act on', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/test-probe/${ids.A}`,
      headers: bearer(token),
    });
    expect(res.statusCode).toBe(200);
    expect(handled).toContain(`view ${ids.A}`);
  });

  it('answers 404 for an object the caller may not see, exactly as for one that does not exist, and audits it', async () => {
    handled.length = 0;
    const before = (await refusals()).length;
    const hidden = await t.app.inject({
      method: 'GET',
      url: `/api/test-probe/${ids.H}`,
      headers: bearer(token),
    });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toEqual({ message: 'File not found', code: 'file.not_found' });
    expect(handled).toEqual([]);
    const events = (await refusals()).slice(before);
    expect(events.map((e) => e.action)).toEqual(['access.not_found']);
  });

  it('answers 403 for an object the caller sees without the right, before the handler runs', async () => {
    handled.length = 0;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/test-probe-edit',
      headers: bearer(token),
      payload: { file_id: ids.A },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('You are not allowed to edit this file');
    expect(handled).toEqual([]);
  });

  it('validates first: a bad id is a 400, not a guard answer', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/test-probe-edit',
      headers: bearer(token),
      payload: { file_id: 'x' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].path).toBe('body.file_id');
  });

  it('checks every id of a list: one hidden id refuses the whole call with 404, naming no file', async () => {
    handled.length = 0;
    const mixed = await t.app.inject({
      method: 'POST',
      url: '/api/test-probe-many',
      headers: bearer(token),
      payload: { file_ids: [ids.B, ids.H] },
    });
    expect(mixed.statusCode).toBe(404);
    expect(mixed.body).not.toContain(String(ids.H));
    const forbidden = await t.app.inject({
      method: 'POST',
      url: '/api/test-probe-many',
      headers: bearer(token),
      payload: { file_ids: [ids.B, ids.A] },
    });
    expect(forbidden.statusCode).toBe(403);
    expect(handled).toEqual([]);
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/test-probe-many',
      headers: bearer(token),
      payload: { file_ids: [ids.B, ids.B] },
    });
    expect(ok.json().data).toEqual({ done: 2 });
  });
});

describe('the guard of a call that only reads (beside its handler)', () => {
  it("answers the guard's refusal whatever the handler met, and the handler's own answer otherwise", async () => {
    const before = (await refusals()).length;
    const read = (id: number) =>
      t.app.inject({ method: 'GET', url: `/api/test-probe-read/${id}`, headers: bearer(token) });
    const hidden = await read(ids.H);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toEqual({ message: 'File not found', code: 'file.not_found' });
    expect((await refusals()).slice(before).map((e) => e.action)).toEqual(['access.not_found']);
    const seen = await read(ids.A);
    expect(seen.statusCode).toBe(409);
    expect(seen.json().code).toBe('probe.busy');
  });
});

describe('the category guard', () => {
  it('lets a manager through, refuses a viewer (403), hides a category without grants (404)', async () => {
    handled.length = 0;
    const get = (id: number) =>
      t.app.inject({ method: 'GET', url: `/api/test-probe-category/${id}`, headers: bearer(token) });
    expect((await get(ids.editable)).statusCode).toBe(200);
    expect((await get(ids.viewOnly)).statusCode).toBe(403);
    const hidden = await get(ids.hidden);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toEqual({ message: 'Category not found', code: 'category.not_found' });
    expect((await get(999_999)).json()).toEqual(hidden.json());
    expect(handled).toEqual([`category ${ids.editable}`]);
  });
});

describe('a guarded upload', () => {
  const upload = (parts: Parameters<typeof multipart>[0]) => {
    const body = multipart(parts);
    return t.app.inject({
      method: 'POST',
      url: '/api/test-probe-upload',
      headers: { ...bearer(token), ...body.headers },
      payload: body.payload,
    });
  };
  const file = (n: number) => ({ content: Buffer.alloc(n, 1), filename: 'a.bin' });

  it('validates its fields like a JSON body and stores nothing when they are bad', async () => {
    const before = blobFiles().length;
    const res = await upload({ file_id: 'one', note: 'x'.repeat(30), file: file(10) });
    expect(res.statusCode).toBe(400);
    expect(errorPaths(res)).toEqual(['body.file_id', 'body.note']);
    expect(blobFiles()).toHaveLength(before);
  });

  it('runs the object guard on its fields, keeping nothing of a refused file', async () => {
    handled.length = 0;
    const before = blobFiles().length;
    for (const [id, status] of [
      [String(ids.A), 403],
      [String(ids.H), 404],
    ] as const) {
      const res = await upload({
        file_id: id,
        file: { content: Buffer.from(`secret ${id}`), filename: 'x.txt' },
      });
      expect(res.statusCode).toBe(status);
    }
    expect(handled).toEqual([]);
    expect(blobFiles()).toHaveLength(before);
    expect(tmpFiles()).toBe(0);
  });

  it('takes the allowed upload, up to its number of files', async () => {
    const res = await upload({ file_id: String(ids.B), a: file(5), file: file(100) });
    expect(res.statusCode).toBe(400); // a file in a field the call does not take
    const ok = await upload({ file_id: String(ids.B), file: file(100) });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.stored).toHaveLength(1);
  });

  it('refuses a third file (413) and one over the limit (413), keeping nothing of them', async () => {
    const before = blobFiles().length;
    const two = await upload({ file_id: String(ids.B), file: [file(21), file(22)] });
    expect(two.statusCode).toBe(200);
    expect(two.json().data.stored).toHaveLength(2);
    const afterTwo = blobFiles().length;
    expect(afterTwo).toBe(before + 2);
    const three = await upload({ file_id: String(ids.B), file: [file(31), file(32), file(33)] });
    expect(three.statusCode).toBe(413);
    expect(three.json().message).toBe('Send at most 2 files in one upload.');
    const tooBig = await upload({ file_id: String(ids.B), file: file(64 * 1024 + 1) });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().message).toBe(
      'The file is larger than the 64 KiB limit. Choose a smaller file or split it.',
    );
    // The two files before the third were stored by then; the third and the big one were not.
    expect(blobFiles().length).toBeLessThanOrEqual(afterTwo + 2);
    expect(blobFiles().map((f) => f.name)).not.toContain(sha256(file(64 * 1024 + 1).content));
    expect(blobFiles().map((f) => f.name)).not.toContain(sha256(file(33).content));
    expect(tmpFiles()).toBe(0);
  });

  it('refuses a field sent after the file (400), keeping nothing: it is never silently ignored', async () => {
    handled.length = 0;
    const res = await upload({ file_id: String(ids.B), file: file(3), note: 'late' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Send the form fields before the file');
    expect(handled).toEqual([]);
    expect(blobFiles().map((f) => f.name)).not.toContain(sha256(file(3).content));
  });

  it('answers 400 without a file part', async () => {
    const res = await upload({ file_id: String(ids.B) });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ path: 'body.file', message: 'Required' }]);
  });
});

describe('an upload stored while its guard runs (lib/admission.ts)', () => {
  const store = (fields: Record<string, string>, content: Buffer) => {
    const body = multipart({ ...fields, file: { content, filename: 'x.txt' } });
    return t.app.inject({
      method: 'POST',
      url: '/api/test-probe-store',
      headers: { ...bearer(token), ...body.headers },
      payload: body.payload,
    });
  };

  it('keeps the file of an admitted call, and nothing of a refused one', async () => {
    handled.length = 0;
    const before = blobFiles().length;
    for (const [id, status] of [
      [ids.A, 403],
      [ids.H, 404],
    ] as const) {
      const content = Buffer.from(`refused upload into ${id}`);
      const res = await store({ file_id: String(id) }, content);
      expect(res.statusCode).toBe(status);
      expect(blobFiles().map((f) => f.name)).not.toContain(sha256(content));
    }
    expect(handled).toEqual([]);
    expect(blobFiles()).toHaveLength(before);
    expect(tmpFiles()).toBe(0);

    const content = Buffer.from('admitted upload');
    const ok = await store({ file_id: String(ids.B) }, content);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.stored).toBe(sha256(content));
    expect(blobFiles().map((f) => f.name)).toContain(sha256(content));
    expect(handled).toEqual([`store ${ids.B}`]);
  });

  it("answers the guard's refusal even when the handler refused first: a hidden file's state stays hidden", async () => {
    const hidden = await store({ file_id: String(ids.H), note: 'busy' }, Buffer.from('x'));
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().message).not.toContain('Checked out');
    const seen = await store({ file_id: String(ids.B), note: 'busy' }, Buffer.from('x'));
    expect(seen.statusCode).toBe(409);
    expect(seen.json().message).toBe('Checked out by someone else');
  });
});
