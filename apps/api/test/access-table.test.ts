import {
  ACCESS_TYPES,
  type AccessType,
  AREA_LABELS,
  allEndpoints,
  buildPath,
  canAccess,
  type EndpointDef,
  type Guard,
  type LoginRole,
  mayUseRole,
  OBJECT_RIGHTS,
  type ObjectKind,
  type ObjectRight,
  objectGuardParts,
} from '@quire/contract';
import { Prisma } from '@quire/db';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { createTestApp, type TestContext } from './app.js';
import { fieldSchema, isArraySchema, isIntegerSchema, objectKeys, sampleOf } from './contract-samples.js';
import { bearer } from './factories.js';
import { multipart } from './multipart.js';
import { person, type SeededUser, seed } from './seed.js';

// OWASP ASVS 5.0 level 2, V8 (authorization), generated from the contract: every entry of
// allEndpoints() is walked from its guard, so a new entry is walked without a line here.
//
// - V8.2.1 function level: anonymous gets 401 on every call but the public ones; each access
//   type, signed in with each role it may use, gets 403 exactly where canAccess() says no.
// - V8.2.2 data level: an entry with an object guard answers 404 for an object in a category
//   the caller has no grant on (the same answer as for one that does not exist), 403 for one
//   they see with too few rights; a call on many ids mixing an allowed and a forbidden one is
//   refused whole; every call taking an id, fed the objects of others, changes and shows
//   nothing of them.
// - V16.3.2: every refusal writes its audit event.
//
// Data: a General staff caller ("staff") and the owner of what staff may not see. Fixed ids
// (81xxxx) keep objects of different kinds from sharing a number, so an id of one kind sent
// where another is expected cannot hit something staff may see.

const ID = {
  hiddenFile: 810001,
  hiddenCategory: 810002,
  hiddenVersion: 810003,
  hiddenAttachment: 810004,
  othersSavedView: 810005,
  othersNotification: 810006,
  othersTrashedFile: 810007,
  viewOnlyFile: 810008,
  viewOnlyVersion: 810009,
  viewOnlyAttachment: 810010,
  viewOnlyCategory: 810011,
  deletedCategory: 810012,
  trashedVersion: 810013,
  trashedAttachment: 810014,
  sharedOnlyCategory: 810015,
} as const;
/** Every name and content staff may not see carries this: no answer to staff may hold it. */
const SECRET = 'zzsecret';

/** The calls that end the caller's session: each is walked with a session of its own. */
const ENDS_SESSION = new Set(['auth.logout', 'auth.clear2fa']);

/**
 * Calls whose rights the service checks, not an object guard of the contract: calls on many
 * files, checked file by file (the refusal names the file), and a category's fields (also to
 * whoever has an unindexed file waiting there). Each is walked like an object guard: the right
 * it needs, and what else its body needs to get that far.
 */
const SERVICE_CHECKED: Record<
  string,
  { from: string; kind: 'file' | 'category'; right: ObjectRight; body?: () => Record<string, unknown> }
> = {
  'category.folderMeta': { from: 'params.id', kind: 'category', right: 'view' },
  'fileBulk.bulkMove': {
    from: 'body.file_ids',
    kind: 'file',
    right: 'edit',
    body: () => ({ folder_id: fixtures.fullCategory }),
  },
  'fileBulk.bulkFollow': { from: 'body.file_ids', kind: 'file', right: 'view' },
  'fileBulk.downloadZip': { from: 'body.file_ids', kind: 'file', right: 'download' },
  'fileBulk.downloadPdf': { from: 'body.file_ids', kind: 'file', right: 'download' },
};

/**
 * signedIn calls whose service asks for more when the object is someone else's: the rule,
 * and who may (the walk's probe names another user's object).
 */
const companyAdminOnly = {
  rule: 'restoring data and deciding who signs in outrank Settings: a Company Admin only',
  code: 'auth.forbidden',
  may: (c: Caller) => c.role === 'admin' && c.accessType === 'COMPANY ADMIN',
};
const NARROWER: Record<string, { rule: string; code: string; may: (c: Caller) => boolean }> = {
  'user.signature': {
    rule: "another user's signature needs Settings read",
    code: 'user.signature_forbidden',
    may: (c) => c.role === 'admin' && canAccess(c.accessType, 'settings', 'read'),
  },
  'backup.create': companyAdminOnly,
  'backup.schedule': companyAdminOnly,
  'backup.delete': companyAdminOnly,
  'backup.deleteFile': companyAdminOnly,
  'backup.downloadFile': companyAdminOnly,
  'backup.upload': companyAdminOnly,
  'backup.restore': companyAdminOnly,
  'settings.saveAuthentication': companyAdminOnly,
  'settings.testAuthentication': companyAdminOnly,
  'settings.deleteAuthentication': companyAdminOnly,
};

const AREAS = Object.keys(AREA_LABELS);
const KNOWN_KINDS = {
  category: true,
  file: true,
  version: true,
  attachment: true,
} as const satisfies Record<ObjectKind, true>;

const ENTRIES = allEndpoints();

let t: TestContext;
let staff: SeededUser;
let owner: SeededUser;
/** Users a User Administration Admin may not manage: the vendor, and one with more access. */
const beyond = { vendor: 0, companyAdmin: 0 };
/** The token and user id of each caller, by label. */
const tokens = new Map<string, { token: string; userId: number }>();
const fixtures = { fullCategory: 0 };
let address = 0;

interface Caller {
  label: string;
  accessType: AccessType;
  role: LoginRole;
  /** Signed in, the second factor not given yet: only `session` calls are open. */
  pending?: true;
}
/**
 * Each access type signed in with the role that carries its areas (admin, where it may:
 * spec §4, §6); the Company Admin signed in as user, whose areas stay closed; and the Company
 * Admin whose session still waits for the second factor.
 */
const CALLERS: Caller[] = [
  ...ACCESS_TYPES.map((accessType) => {
    const role: LoginRole = mayUseRole(accessType, 'admin') ? 'admin' : 'user';
    return { label: `${accessType} as ${role}`, accessType, role };
  }),
  { label: 'COMPANY ADMIN as user', accessType: 'COMPANY ADMIN', role: 'user' },
  {
    label: 'COMPANY ADMIN, second factor pending',
    accessType: 'COMPANY ADMIN',
    role: 'admin',
    pending: true,
  },
];

/** A new user of the caller's kind, signed in. */
async function signIn(c: Caller) {
  const { id, token } = await person(t, { accessType: c.accessType, signIn: c.role });
  // Turned on after sign-in: the session has not passed the second factor.
  if (c.pending) await t.db.user.update({ where: { id }, data: { twoFactorEnabled: true } });
  return { token, userId: id };
}

/** What the guard answers a caller: pass, or the code of its 403. */
function guardAnswer(c: Caller, guard: Guard, operationId: string): 'pass' | string {
  if (guard === 'public' || guard === 'session') return 'pass';
  if (c.pending) return 'auth.two_factor_required';
  if (isArea(guard) && !(c.role === 'admin' && canAccess(c.accessType, guard.area, guard.access)))
    return 'auth.forbidden';
  const narrower = NARROWER[operationId];
  if (narrower && !narrower.may(c)) return narrower.code;
  return 'pass';
}

beforeAll(async () => {
  t = await createTestApp();
  ({
    users: { staff, owner },
  } = await seed(t, { users: { staff: {}, owner: { signIn: false } } }));
  for (const c of CALLERS) tokens.set(c.label, await signIn(c));
  beyond.vendor = (await signIn({ label: 'vendor', accessType: 'DATAMAX ADMIN', role: 'admin' })).userId;
  beyond.companyAdmin = (await signIn({ label: 'ca', accessType: 'COMPANY ADMIN', role: 'admin' })).userId;
  await plantObjects();
}, 60_000);
afterAll(() => t?.close());

// ---- data ----------------------------------------------------------------------------------

/** Objects of each kind: staff cannot see `hidden`, sees `viewOnly` with view only. */
const OBJECTS: Record<ObjectKind, { hidden: number; viewOnly: number; gone: number }> = {
  category: { hidden: ID.hiddenCategory, viewOnly: ID.viewOnlyCategory, gone: ID.deletedCategory },
  file: { hidden: ID.hiddenFile, viewOnly: ID.viewOnlyFile, gone: ID.othersTrashedFile },
  version: { hidden: ID.hiddenVersion, viewOnly: ID.viewOnlyVersion, gone: ID.trashedVersion },
  attachment: { hidden: ID.hiddenAttachment, viewOnly: ID.viewOnlyAttachment, gone: ID.trashedAttachment },
};

/**
 * The owner's text file of `which` objects (OBJECTS: its id, its version's and its
 * attachment's), in `categoryId`; the `gone` one is in the trash.
 */
async function plantFile(which: 'hidden' | 'viewOnly' | 'gone', o: { categoryId: number; name: string }) {
  const id = OBJECTS.file[which];
  const versionId = OBJECTS.version[which];
  const secret = o.name.includes(SECRET) ? SECRET : 'shared';
  const stored = await t.app.deps.blobs.put(Buffer.from(`${o.name}: ${secret} content\n`));
  await t.db.blob.upsert({
    where: { id: stored.id },
    create: { id: stored.id, size: BigInt(stored.size), mimeType: 'text/plain' },
    update: {},
  });
  await t.db.file.create({
    data: {
      id,
      name: o.name,
      categoryId: o.categoryId,
      ownerId: owner.id,
      indexStatus: 'indexed',
      indexedAt: new Date(),
      ...(which === 'gone' ? { deletedAt: new Date(), deletedById: owner.id } : {}),
    },
  });
  await t.db.fileVersion.create({
    data: {
      id: versionId,
      fileId: id,
      number: 1,
      blobId: stored.id,
      originalName: o.name,
      mimeType: 'text/plain',
      size: BigInt(stored.size),
      authorId: owner.id,
    },
  });
  await t.db.file.update({ where: { id }, data: { currentVersionId: versionId } });
  await t.db.attachment.create({
    data: {
      id: OBJECTS.attachment[which],
      fileId: id,
      blobId: stored.id,
      name: `${secret}-attachment.txt`,
      mimeType: 'text/plain',
      size: BigInt(stored.size),
      uploadedById: owner.id,
    },
  });
}

async function plantObjects() {
  const category = (id: number, name: string, deleted = false) =>
    t.db.category.create({
      data: { id, name, position: id, ...(deleted ? { deletedAt: new Date(), deletedById: owner.id } : {}) },
    });
  // Hidden: granted to the owner only. View only: staff sees it, with no other right.
  await category(ID.hiddenCategory, `${SECRET} category`);
  await t.db.categoryPermission.create({
    data: {
      categoryId: ID.hiddenCategory,
      userId: owner.id,
      canUpload: true,
      canEdit: true,
      canManage: true,
    },
  });
  await category(ID.viewOnlyCategory, 'Seen, not touched');
  // Not granted to staff either; its name is shown with the file shared from it.
  await category(ID.sharedOnlyCategory, 'Shared from here');
  await t.db.categoryPermission.create({ data: { categoryId: ID.viewOnlyCategory, userId: staff.id } });
  // Deleted: staff held every right on it, but it is gone.
  await category(ID.deletedCategory, `${SECRET} deleted category`, true);
  await t.db.categoryPermission.create({
    data: {
      categoryId: ID.deletedCategory,
      userId: staff.id,
      canUpload: true,
      canEdit: true,
      canDelete: true,
      canShare: true,
      canManage: true,
    },
  });
  fixtures.fullCategory = (
    await seed(t, {
      users: { staff },
      categories: {
        full: {
          name: 'Staff works here',
          grants: { staff: ['upload', 'edit', 'delete', 'share', 'manage'] },
        },
      },
    })
  ).categories.full.id;

  await plantFile('hidden', { categoryId: ID.hiddenCategory, name: `${SECRET}-file.txt` });
  // Shared with staff for viewing only (no download), from a category staff cannot see.
  await plantFile('viewOnly', { categoryId: ID.sharedOnlyCategory, name: 'shared-to-read.txt' });
  await t.db.file.update({ where: { id: ID.viewOnlyFile }, data: { hasOwnPermissions: true } });
  await t.db.filePermission.create({ data: { fileId: ID.viewOnlyFile, userId: staff.id, canView: true } });
  // The owner's file in staff's own category, in the trash: staff did not delete it.
  await plantFile('gone', { categoryId: fixtures.fullCategory, name: `${SECRET}-trashed.txt` });
  // Searchable, as an indexed upload is.
  await t.db
    .$executeRaw`UPDATE files f SET search_vector = quire_file_search_vector(f.id, f.name, f.current_version_id)
    WHERE f.id >= 810000`;
  // What lists could name: a workflow serving the hidden category and staff's own, and a
  // category group holding both.
  const workflow = await t.db.workflow.create({ data: { name: 'Review', status: 'active' } });
  await t.db.category.updateMany({
    where: { id: { in: [ID.hiddenCategory, fixtures.fullCategory] } },
    data: { workflowId: workflow.id },
  });
  const group = await t.db.categoryGroup.create({ data: { name: 'Both sides' } });
  await t.db.categoryGroupMember.createMany({
    data: [
      { categoryGroupId: group.id, categoryId: fixtures.fullCategory },
      { categoryGroupId: group.id, categoryId: ID.hiddenCategory, position: 1 },
    ],
  });
  await t.db.savedView.create({
    data: { id: ID.othersSavedView, userId: owner.id, name: `${SECRET} view`, query: { q: SECRET } },
  });
  await t.db.notification.create({
    data: {
      id: BigInt(ID.othersNotification),
      userId: owner.id,
      kind: 'file.changed',
      title: `${SECRET} notice`,
      fileId: ID.hiddenFile,
    },
  });
}

/** A new object staff holds every right on (a fresh one per use: the call may change it). */
async function fresh(kind: ObjectKind): Promise<number> {
  const full = { id: fixtures.fullCategory };
  if (kind === 'category')
    return (
      await seed(t, {
        users: { staff },
        categories: {
          fresh: { parent: full, grants: { staff: ['upload', 'edit', 'delete', 'share', 'manage'] } },
        },
      })
    ).categories.fresh.id;
  const { file } = (await seed(t, { files: { file: { owner: staff, category: full } } })).files;
  if (kind === 'file') return file.id;
  const version = await t.db.fileVersion.findFirstOrThrow({ where: { fileId: file.id } });
  if (kind === 'version') return version.id;
  return (
    await t.db.attachment.create({
      data: {
        fileId: file.id,
        blobId: version.blobId,
        name: 'attached.txt',
        mimeType: 'text/plain',
        size: version.size,
        uploadedById: staff.id,
      },
    })
  ).id;
}

/** What staff must never change: the objects of others, and the view-only ones (one query). */
async function othersState(): Promise<string> {
  const files = [ID.hiddenFile, ID.viewOnlyFile, ID.othersTrashedFile];
  const unseen = [ID.hiddenFile, ID.othersTrashedFile];
  const categories = [ID.hiddenCategory, ID.viewOnlyCategory, ID.deletedCategory, ID.sharedOnlyCategory];
  const rows = (table: string, column: string, ids: number[], what = 't') =>
    Prisma.sql`(SELECT coalesce(string_agg((${Prisma.raw(what)})::text, '|' ORDER BY t::text), '')
      FROM ${Prisma.raw(table)} t WHERE t.${Prisma.raw(column)} = ANY(${ids}::int[]))`;
  // A file's row without what a comment or a view (allowed on the view-only file) refreshes.
  const file = `row(t.id, t.name, t.category_id, t.owner_id, t.index_status, t.current_version_id,
    t.locked_by_id, t.checked_out_by_id, t.has_own_permissions, t.deleted_at, t.incremental_value)`;
  const [state] = await t.db.$queryRaw<Array<{ state: string }>>`SELECT concat_ws(E'\n',
    ${rows('files', 'id', files, file)}, ${rows('file_versions', 'file_id', files)},
    ${rows('attachments', 'file_id', files)}, ${rows('file_permissions', 'file_id', files)},
    ${rows('shares', 'file_id', files)}, ${rows('workflow_instances', 'file_id', files)},
    ${rows('file_field_values', 'file_id', files)}, ${rows('file_tags', 'file_id', files)},
    ${rows('comments', 'file_id', unseen)}, ${rows('file_follows', 'file_id', unseen)},
    ${rows('file_favourites', 'file_id', unseen)}, ${rows('categories', 'id', categories)},
    ${rows('categories', 'parent_id', categories)}, ${rows('category_permissions', 'category_id', categories)},
    ${rows('category_fields', 'category_id', categories)}, ${rows('related_tags', 'category_id', categories)},
    ${rows('saved_views', 'user_id', [owner.id])}, ${rows('notifications', 'user_id', [owner.id])}
  ) AS state`;
  return state?.state ?? '';
}

// ---- requests ------------------------------------------------------------------------------

type Part = 'params' | 'query' | 'body';
type Values = Partial<Record<Part, Record<string, unknown>>>;

function sampled(def: EndpointDef): Required<Values> {
  const part = (schema: z.ZodType | undefined) =>
    schema ? ((sampleOf(schema) as Record<string, unknown> | undefined) ?? {}) : {};
  return { params: part(def.params), query: part(def.query), body: part(def.body as z.ZodType) };
}

/** Sets `where` (`body.file_ids`) in sampled values to `value`. */
function setAt(values: Required<Values>, where: string, value: unknown) {
  const [part, key] = where.split('.') as [Part, string];
  values[part] = { ...values[part], [key]: value };
}

/** The request for an entry's values: JSON, or multipart with a small file part. */
function request(def: EndpointDef, values: Required<Values>): InjectOptions {
  const params: Record<string, string> = Object.fromEntries(pathParams(def).map((k) => [k, '1']));
  for (const [k, v] of Object.entries(values.params)) params[k] = String(v);
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(values.query))
    for (const one of Array.isArray(v) ? v : [v]) search.append(k, String(one));
  const url = buildPath(def.path, params) + (search.size ? `?${search}` : '');
  if (def.method === 'GET') return { method: def.method, url };
  if (def.consumes === 'multipart') {
    const fields: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(values.body))
      if (v !== undefined && k !== def.upload?.field)
        fields[k] = Array.isArray(v) ? v.map(String) : typeof v === 'object' ? JSON.stringify(v) : String(v);
    const form = multipart({
      ...fields,
      [def.upload?.field ?? 'file']: { content: Buffer.from('probe\n'), filename: 'probe.txt' },
    });
    return { method: def.method, url, headers: form.headers, payload: form.payload };
  }
  return { method: def.method, url, payload: values.body };
}

const pathParams = (def: EndpointDef) => [...def.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);

/**
 * A valid request naming nothing that exists (ids 2000000000): it gets past validation to
 * the service's own rule, and changes nothing when refused there.
 */
function serviceProbe(def: EndpointDef): InjectOptions {
  const values = sampled(def);
  for (const key of pathParams(def)) values.params[key] = 2_000_000_000;
  for (const where of idFields(def))
    setAt(values, where, isArraySchema(schemaAt(def, where)) ? [2_000_000_000] : 2_000_000_000);
  return request(def, values);
}

/** A JSON body no call accepts (a lone surrogate): past the guard it is a 400, before it a 401/403. */
function guardProbe(def: EndpointDef): InjectOptions {
  const values = sampled(def);
  for (const key of pathParams(def)) values.params[key] = key === 'email' ? 'probe@example.test' : 999999;
  const { url } = request(def, values);
  if (def.method === 'GET') return { method: 'GET', url };
  return {
    method: def.method,
    url,
    headers: { 'content-type': 'application/json' },
    payload: '{"probe":"a\\ud800b"}',
  };
}

async function call(token: string | null, opts: InjectOptions) {
  address += 1;
  return t.app.inject({
    ...opts,
    // One address per anonymous call: anonymous refusals are audited up to 30 a minute per address.
    remoteAddress: `10.8.${Math.floor(address / 250) % 250}.${(address % 250) + 1}`,
    headers: { ...(opts.headers ?? {}), ...(token ? bearer(token) : {}) },
  });
}

const lastAuditId = async () =>
  (await t.db.auditEvent.aggregate({ _max: { id: true } }))._max.id ?? BigInt(0);

type Refusal = { action: string; userId: number | null; url: string };

/** Each refusal since `since` was audited: an event of its action, by its user, naming its path. */
async function expectAudited(since: bigint, ...refusals: Refusal[]) {
  const events = await t.db.auditEvent.findMany({
    where: { id: { gt: since }, type: 'security' },
    select: { action: true, userId: true, details: true },
  });
  const seen = events.map((e) => `${e.action} ${e.userId} ${(e.details as { path?: string } | null)?.path}`);
  for (const r of refusals) expect(seen).toContain(`${r.action} ${r.userId} ${r.url.split('?')[0]}`);
}

/** The guarded field: the entry's object guard, or the service's check of SERVICE_CHECKED. */
function guardedField(operationId: string, def: EndpointDef) {
  if (def.object) {
    const { kind, right, from } = objectGuardParts(def.object);
    return { kind, right, from, code: kind, service: false };
  }
  const s = SERVICE_CHECKED[operationId];
  return s ? { kind: s.kind as ObjectKind, right: s.right, from: s.from, code: s.kind, service: true } : null;
}

function schemaAt(def: EndpointDef, where: string) {
  const [part, key] = where.split('.') as [Part, string];
  return fieldSchema(def[part] as z.ZodType | undefined, key);
}

/** The rights that view alone gives (a right staff holds on the view-only object). */
const VIEW_ONLY_GIVES: Record<ObjectKind, ObjectRight[]> = {
  category: ['view', 'download'],
  file: ['view'],
  version: ['view'],
  attachment: ['view'],
};

const isArea = (g: Guard): g is Exclude<Guard, string> => typeof g === 'object';
const titled = (list: typeof ENTRIES) => list.map((e) => [e.operationId, e.def] as const);

// ---- the walker knows the contract ---------------------------------------------------------

describe('V8.1.1 the contract documents who may call what', () => {
  it.each(titled(ENTRIES))('V8.1.1: %s has a guard the walker knows', (operationId, def) => {
    const guard = def.guard as Guard | undefined;
    if (typeof guard === 'string') expect(['public', 'session', 'signedIn']).toContain(guard);
    else {
      expect(guard, `${operationId} has no guard`).toEqual({
        area: expect.any(String),
        access: expect.stringMatching(/^(read|write)$/),
      });
      expect(AREAS).toContain(guard?.area);
    }
    const guarded = guardedField(operationId, def);
    if (def.object)
      expect(SERVICE_CHECKED[operationId], 'both an object guard and a service check').toBeUndefined();
    if (guarded) {
      expect(KNOWN_KINDS).toHaveProperty(guarded.kind);
      expect(OBJECT_RIGHTS[guarded.kind] as readonly string[]).toContain(guarded.right);
      const field = schemaAt(def, guarded.from);
      const element = isArraySchema(field) ? (field as unknown as { element: z.ZodType }).element : field;
      expect(isIntegerSchema(element), `${operationId}: ${guarded.from} is not an id`).toBe(true);
    }
    // A call on many files must have its ids guarded: by the contract or, listed, by the service.
    for (const key of objectKeys(def.body as z.ZodType | undefined))
      if (/^file_ids$/.test(key))
        expect(guarded?.from, `${operationId}: body.${key} is not guarded`).toBe(`body.${key}`);
  });
});

// ---- V8.2.1 function level -----------------------------------------------------------------

describe('V8.2.1 function level: anonymous', () => {
  it.concurrent.each(titled(ENTRIES))('V8.2.1 / V16.3.2: %s as anonymous', async (_id, def) => {
    if (def.guard !== 'public') {
      const since = await lastAuditId();
      const opts = guardProbe(def);
      const res = await call(null, opts);
      expect(res.statusCode, res.body).toBe(401);
      expect(res.json().code).toBe('auth.not_authenticated');
      await expectAudited(since, { action: 'access.unauthenticated', userId: null, url: opts.url as string });
      return;
    }
    // A public call, fed the ids of objects it is not about, shows none of them: neither to
    // anonymous nor through the session of someone signed in who may not see them.
    for (const id of [ID.hiddenFile, ID.hiddenCategory, ID.hiddenVersion, ID.hiddenAttachment])
      for (const token of [null, staff.token]) {
        const values = sampled(def);
        if (pathParams(def).includes('id')) values.params.id = id;
        for (const where of idFields(def))
          setAt(values, where, isArraySchema(schemaAt(def, where)) ? [id] : id);
        const res = await call(token, request(def, values));
        expect(res.statusCode, res.body).toBeLessThan(500);
        if (res.statusCode === 401) expect(res.json().code).not.toBe('auth.not_authenticated');
        expect(res.body).not.toContain(SECRET);
      }
  });
});

const REPRESENTATIVE = [
  'General staff as user',
  'COMPANY ADMIN as admin',
  'DATAMAX ADMIN as admin',
  'COMPANY ADMIN, second factor pending',
];

describe('V8.2.1 function level: each access type and role', () => {
  const guarded = ENTRIES.filter((e) => e.def.guard !== 'public');
  it.concurrent.each(titled(guarded))(
    'V8.2.1 / V8.3.1 / V16.3.2: %s for each access type and role, and before the second factor',
    async (operationId, def) => {
      const since = await lastAuditId();
      const refusals: Refusal[] = [];
      // A call without an area takes no account of the access type: the least and the most
      // privileged callers and the vendor stand for all (and for the narrower rules above).
      const callers = isArea(def.guard) ? CALLERS : CALLERS.filter((c) => REPRESENTATIVE.includes(c.label));
      for (const caller of callers) {
        const who = ENDS_SESSION.has(operationId) ? await signIn(caller) : tokens.get(caller.label)!;
        const want = guardAnswer(caller, def.guard, operationId);
        // The service's narrower rule refuses after validation: send it a valid call.
        const narrowed = want !== 'pass' && guardAnswer(caller, def.guard, '') === 'pass';
        const opts = narrowed ? serviceProbe(def) : guardProbe(def);
        const res = await call(who.token, opts);
        const seen = `${caller.label}: ${res.statusCode} ${res.body.slice(0, 200)}`;
        expect(res.statusCode, seen).toBeLessThan(500);
        if (want === 'pass') {
          expect(res.statusCode, seen).not.toBe(401);
          expect(res.statusCode, seen).not.toBe(403);
          // Past the guard, a valid call on nothing that exists meets no narrower rule of the
          // service that NARROWER does not list (the Company Admin may do everything).
          if (isArea(def.guard) && caller.accessType !== 'COMPANY ADMIN') {
            const deeper = await call(who.token, serviceProbe(def));
            const told = `${caller.label}, a valid call: ${deeper.statusCode} ${deeper.body.slice(0, 200)}`;
            // A call to an outside server (`upstream`: SMTP, LDAP) may answer 502 when the
            // settings another walk saved point nowhere: that is past every access rule.
            if (def.upstream && deeper.statusCode === 502) continue;
            expect(deeper.statusCode, told).toBeLessThan(500);
            expect(deeper.statusCode, told).not.toBe(401);
            expect(deeper.statusCode, told).not.toBe(403);
          }
        } else {
          expect(`${res.statusCode} ${res.json().code}`, seen).toBe(`403 ${want}`);
          refusals.push({ action: 'access.denied', userId: who.userId, url: opts.url as string });
        }
      }
      await expectAudited(since, ...refusals);
    },
  );
});

// ---- V8.2.2 data level ---------------------------------------------------------------------

/** The fields of a call that carry ids (`file_id`, `file_ids`, `folder_id`, `ids`, `id`). */
function idFields(def: EndpointDef): string[] {
  const out: string[] = [];
  for (const part of ['params', 'query', 'body'] as const)
    for (const key of objectKeys(def[part] as z.ZodType | undefined)) {
      if (!/(^|_)ids?$/.test(key)) continue;
      const field = fieldSchema(def[part] as z.ZodType, key);
      const element = isArraySchema(field) ? (field as unknown as { element: z.ZodType }).element : field;
      if (isIntegerSchema(element)) out.push(`${part}.${key}`);
    }
  return out;
}

/** The least-privileged caller who passes the entry's function-level guard. */
function objectCaller(def: EndpointDef): { token: string; userId: number; grants: boolean } {
  const guard = def.guard;
  if (!isArea(guard)) return { token: staff.token, userId: staff.id, grants: true };
  const caller = CALLERS.find(
    (c) => !c.pending && c.role === 'admin' && canAccess(c.accessType, guard.area, guard.access),
  );
  if (!caller) throw new Error(`No access type may call ${def.path}`);
  // Signed in as admin with File Control, the caller sees every live object: none is hidden
  // but a gone one, and none is seen with too few rights.
  return { ...tokens.get(caller.label)!, grants: false };
}

const withObjectGuard = ENTRIES.filter((e) => guardedField(e.operationId, e.def));

describe('V8.2.2 data level: object guards', () => {
  it.concurrent.each(titled(withObjectGuard))(
    'V8.2.2 / V16.3.2: %s on objects of others and of unseen categories',
    async (operationId, def) => {
      const g = guardedField(operationId, def)!;
      const many = isArraySchema(schemaAt(def, g.from));
      const who = objectCaller(def);
      const send = async (id: number | number[], extra: Record<string, unknown> = {}) => {
        const values = sampled(def);
        Object.assign(values.body, SERVICE_CHECKED[operationId]?.body?.() ?? {}, extra);
        setAt(values, g.from, many && !Array.isArray(id) ? [id] : id);
        const opts = request(def, values);
        const since = await lastAuditId();
        return { res: await call(who.token, opts), since, url: opts.url as string };
      };

      // Hidden (no grant on its category) or gone (deleted): 404, as for an id that does not exist.
      const before = await othersState();
      const missing = await send(2_000_000_000);
      expect(missing.res.statusCode, missing.res.body).toBe(404);
      const unseen = who.grants ? [OBJECTS[g.kind].hidden, OBJECTS[g.kind].gone] : [OBJECTS[g.kind].gone];
      for (const id of unseen) {
        const { res, since, url } = await send(id);
        expect(`${id}: ${res.statusCode} ${res.body}`).toBe(`${id}: 404 ${missing.res.body}`);
        expect(res.json().code).toBe(`${g.code}.not_found`);
        await expectAudited(since, { action: 'access.not_found', userId: who.userId, url });
      }

      // Seen with view only, where the call needs more: 403, nothing changed.
      if (who.grants && !VIEW_ONLY_GIVES[g.kind].includes(g.right)) {
        const { res, since, url } = await send(OBJECTS[g.kind].viewOnly);
        expect(res.statusCode, res.body).toBe(403);
        expect(res.json().code).toBe(`${g.code}.forbidden`);
        await expectAudited(since, { action: 'access.denied', userId: who.userId, url });
      }
      expect(await othersState(), 'a refused call changed what staff may not change').toBe(before);

      // An object the caller holds every right on passes the guard (whatever the call then says).
      const { res } = await send(await fresh(g.kind));
      expect(res.statusCode, res.body).not.toBe(401);
      expect(res.statusCode, res.body).not.toBe(403);
      if (res.statusCode === 404) expect(res.json().code, res.body).not.toBe(`${g.code}.not_found`);
    },
  );

  // Signed in as admin, the Auditor reads every file and changes none; the vendor, with no
  // File Control, sees no file at all.
  const everyones = withObjectGuard.filter((e) => !isArea(e.def.guard));
  it.concurrent.each(titled(everyones))(
    'V8.2.2 / V16.3.2: %s for the Auditor (reads all, changes nothing) and the vendor (sees none)',
    async (operationId, def) => {
      const g = guardedField(operationId, def)!;
      const many = isArraySchema(schemaAt(def, g.from));
      const id = await fresh(g.kind);
      const values = sampled(def);
      Object.assign(values.body, SERVICE_CHECKED[operationId]?.body?.() ?? {});
      setAt(values, g.from, many ? [id] : id);
      const opts = request(def, values);
      // bulk-move may first refuse the category it moves into (upload there).
      const kinds = SERVICE_CHECKED[operationId]?.body ? [g.code, 'category'] : [g.code];
      const auditor = tokens.get('Auditor as admin')!;
      const vendor = tokens.get('DATAMAX ADMIN as admin')!;
      const since = await lastAuditId();
      const read = await call(auditor.token, opts);
      const seen = `Auditor: ${read.statusCode} ${read.body.slice(0, 200)}`;
      if (g.right === 'view' || g.right === 'download') {
        expect(read.statusCode, seen).not.toBe(403);
        if (read.statusCode === 404) expect(read.json().code, seen).not.toBe(`${g.code}.not_found`);
      } else {
        expect(read.statusCode, seen).toBe(403);
        expect(
          kinds.map((k) => `${k}.forbidden`),
          seen,
        ).toContain(read.json().code);
      }
      const none = await call(vendor.token, request(def, values));
      expect(none.statusCode, none.body).toBe(404);
      expect(
        kinds.map((k) => `${k}.not_found`),
        none.body,
      ).toContain(none.json().code);
      const refusals: Refusal[] = [
        { action: 'access.not_found', userId: vendor.userId, url: opts.url as string },
      ];
      if (g.right !== 'view' && g.right !== 'download')
        refusals.push({ action: 'access.denied', userId: auditor.userId, url: opts.url as string });
      await expectAudited(since, ...refusals);
    },
  );

  const bulk = withObjectGuard.filter((e) => {
    const g = guardedField(e.operationId, e.def)!;
    return isArraySchema(schemaAt(e.def, g.from));
  });
  it.each(titled(bulk))(
    'V8.2.2 / V16.3.2: %s refuses a mix of an allowed and a forbidden id whole',
    async (operationId, def) => {
      const g = guardedField(operationId, def)!;
      const who = objectCaller(def);
      const forbidden: Array<[number, number]> = who.grants
        ? [
            [OBJECTS[g.kind].hidden, 404],
            [OBJECTS[g.kind].gone, 404],
          ]
        : [[OBJECTS[g.kind].gone, 404]];
      if (who.grants && !VIEW_ONLY_GIVES[g.kind].includes(g.right))
        forbidden.push([OBJECTS[g.kind].viewOnly, 403]);
      for (const [bad, status] of forbidden) {
        const good = await fresh(g.kind);
        for (const ids of [
          [good, bad],
          [bad, good],
        ]) {
          const values = sampled(def);
          Object.assign(values.body, SERVICE_CHECKED[operationId]?.body?.() ?? {});
          setAt(values, g.from, ids);
          const state = async () => ({
            others: await othersState(),
            writes: await t.db.auditEvent.count({ where: { type: { not: 'security' } } }),
            files: await t.db.file.findMany({ where: { id: { in: [good, bad] } }, orderBy: { id: 'asc' } }),
            attachments: await t.db.attachment.count(),
            follows: await t.db.fileFollow.count(),
            runs: await t.db.workflowInstance.count(),
          });
          const before = await state();
          const since = await lastAuditId();
          const opts = request(def, values);
          const res = await call(who.token, opts);
          expect(`${ids}: ${res.statusCode}`, res.body).toBe(`${ids}: ${status}`);
          expect(await state()).toEqual(before);
          const action = status === 404 ? 'access.not_found' : 'access.denied';
          await expectAudited(since, { action, userId: who.userId, url: opts.url as string });
        }
      }
    },
  );
});

/** The objects of others an id field is fed: one of each kind staff may not see or change. */
const FOREIGN = {
  hiddenFile: ID.hiddenFile,
  hiddenCategory: ID.hiddenCategory,
  hiddenVersion: ID.hiddenVersion,
  hiddenAttachment: ID.hiddenAttachment,
  othersTrashedFile: ID.othersTrashedFile,
  othersSavedView: ID.othersSavedView,
  othersNotification: ID.othersNotification,
  viewOnlyFile: ID.viewOnlyFile,
  viewOnlyCategory: ID.viewOnlyCategory,
};

describe('V8.2.2 data level: every id a call takes, given the objects of others', () => {
  const taking = ENTRIES.filter(
    (e) => e.def.guard !== 'public' && !isArea(e.def.guard) && idFields(e.def).length > 0,
  );
  it.concurrent.each(titled(taking))(
    'V8.2.2: %s shows and changes nothing of others',
    async (operationId, def) => {
      const before = await othersState();
      for (const where of idFields(def)) {
        for (const [name, id] of Object.entries(FOREIGN)) {
          const values = sampled(def);
          Object.assign(values.body, SERVICE_CHECKED[operationId]?.body?.() ?? {});
          setAt(values, where, isArraySchema(schemaAt(def, where)) ? [id] : id);
          const res = await call(staff.token, request(def, values));
          const seen = `${where} = ${name}: ${res.statusCode} ${res.body.slice(0, 300)}`;
          expect(res.statusCode, seen).toBeLessThan(500);
          expect(res.body, seen).not.toContain(SECRET);
        }
        expect(await othersState(), `${where} changed what staff may not change`).toBe(before);
      }
    },
  );
});

describe('V8.2.2 data level: lists and searches', () => {
  const lists = ENTRIES.filter(
    (e) =>
      e.def.method === 'GET' && !isArea(e.def.guard) && e.def.guard !== 'public' && !e.def.path.includes('{'),
  );
  it.concurrent.each(titled(lists))(
    'V8.2.2: %s names nothing staff may not see, searched for too',
    async (_id, def) => {
      const values = sampled(def);
      const searched = sampled(def);
      for (const key of objectKeys(def.query))
        if (fieldSchema(def.query, key)?.safeParse(SECRET).success) searched.query[key] = SECRET;
      for (const v of [values, searched]) {
        const res = await call(staff.token, request(def, v));
        const seen = `${res.statusCode} ${res.body.slice(0, 300)}`;
        expect(res.statusCode, seen).toBeLessThan(500);
        expect(res.body, seen).not.toContain(SECRET);
      }
    },
  );
});

describe('V8.2.2 data level: users beyond a User Administration Admin', () => {
  const settingsWrites = ENTRIES.filter(
    (e) =>
      isArea(e.def.guard) &&
      e.def.guard.area === 'settings' &&
      e.def.guard.access === 'write' &&
      idFields(e.def).length > 0,
  );
  const usersState = async () =>
    JSON.stringify(
      [
        await t.db.user.findMany({ where: { id: { in: Object.values(beyond) } }, orderBy: { id: 'asc' } }),
        await t.db.session.findMany({
          where: { userId: { in: Object.values(beyond) } },
          select: { id: true, revokedAt: true, expiresAt: true },
          orderBy: { id: 'asc' },
        }),
      ],
      (_key, value) => (typeof value === 'bigint' ? String(value) : value),
    );
  it.concurrent.each(titled(settingsWrites))(
    'V8.2.2: %s leaves the vendor and a Company Admin alone',
    async (operationId, def) => {
      const who = tokens.get('User Administration Admin as admin')!;
      const before = await usersState();
      for (const where of idFields(def))
        for (const [name, id] of Object.entries(beyond)) {
          const values = sampled(def);
          setAt(values, where, isArraySchema(schemaAt(def, where)) ? [id] : id);
          const res = await call(who.token, request(def, values));
          expect(res.statusCode, `${operationId} ${where} = ${name}: ${res.body.slice(0, 300)}`).toBeLessThan(
            500,
          );
        }
      expect(await usersState(), `${operationId} changed a user beyond the caller`).toBe(before);
    },
  );
});
