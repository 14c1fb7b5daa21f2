import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs } from './access.js';
import { createTestApp, type TestContext } from './app.js';
import { bearer, TEST_PASSWORD } from './factories.js';
import { multipart } from './multipart.js';
import { seed } from './seed.js';

// OWASP ASVS 5.0, level 2: the session, access-control, input and file-handling requirements
// Quire claims, one row each (the requirement's id in the test's title), each checked through
// the real app on its own database. A row names what is checked of the requirement; where
// Quire meets only part of a requirement, the title says which part.

let t: TestContext;
const people = {} as Record<'alice' | 'bob', { id: number; username: string; token: string }>;
let folder = 0;
let alicesFile = 0;
let bobsFile = 0;

beforeAll(async () => {
  t = await createTestApp({ MAX_UPLOAD_BYTES: '4096' });
  // Alice files into a category Bob cannot see; Bob has a file of his own elsewhere.
  const world = await seed(t, {
    users: { alice: {}, bob: {} },
    categories: { alices: { grants: { alice: ['upload', 'edit'] } }, bobs: { grants: { bob: ['edit'] } } },
    files: { alices: { owner: 'alice', category: 'alices' }, bobs: { owner: 'bob', category: 'bobs' } },
  });
  Object.assign(people, world.users);
  folder = world.categories.alices.id;
  alicesFile = world.files.alices.id;
  bobsFile = world.files.bobs.id;
});
afterAll(() => t.close());

const as = (who: keyof typeof people | null, opts: Parameters<typeof callAs>[2]) =>
  callAs(t, who ? people[who].token : null, opts);

const signIn = async (username: string) => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { username, password: TEST_PASSWORD, role: 'user' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.access_token as string;
};

function upload(who: keyof typeof people, content: Buffer, filename: string) {
  const form = multipart({ folder_id: String(folder), file: { content, filename } });
  return as(who, { method: 'POST', url: '/api/new-upload', headers: form.headers, payload: form.payload });
}

const counts = async () => ({
  files: await t.db.file.count(),
  blobs: await t.db.blob.count(),
  downloads: await t.db.auditEvent.count({ where: { action: 'file.downloaded' } }),
});

interface Requirement {
  id: string;
  what: string;
  check: () => Promise<void>;
}

const TABLE: Requirement[] = [
  // ---- V7 Session management -----------------------------------------------------------------
  {
    id: 'V7.2.1',
    what: 'a session token is checked by the server: a made-up one of the right shape is refused (401)',
    check: async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/user/current',
        headers: bearer('A'.repeat(43)),
      });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('auth.not_authenticated');
    },
  },
  {
    id: 'V7.2.3',
    what: 'reference tokens are random, unique and of 256 bits; the database keeps only their sha256',
    check: async () => {
      const tokens = [await signIn(people.alice.username), await signIn(people.alice.username)];
      expect(new Set(tokens).size).toBe(2);
      for (const token of tokens) {
        expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 random bytes, base64url
        expect(await t.db.session.count({ where: { tokenHash: token } })).toBe(0);
      }
    },
  },
  {
    id: 'V7.2.4',
    what: 'each sign-in makes a new session token (part: other sessions stay, by design)',
    check: async () => {
      const first = await signIn(people.bob.username);
      const second = await signIn(people.bob.username);
      expect(second).not.toBe(first);
    },
  },
  {
    id: 'V7.4.1',
    what: 'after sign-out the session token is refused (401)',
    check: async () => {
      const token = await signIn(people.bob.username);
      const me = () => t.app.inject({ method: 'GET', url: '/api/user/current', headers: bearer(token) });
      expect((await me()).statusCode).toBe(200);
      expect(
        (await t.app.inject({ method: 'POST', url: '/api/logout', headers: bearer(token) })).statusCode,
      ).toBe(200);
      expect((await me()).statusCode).toBe(401);
    },
  },
  // ---- V8 Authorization ----------------------------------------------------------------------
  {
    id: 'V8.2.1',
    what: 'function-level: administration calls refuse anonymous (401) and General staff (403, audited)',
    check: async () => {
      for (const url of ['/api/client-errors', '/api/backup']) {
        expect((await as(null, { method: 'GET', url })).statusCode, url).toBe(401);
        const refused = await as('bob', { method: 'GET', url });
        expect(refused.statusCode, url).toBe(403);
      }
      expect(
        await t.db.auditEvent.count({ where: { action: 'access.denied', userId: people.bob.id } }),
      ).toBeGreaterThanOrEqual(2);
    },
  },
  {
    id: 'V8.2.2',
    what: "data-specific: another person's file is a 404 (as one that does not exist), read or changed",
    check: async () => {
      const before = await t.db.file.findUniqueOrThrow({ where: { id: alicesFile } });
      const view = await as('bob', { method: 'GET', url: `/api/file-view/${alicesFile}` });
      expect(view.statusCode).toBe(404);
      const missing = await as('bob', { method: 'GET', url: '/api/file-view/99999999' });
      expect(view.json()).toEqual(missing.json());
      const rename = await as('bob', {
        method: 'POST',
        url: '/api/edit-file-name',
        payload: { file_id: alicesFile, name: 'taken.txt' },
      });
      expect(rename.statusCode).toBe(404);
      expect((await t.db.file.findUniqueOrThrow({ where: { id: alicesFile } })).name).toBe(before.name);
    },
  },
  {
    id: 'V8.2.2',
    what: 'data-specific, many at once: a zip of an own and a foreign file is refused whole',
    check: async () => {
      const before = await counts();
      const res = await as('bob', {
        method: 'POST',
        url: '/api/files/download-zip',
        payload: { file_ids: [bobsFile, alicesFile] },
      });
      expect(res.statusCode).toBe(404);
      expect(await counts()).toEqual(before);
    },
  },
  // ---- V2 Validation -------------------------------------------------------------------------
  {
    id: 'V2.2.1',
    what: 'input is checked against its expected shape on the server: 400 naming the field, nothing kept',
    check: async () => {
      const before = await t.db.file.findUniqueOrThrow({ where: { id: alicesFile } });
      for (const payload of [
        { file_id: alicesFile, name: '' },
        { file_id: 'one', name: 'x.txt' },
        { file_id: alicesFile, name: 'a\ud800b.txt' },
      ]) {
        const res = await as('alice', { method: 'POST', url: '/api/edit-file-name', payload });
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json().errors[0].path).toMatch(/^body\.(name|file_id)$/);
      }
      expect((await t.db.file.findUniqueOrThrow({ where: { id: alicesFile } })).name).toBe(before.name);
    },
  },
  // ---- V5 File handling ----------------------------------------------------------------------
  {
    id: 'V5.2.1',
    what: 'a file over the size limit is refused (413) and nothing of it is kept',
    check: async () => {
      const before = await counts();
      const res = await upload('alice', Buffer.alloc(4097, 'x'), 'big.txt');
      expect(res.statusCode).toBe(413);
      expect(await counts()).toEqual(before);
      expect((await upload('alice', Buffer.alloc(4096, 'x'), 'fits.txt')).statusCode).toBe(200);
    },
  },
  {
    id: 'V5.2.2',
    what: 'the type of a file is read from its content, never from its name or claimed type',
    check: async () => {
      const res = await upload('alice', Buffer.from('plain words, not a picture\n'), 'photo.png');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.files[0].mime_type).toBe('text/plain');
    },
  },
  {
    id: 'V5.3.2',
    what: 'a file name is only shown: a path in it is cut to its last part, and no path reaches the disk',
    check: async () => {
      const res = await upload('alice', Buffer.from('climbing\n'), '../../../etc/passwd');
      expect(res.statusCode, res.body).toBe(200);
      const file = res.json().data.files[0];
      expect(file.name).toBe('passwd');
      const version = await t.db.fileVersion.findFirstOrThrow({ where: { fileId: file.id } });
      expect(version.blobId).toMatch(/^[0-9a-f]{64}$/); // stored by content address
    },
  },
  {
    id: 'V3.2.1',
    what: 'uploaded HTML is never rendered by the browser: attachment, sandboxed, not sniffed',
    check: async () => {
      const up = await upload('alice', Buffer.from('<html><script>alert(1)</script></html>'), 'page.html');
      expect(up.statusCode, up.body).toBe(200);
      const id = up.json().data.files[0].id;
      const res = await as('alice', { method: 'GET', url: `/api/download-files/${id}` });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-disposition']).toMatch(/^attachment;/);
      expect(res.headers['content-security-policy']).toMatch(/sandbox/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    },
  },
  {
    id: 'V3.4.4',
    what: 'API answers, refusals included, carry X-Content-Type-Options: nosniff',
    check: async () => {
      for (const res of [
        await as('alice', { method: 'GET', url: '/api/user/current' }),
        await as(null, { method: 'GET', url: '/api/user/current' }),
        await as('alice', { method: 'GET', url: '/api/no-such-call' }),
      ])
        expect(res.headers['x-content-type-options']).toBe('nosniff');
    },
  },
];

describe('OWASP ASVS 5.0 level 2', () => {
  for (const r of TABLE) it(`${r.id}: ${r.what}`, r.check);
});
