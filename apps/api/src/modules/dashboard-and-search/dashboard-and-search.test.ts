import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs } from '../../../test/access.js';
import type { TestContext } from '../../../test/app.js';
import { textPdf } from '../../../test/documents.js';
import { createCategory, createFile } from '../../../test/factories.js';
import { idsOf, type SeededUser, seed, seededApp, uploadedFile } from '../../../test/seed.js';
import { RANK_WINDOW } from './search.repository.js';
import { highlightName, markedHtml } from './search.service.js';

let t: TestContext;
let staff: SeededUser;
let outsider: SeededUser;
let admin: SeededUser;
let cat1: number;
let child: number;
let cat2: number;
let invoice: number;
let notes: number;
let secret: number;
let ownInCat2: number;
let fields: { text: number; number: number; date: number; select: number };

const as = (who: { token: string } | null, opts: InjectOptions) => callAs(t, who?.token ?? null, opts);
const get = (who: { token: string } | null, url: string) => as(who, { method: 'GET', url });
const filter = (who: { token: string }, payload: unknown, qs = '') =>
  as(who, { method: 'POST', url: `/api/filter-files${qs}`, payload: payload as object });
const ids = (res: { json: () => { data: { items: Array<{ id: number }> } } }) =>
  res.json().data.items.map((f) => f.id);

beforeAll(async () => {
  const person = (firstName: string) => ({ firstName, lastName: 'Tester' });
  const world = await seededApp({
    users: {
      staff: person('Sam'),
      outsider: person('Olga'),
      admin: { ...person('Ada'), accessType: 'COMPANY ADMIN' },
    },
    categories: {
      finance: { name: 'Finance', grants: { staff: [] } },
      invoices: { name: 'Invoices 2026', parent: 'finance' },
      board: { name: 'Board' },
    },
    files: {
      invoice: { owner: 'admin', category: 'finance', name: 'Quarterly invoice March.pdf' },
      notes: { owner: 'admin', category: 'invoices', name: 'notes.txt' },
      secret: { owner: 'admin', category: 'board', name: 'zanzibar secret plans.txt' },
      ownInCat2: { owner: 'staff', category: 'board', name: 'my own draft.txt' },
    },
  });
  ({
    t,
    users: { staff, outsider, admin },
  } = world);
  ({
    finance: { id: cat1 },
    invoices: { id: child },
    board: { id: cat2 },
  } = world.categories);
  ({
    invoice: { id: invoice },
    notes: { id: notes },
    secret: { id: secret },
    ownInCat2: { id: ownInCat2 },
  } = world.files);
  const list = await t.db.valueList.create({
    data: {
      name: 'Approval',
      items: {
        create: [
          { key: 7, label: 'Approved', position: 1 },
          { key: 8, label: 'Rejected', position: 2 },
        ],
      },
    },
    include: { items: true },
  });
  const made = await Promise.all(
    (
      [
        ['Customer', 'text', null],
        ['Amount', 'number', null],
        ['Invoice date', 'date', null],
        ['Status', 'select', list.id],
      ] as const
    ).map(([name, type, valueListId], position) =>
      t.db.metadataField.create({ data: { name, type, valueListId, position } }),
    ),
  );
  fields = { text: made[0]!.id, number: made[1]!.id, date: made[2]!.id, select: made[3]!.id };
  for (const [position, f] of made.entries())
    await t.db.categoryField.create({ data: { categoryId: cat1, fieldId: f.id, position } });

  const approved = list.items.find((i) => i.key === 7)!;
  await t.db.fileFieldValue.createMany({
    data: [
      { fileId: invoice, fieldId: fields.text, valueText: 'Acme Corporation' },
      { fileId: invoice, fieldId: fields.number, valueNumber: 1500 },
      { fileId: invoice, fieldId: fields.date, valueDate: new Date('2026-03-01T00:00:00Z') },
      { fileId: invoice, fieldId: fields.select, valueItemId: approved.id },
      { fileId: notes, fieldId: fields.number, valueNumber: 90 },
    ],
  });
  const tag = await t.db.relatedTag.create({ data: { categoryId: cat1, name: 'treasury' } });
  await t.db.fileTag.create({ data: { fileId: invoice, tagId: tag.id } });
  await t.db.comment.create({
    data: {
      fileId: invoice,
      authorId: admin.id,
      body: 'Please check the zanzibar clause <script>alert(1)</script>',
    },
  });
});
afterAll(() => t.close());

describe('who may search', () => {
  it.each([
    ['GET', '/api/dashboard/table'],
    ['GET', '/api/all-search-files?search=x'],
    ['GET', '/api/search-files?search=x'],
    ['GET', '/api/filter-attributes'],
    ['POST', '/api/filter-files'],
    ['GET', '/api/search/text-status/1'],
  ] as const)('%s %s needs a signed-in user (401, audited)', async (method, url) => {
    const before = await t.db.auditEvent.count({ where: { action: 'access.unauthenticated' } });
    const res = await as(null, { method, url, ...(method === 'POST' ? { payload: {} } : {}) });
    expect(res.statusCode).toBe(401);
    expect(await t.db.auditEvent.count({ where: { action: 'access.unauthenticated' } })).toBe(before + 1);
  });

  it('answers 404 for the text status of a file the caller may not see, 200 for one they may', async () => {
    expect((await get(outsider, `/api/search/text-status/${invoice}`)).statusCode).toBe(404);
    expect((await get(staff, `/api/search/text-status/${invoice}`)).statusCode).toBe(200);
    expect(await t.db.auditEvent.count({ where: { action: 'access.not_found', userId: outsider.id } })).toBe(
      1,
    );
  });
});

describe('GET /api/search-files and /api/all-search-files', () => {
  it('finds by partial words of the name, metadata, tags and comments: only files the caller may see, counted so', async () => {
    for (const [search, want] of [
      ['zanz', [invoice]], // the comment ("zanzibar"); the secret file's name matches too, but Sam may not see it
      ['quarter', [invoice]],
      ['acme', [invoice]],
      ['approved', [invoice]],
      ['treasury', [invoice]],
      ['notes', [notes]],
      ['draft', [ownInCat2]], // in a category Sam may not see, but Sam owns it
    ] as const) {
      const res = await get(staff, `/api/all-search-files?search=${search}`);
      expect(res.statusCode).toBe(200);
      expect(`${search} ${ids(res)}`).toBe(`${search} ${want}`);
      expect(res.json().data.total).toBe(want.length);
    }
    const all = await get(admin, '/api/all-search-files?search=zanzibar');
    expect(ids(all).sort()).toEqual([invoice, secret].sort());
    expect(await get(outsider, '/api/all-search-files?search=zanzibar').then(ids)).toEqual([]);
  });

  it('ranks a match in the name above one in a comment, and shows the matching passage escaped, with <mark>', async () => {
    const res = await get(admin, '/api/all-search-files?search=zanzibar');
    const [first, second] = res.json().data.items;
    expect(first.id).toBe(secret);
    expect(first.name_html).toBe('<mark>zanzibar</mark> secret plans.txt');
    expect(second.id).toBe(invoice);
    expect(second.snippet_html).toContain('<mark>zanzibar</mark>');
    // Nothing but the <mark>s is markup: the text is escaped.
    expect(second.snippet_html.replace(/<\/?mark>/g, '')).not.toMatch(/[<>]/);
    expect(markedHtml('a <script>x</script> & \ue000b\ue001')).toBe(
      'a &lt;script&gt;x&lt;/script&gt; &amp; <mark>b</mark>',
    );
    expect(highlightName('Tom & <Jerry>.txt', ['jer'])).toBe('Tom &amp; &lt;<mark>Jer</mark>ry&gt;.txt');
    expect(highlightName('Tom & <Jerry>.txt', [])).toBe('Tom &amp; &lt;Jerry&gt;.txt');
    expect(second).toMatchObject({
      category: { id: cat1, name: 'Finance' },
      owner: { id: admin.id, name: 'Ada Tester' },
    });
  });

  it('pages 100 by default on the results page and 8 in the header', async () => {
    expect((await get(staff, '/api/all-search-files?search=a')).json().data.quantity).toBe(100);
    expect((await get(staff, '/api/search-files?search=a')).json().data.quantity).toBe(8);
  });

  it('refuses a search without letters or digits and bad paging (400 naming the field)', async () => {
    for (const [qs, path] of [
      ['', 'query.search'],
      ['search=%20%20', 'query.search'],
      ['search=%25%25', 'query.search'],
      ['search=x&quantity=0', 'query.quantity'],
      ['search=x&page=-1', 'query.page'],
    ] as const) {
      const res = await get(staff, `/api/search-files?${qs}`);
      expect(`${qs} ${res.statusCode}`).toBe(`${qs} 400`);
      expect(res.json().errors[0].path).toBe(path);
    }
  });

  it('keeps the index up to date when a name, a comment or a tag changes', async () => {
    await t.db.file.update({ where: { id: notes }, data: { name: 'minutes of the kraken meeting.txt' } });
    expect(await get(staff, '/api/search-files?search=kraken').then(ids)).toEqual([notes]);
    expect(await get(staff, '/api/search-files?search=notes').then(ids)).toEqual([]);
    await t.db.comment.updateMany({ where: { fileId: invoice }, data: { deletedAt: new Date() } });
    expect(await get(staff, '/api/search-files?search=zanzibar').then(ids)).toEqual([]);
    await t.db.relatedTag.updateMany({ where: { name: 'treasury' }, data: { name: 'bookkeeping' } });
    expect(await get(staff, '/api/search-files?search=bookkeep').then(ids)).toEqual([invoice]);
    await t.db.comment.updateMany({ where: { fileId: invoice }, data: { deletedAt: null } });
  });
});

describe('a broad search (more matches than the rank window)', () => {
  it('ranks the newest RANK_WINDOW matches first, lists the rest newest first, and pages one order', async () => {
    const category = (await createCategory(t.db, { name: 'Quokka archive' })).id;
    const extra = 3;
    // RANK_WINDOW + 3 files, one a minute back in time; the newest holds the word twice in its
    // name (ranks first of the window), the oldest (outside the window) three times: it would
    // rank above every other file if all were ranked.
    await t.db.$executeRaw`
      INSERT INTO files (name, category_id, index_status, owner_id, created_at, updated_at)
      SELECT CASE WHEN g = 1 THEN 'quokka quokka report ' || g
                  WHEN g = ${RANK_WINDOW + extra}::int THEN 'quokka quokka quokka'
                  ELSE 'report ' || g || ' on the quokka' END,
             ${category}::int, 'indexed', ${admin.id}::int,
             now() - (g || ' minutes')::interval, now()
        FROM generate_series(1, ${RANK_WINDOW + extra}::int) g`;
    const all: Array<{ id: number; name: string }> = [];
    for (let page = 1; page <= 11; page++) {
      const res = await get(admin, `/api/all-search-files?search=quokka&quantity=100&page=${page}`);
      expect(res.statusCode).toBe(200);
      all.push(...res.json().data.items);
    }
    expect(all).toHaveLength(RANK_WINDOW + extra);
    expect(new Set(all.map((f) => f.id)).size).toBe(RANK_WINDOW + extra); // no file twice
    expect(all[0]!.name).toBe('quokka quokka report 1');
    // After the window: the older files, newest first, whatever their rank.
    expect(all.slice(RANK_WINDOW).map((f) => f.name)).toEqual([
      `report ${RANK_WINDOW + 1} on the quokka`,
      `report ${RANK_WINDOW + 2} on the quokka`,
      'quokka quokka quokka',
    ]);
  });
});

describe('content search (the search.extract job)', () => {
  const upload = async (name: string, content: Buffer, mimeType: string) =>
    (await uploadedFile(t, { ownerId: staff.id, categoryId: cat1, name, content, mimeType })).id;

  it('reads the text of a PDF after upload: the file is found by a word inside it, with the passage', async () => {
    const id = await upload(
      'scan-0042.pdf',
      textPdf(['Minutes of the board', 'The quokka budget was approved']),
      'application/pdf',
    );
    const res = await get(staff, '/api/all-search-files?search=quokka');
    expect(ids(res)).toEqual([id]);
    expect(res.json().data.items[0].snippet_html).toContain('<mark>quokka</mark>');
    const status = (await get(staff, `/api/search/text-status/${id}`)).json().data;
    expect(status).toMatchObject({ status: 'done', error: null, truncated: false });
    expect(
      await t.db.auditEvent.count({ where: { action: 'file.text_extracted', targetId: String(id) } }),
    ).toBe(1);
  });

  it("gives a new file its name's and its text's vector, as a full rebuild would, and rebuilds it on a real change only", async () => {
    const birds = (await createCategory(t.db, { name: 'Birds' })).id;
    const source = await uploadedFile(t, {
      ownerId: staff.id,
      categoryId: birds,
      name: 'kestrel-source.pdf',
      content: textPdf(['The pelican ledger']),
      mimeType: 'application/pdf',
    });
    const versionId = source.currentVersionId as number;
    const vector = async (id: number) =>
      (
        await t.db.$queryRaw<Array<{ own: string | null; full: string }>>`
          SELECT f.search_vector::text AS own,
                 quire_file_search_vector(f.id, f.name, f.current_version_id)::text AS full
            FROM files f WHERE f.id = ${id}::int`
      )[0]!;
    // A new row whose version has its text already: the insert reads it (version_texts).
    await t.db.file.update({ where: { id: source.id }, data: { currentVersionId: null } });
    const copy = (
      await t.db.$queryRaw<Array<{ id: number }>>`
        INSERT INTO files (name, category_id, index_status, owner_id, current_version_id, updated_at)
        VALUES ('heron copy.pdf', ${birds}::int, 'indexed', ${staff.id}::int, ${versionId}::int, now())
        RETURNING id`
    )[0]!.id;
    const made = await vector(copy);
    expect(made.own).toBe(made.full);
    expect(made.own).toContain("'heron':1A");
    expect(made.own).toContain("'pelican'");
    // The name set to what it was: the vector is not rebuilt. A new name rebuilds it.
    await t.db.$executeRaw`UPDATE files SET name = name, search_vector = NULL WHERE id = ${copy}::int`;
    expect((await vector(copy)).own).toBeNull();
    await t.db.file.update({ where: { id: copy }, data: { name: 'egret copy.pdf' } });
    const renamed = await vector(copy);
    expect(renamed.own).toBe(renamed.full);
    expect(renamed.own).toContain("'egret':1A");
    expect(renamed.own).toContain("'pelican'");
  });

  it('says why when the text cannot be read, and the file stays findable by its name', async () => {
    const broken = await upload(
      'broken-wombat.pdf',
      Buffer.from('%PDF-1.4\nthis is not really a pdf'),
      'application/pdf',
    );
    const image = await upload(
      'wombat-archive.zip',
      Buffer.from('504b0506000000000000000000000000000000000000', 'hex'),
      'application/zip',
    );
    const brokenStatus = (await get(staff, `/api/search/text-status/${broken}`)).json().data;
    expect(brokenStatus.status).toBe('failed');
    expect(brokenStatus.error).toMatch(/could not be read/);
    expect((await get(staff, `/api/search/text-status/${image}`)).json().data).toMatchObject({
      status: 'unsupported',
      error: expect.stringMatching(/not searched by their content/),
    });
    expect((await get(staff, '/api/search-files?search=wombat').then(ids)).sort()).toEqual(
      [broken, image].sort(),
    );
    expect(
      await t.db.auditEvent.count({
        where: { action: 'file.text_extraction_failed', targetId: String(broken) },
      }),
    ).toBe(1);
  });
});

describe('GET /api/filter-attributes', () => {
  it('offers the categories, fields, owners and steps the caller may filter on', async () => {
    const wf = await t.db.workflow.create({
      data: { name: 'Approval flow', steps: { create: [{ name: 'Review', position: 1 }] } },
    });
    await t.db.category.update({ where: { id: cat1 }, data: { workflowId: wf.id } });
    const data = (await get(staff, '/api/filter-attributes')).json().data;
    expect(data.categories.map((c: { id: number }) => c.id)).toEqual([cat1, child]);
    expect(data.fields.map((f: { name: string }) => f.name)).toEqual([
      'Customer',
      'Amount',
      'Invoice date',
      'Status',
    ]);
    expect(data.fields[3].items).toEqual([
      { key: 7, label: 'Approved' },
      { key: 8, label: 'Rejected' },
    ]);
    expect(data.owners.map((o: { id: number }) => o.id).sort()).toEqual([admin.id, staff.id].sort());
    expect(data.workflow_steps).toEqual([
      { id: expect.any(Number), name: 'Review', workflow: { id: wf.id, name: 'Approval flow' } },
    ]);
    const outsiderData = (await get(outsider, '/api/filter-attributes')).json().data;
    expect(outsiderData).toEqual({ categories: [], fields: [], owners: [], workflow_steps: [] });
  });
});

describe('POST /api/filter-files', () => {
  it('filters by category (with its sub-categories), owner and dates; newest first; 20 a page', async () => {
    const inCat1 = await filter(staff, { category_id: cat1 });
    expect(inCat1.json().data.quantity).toBe(20);
    expect(ids(inCat1)).toEqual(expect.arrayContaining([invoice, notes]));
    expect(ids(await filter(staff, { category_id: cat1, include_subcategories: false }))).not.toContain(
      notes,
    );
    expect(ids(await filter(staff, { category_id: cat2 }))).toEqual([ownInCat2]);
    expect(ids(await filter(staff, { owner_id: staff.id, category_id: cat2 }))).toEqual([ownInCat2]);
    const today = new Date().toISOString().slice(0, 10);
    expect(ids(await filter(staff, { category_id: child, startDate: today, endDate: today }))).toEqual([
      notes,
    ]);
    expect(ids(await filter(staff, { category_id: child, endDate: '2001-01-01' }))).toEqual([]);
  });

  it('lists a file seen two ways once and a restricted one through its own grant only, counted so', async () => {
    const world = await seed(t, {
      users: { staff, admin },
      categories: { routes: { name: 'Routes', grants: { staff: [] } }, hidden: { name: 'Routes hidden' } },
      files: {
        ownAndGranted: { owner: 'staff', category: 'routes', name: 'route own.txt' },
        inCategory: { owner: 'admin', category: 'routes', name: 'route category.txt' },
        restricted: { owner: 'admin', category: 'routes', name: 'route restricted.txt' },
        restrictedShared: { owner: 'admin', category: 'routes', name: 'route restricted shared.txt' },
        sharedElsewhere: { owner: 'admin', category: 'hidden', name: 'route shared elsewhere.txt' },
      },
    });
    const { routes, hidden } = idsOf(world.categories);
    const { ownAndGranted, inCategory, restricted, restrictedShared, sharedElsewhere } = idsOf(world.files);
    await t.db.file.updateMany({
      where: { id: { in: [restricted, restrictedShared] } },
      data: { hasOwnPermissions: true },
    });
    await t.db.filePermission.createMany({
      data: [
        { fileId: restrictedShared, userId: staff.id },
        { fileId: sharedElsewhere, userId: staff.id },
      ],
    });
    const listed = await filter(staff, { category_id: routes });
    expect(ids(listed)).toEqual([restrictedShared, inCategory, ownAndGranted]);
    expect(listed.json().data.total).toBe(3);
    const elsewhere = await filter(staff, { category_id: hidden });
    expect(ids(elsewhere)).toEqual([sharedElsewhere]);
    expect(elsewhere.json().data.total).toBe(1);
    // The second page starts where the first ended, whichever way its files are seen.
    const second = await filter(staff, { category_id: routes }, '?page=2&quantity=2');
    expect(ids(second)).toEqual([ownAndGranted]);
    expect(second.json().data.total).toBe(3);
  });

  it("lists a category's sub-categories the caller sees, and not one that takes no grant from it", async () => {
    const world = await seed(t, {
      categories: { closed: { name: 'Closed folder', parent: { id: cat1 }, inheritPermissions: false } },
      files: { inside: { owner: admin, category: 'closed' } },
    });
    const { closed } = idsOf(world.categories);
    const { inside } = idsOf(world.files);
    const listed = await filter(staff, { category_id: cat1 });
    expect(ids(listed)).toEqual(expect.arrayContaining([invoice, notes]));
    expect(ids(listed)).not.toContain(inside);
    expect(listed.json().data.total).toBe(ids(listed).length);
    expect(ids(await filter(admin, { category_id: cat1 }))).toContain(inside);
    expect(ids(await filter(staff, { category_id: closed }))).toEqual([]);
  });

  it('pages by cursor (an extension) as by page, counts them all, and refuses a bad cursor or one with search', async () => {
    const paged = (
      await seed(t, { users: { staff }, categories: { paged: { name: 'Paged', grants: { staff: [] } } } })
    ).categories.paged.id;
    for (let i = 0; i < 5; i++)
      await createFile(t.db, t.app.deps.blobs, { ownerId: i % 2 ? staff.id : admin.id, categoryId: paged });
    const byPage = ids(await filter(staff, { category_id: paged }, '?quantity=10'));
    expect(byPage).toHaveLength(5);
    const byCursor: number[] = [];
    let cursor: string | null = null;
    for (let round = 0; round < 3; round++) {
      const res = await filter(
        staff,
        { category_id: paged },
        `?quantity=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(res.statusCode).toBe(200);
      expect(res.json().data.total).toBe(5);
      byCursor.push(...ids(res));
      cursor = res.json().data.next_cursor;
    }
    expect(byCursor).toEqual(byPage);
    expect(cursor).toBeNull();
    const bad = await filter(staff, { category_id: paged }, '?cursor=yesterday');
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json().errors)).toContain('cursor');
    const ranked = await filter(staff, { category_id: paged, search: 'file' }, '?cursor=1.1');
    expect(ranked.statusCode).toBe(400);
    expect(JSON.stringify(ranked.json().errors)).toContain('cursor');
    expect((await get(staff, '/api/search-files?search=file')).json().data).not.toHaveProperty('next_cursor');
  });

  it('sees a grant, its revoking, a group membership and a category move at once', async () => {
    // The group has no members yet, and nobody a grant: both are given and taken below.
    const world = await seed(t, {
      groups: { group: [] },
      categories: { moving: { name: 'Moving' } },
      files: { file: { owner: admin, category: 'moving' } },
    });
    const { moving } = idsOf(world.categories);
    const { file } = idsOf(world.files);
    const { group } = world.groups;
    const listed = async () => ids(await filter(staff, { category_id: moving }));
    expect(await listed()).toEqual([]);
    const grant = await t.db.categoryPermission.create({
      data: { categoryId: moving, userId: staff.id, canView: true },
    });
    expect(await listed()).toEqual([file]);
    await t.db.categoryPermission.delete({ where: { id: grant.id } });
    expect(await listed()).toEqual([]);
    await t.db.categoryPermission.create({ data: { categoryId: moving, groupId: group.id, canView: true } });
    expect(await listed()).toEqual([]);
    await t.db.groupMember.create({ data: { groupId: group.id, userId: staff.id } });
    expect(await listed()).toEqual([file]);
    await t.db.groupMember.deleteMany({ where: { groupId: group.id, userId: staff.id } });
    expect(await listed()).toEqual([]);
    // Moved under Finance (granted to staff), it inherits Finance's grant; moved out, it does not.
    await t.db.category.update({ where: { id: moving }, data: { parentId: cat1 } });
    expect(await listed()).toEqual([file]);
    await t.db.category.update({ where: { id: moving }, data: { parentId: null } });
    expect(await listed()).toEqual([]);
  });

  it('sees a file grant, a task waiting on the caller and a new sub-category at once, with sets kept between calls', async () => {
    // Each list below is read twice over: the sets a list keeps from one call to the next
    // (decision 022) must give way to each change the moment it is committed.
    const world = await seed(t, {
      groups: { group: [] },
      categories: { closed: { name: 'Closed room' } },
      files: {
        shared: { owner: admin, category: 'closed', name: 'kept-sets shared.txt' },
        waiting: { owner: admin, category: 'closed', name: 'kept-sets waiting.txt' },
      },
    });
    const { shared, waiting } = idsOf(world.files);
    const { group } = world.groups;
    const everything = async () => ids(await filter(staff, { search: 'kept sets' }));
    const newest = async () => ids(await filter(staff, {}, '?quantity=100'));
    expect(await everything()).toEqual([]);
    expect(await newest()).not.toContain(shared);

    const grant = await t.db.filePermission.create({ data: { fileId: shared, userId: staff.id } });
    expect(await everything()).toEqual([shared]);
    expect(await newest()).toContain(shared);
    await t.db.filePermission.delete({ where: { id: grant.id } });
    expect(await everything()).toEqual([]);
    expect(await newest()).not.toContain(shared);

    // Granted to a group: seen from the moment the caller joins it, not after leaving.
    await t.db.filePermission.create({ data: { fileId: shared, groupId: group.id } });
    expect(await newest()).not.toContain(shared);
    await t.db.groupMember.create({ data: { groupId: group.id, userId: staff.id } });
    expect(await newest()).toContain(shared);
    await t.db.groupMember.deleteMany({ where: { groupId: group.id, userId: staff.id } });
    expect(await newest()).not.toContain(shared);

    // A task of the caller's on the file's current step: seen while it waits there.
    const flow = await t.db.workflow.create({
      data: {
        name: 'Kept sets flow',
        steps: {
          create: [
            { name: 'Sign', position: 1 },
            { name: 'File', position: 2 },
          ],
        },
      },
      include: { steps: { orderBy: { position: 'asc' } } },
    });
    const [sign, archive] = flow.steps.map((step) => step.id) as [number, number];
    const instance = await t.db.workflowInstance.create({
      data: {
        fileId: waiting,
        workflowId: flow.id,
        currentStepId: sign,
        stepEnteredAt: new Date(Date.now() - 60_000),
      },
    });
    expect(await everything()).toEqual([]);
    await t.db.workflowTask.create({ data: { instanceId: instance.id, stepId: sign, userId: staff.id } });
    expect(await everything()).toEqual([waiting]);
    await t.db.workflowInstance.update({ where: { id: instance.id }, data: { currentStepId: archive } });
    expect(await everything()).toEqual([]);

    // Finance with its sub-categories (a list that keeps the tree with the sets): a
    // sub-category made under it is listed with it, and no longer once moved out.
    const before = ids(await filter(staff, { category_id: cat1 }));
    const added = await seed(t, {
      categories: { annex: { name: 'Annex', parent: { id: cat1 } } },
      files: { inAnnex: { owner: admin, category: 'annex' } },
    });
    const { inAnnex } = idsOf(added.files);
    expect(ids(await filter(staff, { category_id: cat1 }))).toEqual([inAnnex, ...before]);
    await t.db.category.update({ where: { id: added.categories.annex.id }, data: { parentId: cat2 } });
    expect(ids(await filter(staff, { category_id: cat1 }))).toEqual(before);
  });

  it("lists the caller's own file that has no category, counted once", async () => {
    const loose = (await seed(t, { files: { loose: { owner: staff, name: 'loose.txt', indexed: true } } }))
      .files.loose.id;
    const all = await filter(staff, { owner_id: staff.id });
    expect(ids(all)).toEqual(expect.arrayContaining([loose, ownInCat2]));
    expect(all.json().data.total).toBe(ids(all).length);
    expect(ids(await filter(admin, { owner_id: staff.id }))).toContain(loose);
  });

  it('filters on metadata: text equals, number and date ranges, value-list keys; combined with search', async () => {
    const cases: Array<[unknown, number[]]> = [
      [[{ field_id: fields.text, value: 'acme corporation' }], [invoice]],
      [[{ field_id: fields.number, min: 1000 }], [invoice]],
      [[{ field_id: fields.number, min: 10, max: 100 }], [notes]],
      [[{ field_id: fields.number, value: 1500 }], [invoice]],
      [[{ field_id: fields.date, min: '2026-02-01', max: '2026-03-31' }], [invoice]],
      [[{ field_id: fields.select, keys: [7] }], [invoice]],
      [[{ field_id: fields.select, keys: [8] }], []],
      [[{ field_id: fields.select, value: 'approved' }], [invoice]],
      [
        [
          { field_id: fields.number, min: 0 },
          { field_id: fields.select, keys: [7, 8] },
        ],
        [invoice],
      ],
    ];
    for (const [conditions, want] of cases) {
      const res = await filter(staff, { fields: conditions });
      expect(`${JSON.stringify(conditions)} ${ids(res)}`).toBe(`${JSON.stringify(conditions)} ${want}`);
    }
    expect(
      ids(await filter(staff, { search: 'acme', fields: [{ field_id: fields.number, min: 1000 }] })),
    ).toEqual([invoice]);
    expect(
      ids(await filter(staff, { search: 'kraken', fields: [{ field_id: fields.number, min: 1000 }] })),
    ).toEqual([]);
  });

  it('filters on locked, checked out and workflow step', async () => {
    await t.db.file.update({ where: { id: invoice }, data: { lockedById: admin.id, lockedAt: new Date() } });
    await t.db.file.update({
      where: { id: notes },
      data: { checkedOutById: staff.id, checkedOutAt: new Date() },
    });
    expect(ids(await filter(staff, { category_id: cat1, locked: true }))).toEqual([invoice]);
    expect(ids(await filter(staff, { category_id: cat1, checked_out: true }))).toEqual([notes]);
    expect(ids(await filter(staff, { category_id: cat1, locked: false }))).not.toContain(invoice);
    const step = await t.db.workflowStep.findFirstOrThrow({ where: { name: 'Review' } });
    await t.db.workflowInstance.create({
      data: { fileId: invoice, workflowId: step.workflowId, currentStepId: step.id },
    });
    expect(ids(await filter(staff, { workflow_step_id: step.id }))).toEqual([invoice]);
    await t.db.file.update({ where: { id: invoice }, data: { lockedById: null, lockedAt: null } });
  });

  it('refuses conditions that do not fit their field (400 naming it), and bad shapes', async () => {
    const cases: Array<[unknown, string]> = [
      [{ fields: [{ field_id: 999999, value: 'x' }] }, 'body.fields.0.field_id'],
      [{ fields: [{ field_id: fields.text, min: 3 }] }, 'body.fields.0.min'],
      [{ fields: [{ field_id: fields.number, value: 'many' }] }, 'body.fields.0.value'],
      [{ fields: [{ field_id: fields.number, min: 9, max: 1 }] }, 'body.fields.0.max'],
      [{ fields: [{ field_id: fields.date, min: 5 }] }, 'body.fields.0.min'],
      [{ fields: [{ field_id: fields.select, min: 1 }] }, 'body.fields.0.min'],
      [{ fields: [{ field_id: fields.text }] }, 'body.fields.0'],
      [{ startDate: '2026-05-01', endDate: '2026-04-01' }, 'body.endDate'],
      [{ startDate: 'yesterday' }, 'body.startDate'],
      [{ locked: 'yes' }, 'body.locked'],
    ];
    for (const [payload, path] of cases) {
      const res = await filter(staff, payload);
      expect(`${JSON.stringify(payload)} ${res.statusCode}`).toBe(`${JSON.stringify(payload)} 400`);
      expect(res.json().errors.map((e: { path: string }) => e.path)).toContain(path);
    }
  });
});

describe('GET /api/dashboard/table', () => {
  it("shows the caller's previewed, checked-out, recent and assigned files, each paged and only what they may see", async () => {
    const at = (minutes: number) => new Date(Date.now() - minutes * 60_000);
    await t.db.fileView.createMany({
      data: [
        { userId: staff.id, fileId: notes, lastViewedAt: at(5) },
        { userId: staff.id, fileId: invoice, lastViewedAt: at(1) },
        { userId: staff.id, fileId: secret, lastViewedAt: at(0) }, // no longer visible to Sam
      ],
    });
    const step = await t.db.workflowStep.findFirstOrThrow({ where: { name: 'Review' } });
    const instance = await t.db.workflowInstance.findFirstOrThrow({ where: { fileId: invoice } });
    await t.db.workflowTask.create({ data: { instanceId: instance.id, stepId: step.id, userId: staff.id } });

    const res = await get(staff, '/api/dashboard/table');
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.previewed.items.map((r: { file: { id: number } }) => r.file.id)).toEqual([invoice, notes]);
    expect(data.checked_out.items.map((r: { file: { id: number } }) => r.file.id)).toEqual([notes]);
    expect(data.recent.items.map((r: { file: { id: number } }) => r.file.id)).not.toContain(secret);
    expect(data.assigned.items).toEqual([
      expect.objectContaining({
        file: expect.objectContaining({ id: invoice }),
        task: expect.objectContaining({
          step: { id: step.id, name: 'Review' },
          workflow: expect.objectContaining({ name: 'Approval flow' }),
        }),
      }),
    ]);
    expect(data.recent.quantity).toBe(10);

    const one = (await get(staff, '/api/dashboard/table?table=previewed&quantity=1&page=2')).json().data;
    expect(Object.keys(one)).toEqual(['previewed']);
    expect(one.previewed).toMatchObject({ page: 2, total: 2, last_page: 2 });
    expect(one.previewed.items[0].file.id).toBe(notes);

    const nobody = (await get(outsider, '/api/dashboard/table')).json().data;
    expect([
      nobody.previewed.total,
      nobody.checked_out.total,
      nobody.recent.total,
      nobody.assigned.total,
    ]).toEqual([0, 0, 0, 0]);
  });

  it('shows a file among the recent from the moment it is granted, not after its revoking, with sets kept', async () => {
    const world = await seed(t, {
      categories: { vault: { name: 'Vault' } },
      files: { vaulted: { owner: admin, category: 'vault', name: 'vaulted.txt' } },
    });
    const vaulted = world.files.vaulted.id;
    const recent = async () =>
      (await get(staff, '/api/dashboard/table?table=recent&quantity=50'))
        .json()
        .data.recent.items.map((r: { file: { id: number } }) => r.file.id);
    expect(await recent()).not.toContain(vaulted);
    expect(await recent()).not.toContain(vaulted);
    const grant = await t.db.filePermission.create({ data: { fileId: vaulted, userId: staff.id } });
    expect(await recent()).toContain(vaulted);
    await t.db.filePermission.delete({ where: { id: grant.id } });
    expect(await recent()).not.toContain(vaulted);
  });

  it('refuses a bad table or page (400 naming the field)', async () => {
    for (const [qs, path] of [
      ['table=everything', 'query.table'],
      ['page=0', 'query.page'],
      ['quantity=1000', 'query.quantity'],
    ] as const) {
      const res = await get(staff, `/api/dashboard/table?${qs}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().errors[0].path).toBe(path);
    }
  });
});
