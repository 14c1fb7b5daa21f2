import type { InjectOptions } from 'fastify';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs } from '../../../test/access.js';
import type { TestContext } from '../../../test/app.js';
import { type FilePart, multipart, tinyPng } from '../../../test/multipart.js';
import { type SeededUser, seed, seededApp } from '../../../test/seed.js';

// The files area's answers to the outside attack and the mutation run (issue 23): images that
// declare too many pixels, decoding off the event loop, what a view-only person and a public
// link may hand out, links that outlive their creator's rights.

let t: TestContext;
let owner: SeededUser;
const u = { owner: 0, viewer: 0 };
const tok = { owner: '', viewer: '' };
let cat = 0; // owner may upload, edit, delete, share; viewer may view
const MAX_UPLOAD = 256 * 1024;
/** How far the app's clock is ahead of the real one (for expiries). */
let clockAheadMs = 0;

beforeAll(async () => {
  const world = await seededApp(
    {
      users: {
        owner: { firstName: 'Olive', lastName: 'Owner' },
        viewer: { firstName: 'Vic', lastName: 'Viewer' },
      },
      categories: { shared: { grants: { owner: ['upload', 'edit', 'delete', 'share'], viewer: [] } } },
    },
    { MAX_UPLOAD_BYTES: String(MAX_UPLOAD) },
    { now: () => new Date(Date.now() + clockAheadMs) },
  );
  t = world.t;
  owner = world.users.owner;
  Object.assign(u, { owner: world.users.owner.id, viewer: world.users.viewer.id });
  Object.assign(tok, { owner: world.users.owner.token, viewer: world.users.viewer.token });
  cat = world.categories.shared.id;
});
afterAll(() => t.close());

const call = (token: string | null, opts: InjectOptions) => callAs(t, token, opts);

async function uploaded(files: FilePart[], token = tok.owner, folderId = cat) {
  const form = multipart({ folder_id: String(folderId), file: files });
  const res = await call(token, { method: 'POST', url: '/api/new-upload', ...form });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.files as Array<{ id: number; name: string }>;
}

async function indexedFile(name = 'indexed.txt', token = tok.owner, folderId = cat) {
  const [f] = await uploaded(
    [{ content: Buffer.from(`content of ${name}\n`), filename: name }],
    token,
    folderId,
  );
  const res = await call(token, {
    method: 'POST',
    url: '/api/submitmetas',
    payload: { file_id: f?.id, values: [] },
  });
  expect(res.statusCode, res.body).toBe(200);
  return f as { id: number; name: string };
}

async function attached(files: FilePart[]) {
  const f = await indexedFile();
  const form = multipart({ file_id: String(f.id), file: files });
  const res = await call(tok.owner, { method: 'POST', url: '/api/other-files-upload', ...form });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as Array<{ id: number }>).map((a) => a.id);
}

describe('POST /api/download-many-other-files with large images', () => {
  it('refuses an image that declares more than 40 megapixels, at once, naming it', async () => {
    // 8000 x 8000 grey pixels: 64 MB of pixels in a PNG of about 62 KB.
    const bomb = tinyPng(8000, 8000);
    expect(bomb.length).toBeLessThan(100 * 1024);
    const [small, big] = await attached([
      { content: tinyPng(4, 3), filename: 'small.png' },
      { content: bomb, filename: 'huge.png' },
    ]);
    const before = Date.now();
    const res = await call(tok.owner, {
      method: 'POST',
      url: '/api/download-many-other-files',
      payload: { ids: [small, big] },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toContain('"huge.png" is 8000 x 8000 pixels');
    expect(res.json().errors[0].path).toBe('body.ids');
    // Refused from its header: well before decoding 64 megapixels could end.
    expect(Date.now() - before).toBeLessThan(5000);
    // The small one alone still combines.
    const ok = await call(tok.owner, {
      method: 'POST',
      url: '/api/download-many-other-files',
      payload: { ids: [small] },
    });
    expect(ok.statusCode).toBe(200);
    expect((await PDFDocument.load(ok.rawPayload)).getPageCount()).toBe(1);
  });

  it('decodes off the event loop: the API keeps answering while a large image is combined', async () => {
    // 3000 x 3000 (9 megapixels, under the limit) takes pdf-lib a second or more to embed.
    const [id] = await attached([{ content: tinyPng(3000, 3000), filename: 'big.png' }]);
    const started = Date.now();
    let done = false;
    const combined = call(tok.owner, {
      method: 'POST',
      url: '/api/download-many-other-files',
      payload: { ids: [id] },
    }).finally(() => {
      done = true;
    });
    const answered: number[] = [];
    while (!done) {
      const health = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(health.statusCode).toBe(200);
      if (!done) answered.push(Date.now());
      await new Promise((r) => setTimeout(r, 20));
    }
    const res = await combined;
    const ended = Date.now();
    expect(res.statusCode, res.body).toBe(200);
    expect((await PDFDocument.load(res.rawPayload)).getPageCount()).toBe(1);
    // Health answered all along: no wait between two answers (or the start and the first, the
    // last and the end) was near the combine's whole time, as it is when decoding blocks.
    const marks = [started, ...answered, ended];
    const longest = Math.max(...marks.slice(1).map((m, i) => m - (marks[i] ?? m)));
    expect(answered.length).toBeGreaterThan(3);
    expect(longest).toBeLessThan((ended - started) / 3);
  });
});

/** A user who may view `fileId` but not download it: a share without download, from the owner. */
async function viewOnlyReader(fileId: number) {
  const {
    users: { reader },
  } = await seed(t, { users: { reader: {} } });
  const res = await call(tok.owner, {
    method: 'POST',
    url: `/api/share-file/${fileId}`,
    payload: { user_ids: [reader.id], download: false },
  });
  expect(res.statusCode, res.body).toBe(200);
  return reader.token;
}

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

describe('GET /api/version-preview/{id} without the download right', () => {
  it('shows inline kinds to a view-only user, refuses a type that would download (403, audited)', async () => {
    // A category the owner alone reaches: the reader's only way in is the share.
    const {
      files: { docx, notes },
    } = await seed(t, {
      users: { owner },
      categories: { own: { grants: { owner: ['upload', 'edit', 'share'] } } },
      files: {
        docx: {
          owner: 'owner',
          category: 'own',
          name: 'contract.docx',
          mimeType: DOCX,
          content: Buffer.from('PK\u0003\u0004 not really a document'),
        },
        notes: { owner: 'owner', category: 'own' },
      },
    });
    const reader = await viewOnlyReader(docx.id);
    const readerOfNotes = await viewOnlyReader(notes.id);

    // The reader sees the file, but may not download it.
    expect((await call(reader, { method: 'GET', url: `/api/file-view/${docx.id}` })).statusCode).toBe(200);
    expect((await call(reader, { method: 'GET', url: `/api/download-files/${docx.id}` })).statusCode).toBe(
      403,
    );
    const refused = await call(reader, {
      method: 'GET',
      url: `/api/version-preview/${docx.currentVersionId}`,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toContain('you may not download it');
    expect(refused.body).not.toContain('not really a document');
    expect(
      await t.db.auditEvent.count({
        where: {
          action: 'access.denied',
          details: { path: ['code'], equals: 'file.preview_needs_download' },
        },
      }),
    ).toBeGreaterThan(0);

    // Plain text is shown inline to a view-only user; the owner previews (downloads) the DOCX.
    const text = await call(readerOfNotes, {
      method: 'GET',
      url: `/api/version-preview/${notes.currentVersionId}`,
    });
    expect(text.statusCode).toBe(200);
    expect(text.headers['content-disposition']).toMatch(/^inline/);
    const mine = await call(tok.owner, {
      method: 'GET',
      url: `/api/version-preview/${docx.currentVersionId}`,
    });
    expect(mine.statusCode).toBe(200);
    expect(mine.body).toContain('not really a document');
  });
});

async function publicLink(token: string, fileId: number, extra: Record<string, unknown> = {}) {
  return call(token, {
    method: 'POST',
    url: `/api/share-file/${fileId}`,
    payload: { public_link: true, download: false, ...extra },
  });
}
const publicContent = (linkToken: string, query = '') =>
  call(null, { method: 'GET', url: `/api/public/file-content/${linkToken}${query}` });

describe('public links give no more than their maker holds', () => {
  it('a sharer without the download right cannot make a link (403, no link stored)', async () => {
    const {
      users: { sharer },
      files: { f },
    } = await seed(t, {
      users: { owner, sharer: {} },
      categories: { own: { grants: { owner: ['upload', 'edit', 'share'] } } },
      files: { f: { owner: 'owner', category: 'own' } },
    });
    // The owner lets the sharer view and share, not download.
    const granted = await call(tok.owner, {
      method: 'POST',
      url: '/api/update-file-permission',
      payload: {
        file_id: f.id,
        inherit_category: true,
        grants: [{ user_id: sharer.id, download: false, share: true }],
      },
    });
    expect(granted.statusCode, granted.body).toBe(200);
    const sharerToken = sharer.token;
    expect((await call(sharerToken, { method: 'GET', url: `/api/download-files/${f.id}` })).statusCode).toBe(
      403,
    );

    const res = await publicLink(sharerToken, f.id);
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().message).toContain('you may not download it yourself');
    expect(await t.db.share.count({ where: { fileId: f.id } })).toBe(0);
    expect(res.body).not.toMatch(/"token"/);
  });

  // A sharer holding view, download and share through the category, and a live link of theirs.
  async function sharerWithLink() {
    const {
      users: { sharer },
      categories: { category },
      files: { f },
    } = await seed(t, {
      users: { owner, sharer: {} },
      categories: { category: { grants: { owner: ['upload', 'edit', 'share'], sharer: ['share'] } } },
      files: { f: { owner: 'owner', category: 'category', content: Buffer.from('the shared words\n') } },
    });
    const made = await publicLink(sharer.token, f.id);
    expect(made.statusCode, made.body).toBe(200);
    const link = made.json().data.link.token as string;
    const before = await publicContent(link);
    expect(before.statusCode).toBe(200);
    expect(before.body).toBe('the shared words\n');
    return { sharer, category, file: f, link, shareId: made.json().data.link.id as string };
  }

  it('a link stops when its maker loses the right it gives', async () => {
    const { sharer, category, link } = await sharerWithLink();
    await t.db.categoryPermission.deleteMany({ where: { categoryId: category.id, userId: sharer.id } });
    const after = await publicContent(link);
    expect(after.statusCode).toBe(404);
    expect(after.body).not.toContain('the shared words');
    expect((await call(null, { method: 'GET', url: `/api/public/file-view/${link}` })).statusCode).toBe(404);
  });

  it('a link stops when its maker is deactivated', async () => {
    const { sharer, link } = await sharerWithLink();
    await t.db.user.update({ where: { id: sharer.id }, data: { status: 'deactivated' } });
    expect((await publicContent(link)).statusCode).toBe(404);
    // Active again: the link works again (it was never revoked).
    await t.db.user.update({ where: { id: sharer.id }, data: { status: 'active' } });
    expect((await publicContent(link)).statusCode).toBe(200);
  });

  it('a link stops when its maker is deleted', async () => {
    const { sharer, link } = await sharerWithLink();
    await t.db.user.update({ where: { id: sharer.id }, data: { status: 'deleted', deletedAt: new Date() } });
    expect((await publicContent(link)).statusCode).toBe(404);
  });

  it('an expired link is refused, one still within its time works', async () => {
    const { link, shareId } = await sharerWithLink();
    await t.db.share.update({ where: { id: shareId }, data: { expiresAt: new Date(Date.now() + 60_000) } });
    expect((await publicContent(link)).statusCode).toBe(200);
    await t.db.share.update({ where: { id: shareId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await publicContent(link)).statusCode).toBe(404);
    expect((await call(null, { method: 'GET', url: `/api/public/file-view/${link}` })).statusCode).toBe(404);
  });

  it("a password link's proof of the password lasts an hour", async () => {
    const {
      files: { f },
    } = await seed(t, {
      files: { f: { owner, category: { id: cat }, content: Buffer.from('behind a password\n') } },
    });
    const link = (await publicLink(tok.owner, f.id, { password: 'open sesame 1' })).json().data.link.token;
    const unlocked = await call(null, {
      method: 'POST',
      url: `/api/public/file-unlock/${link}`,
      payload: { password: 'open sesame 1' },
    });
    expect(unlocked.statusCode, unlocked.body).toBe(200);
    const access = unlocked.json().data.access as string;
    try {
      clockAheadMs = 59 * 60_000;
      expect((await publicContent(link, `?access=${access}`)).statusCode).toBe(200);
      clockAheadMs = 61 * 60_000;
      const late = await publicContent(link, `?access=${access}`);
      expect(late.statusCode).toBe(404);
      expect(late.body).not.toContain('behind a password');
    } finally {
      clockAheadMs = 0;
    }
  });
});

describe('rights and holders the mutation run found untested', () => {
  it('moving a file needs upload on the target category: view alone is refused (403, not moved)', async () => {
    const f = await indexedFile('moving.txt');
    const { categories } = await seed(t, {
      users: { owner },
      categories: { seen: { grants: { owner: [] } }, into: { grants: { owner: ['upload'] } } },
    });
    const [seen, into] = [categories.seen.id, categories.into.id];
    const refused = await call(tok.owner, {
      method: 'POST',
      url: '/api/update-file-category',
      payload: { file_id: f.id, folder_id: seen },
    });
    expect(refused.statusCode, refused.body).toBe(403);
    expect((await t.db.file.findUniqueOrThrow({ where: { id: f.id } })).categoryId).toBe(cat);
    const moved = await call(tok.owner, {
      method: 'POST',
      url: '/api/update-file-category',
      payload: { file_id: f.id, folder_id: into },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await t.db.file.findUniqueOrThrow({ where: { id: f.id } })).categoryId).toBe(into);
  });

  it("rollback is refused under another person's lock or check-out (409 naming them), allowed when free", async () => {
    const { users, categories } = await seed(t, {
      users: { owner, editor: { firstName: 'Eddie', lastName: 'Editor' } },
      categories: { category: { grants: { owner: ['upload', 'edit'], editor: ['edit'] } } },
    });
    const { editor } = users;
    const category = categories.category.id;
    const f = await indexedFile('rolled.txt', tok.owner, category);
    const editorToken = editor.token;
    const version = (await t.db.file.findUniqueOrThrow({ where: { id: f.id } })).currentVersionId;
    const versions = () => t.db.fileVersion.count({ where: { fileId: f.id } });
    const rollback = () =>
      call(editorToken, {
        method: 'POST',
        url: '/api/rollback-version',
        payload: { file_id: f.id, version_id: version },
      });
    const act = async (url: string, payload: Record<string, unknown>) => {
      const res = await call(tok.owner, { method: 'POST', url, payload: { file_id: f.id, ...payload } });
      expect(res.statusCode, res.body).toBe(200);
    };

    await act('/api/lock-file', { status: '1' });
    const underLock = await rollback();
    expect(underLock.statusCode, underLock.body).toBe(409);
    expect(underLock.json().message).toContain('Olive');
    expect(await versions()).toBe(1);
    await act('/api/lock-file', { status: '0' });

    await act('/api/check-out', {});
    const checkedOut = await rollback();
    expect(checkedOut.statusCode, checkedOut.body).toBe(409);
    expect(await versions()).toBe(1);
    const checkedIn = await call(tok.owner, {
      method: 'POST',
      url: '/api/check-in',
      ...multipart({ file_id: String(f.id) }),
    });
    expect(checkedIn.statusCode, checkedIn.body).toBe(200);

    const free = await rollback();
    expect(free.statusCode, free.body).toBe(200);
    expect(await versions()).toBe(2);
  });

  it('an upload of exactly MAX_UPLOAD_BYTES is kept; one byte more is refused (413)', async () => {
    const exact = await call(tok.owner, {
      method: 'POST',
      url: '/api/new-upload',
      ...multipart({
        folder_id: String(cat),
        file: [{ content: Buffer.alloc(MAX_UPLOAD, 7), filename: 'exact.bin' }],
      }),
    });
    expect(exact.statusCode, exact.body).toBe(200);
    const stored = await t.db.file.findUniqueOrThrow({
      where: { id: exact.json().data.files[0].id },
      include: { currentVersion: true },
    });
    expect(stored.currentVersion?.size).toBe(BigInt(MAX_UPLOAD));
    const over = await call(tok.owner, {
      method: 'POST',
      url: '/api/new-upload',
      ...multipart({
        folder_id: String(cat),
        file: [{ content: Buffer.alloc(MAX_UPLOAD + 1, 7), filename: 'over.bin' }],
      }),
    });
    expect(over.statusCode).toBe(413);
  });
});
