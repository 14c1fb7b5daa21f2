import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs } from '../../../test/access.js';
import type { TestContext } from '../../../test/app.js';
import { createFile } from '../../../test/factories.js';
import { seed, seededApp } from '../../../test/seed.js';

// GET and POST fileIncategory/{id} and the export: live, indexed, visible files, filtered.

let t: TestContext;
let token = '';
let strangerToken = '';
let cat = 0;
let sub = 0;
let plain = 0;
let fieldId = 0;
let restrictedId = 0;
let userId = 0;
const ids: number[] = [];

beforeAll(async () => {
  const world = await seededApp({
    users: { user: {}, owner: { signIn: false }, stranger: {} },
    fields: { supplier: { name: 'Supplier' } },
    categories: {
      cat: { grants: { user: [] }, fields: ['supplier'] },
      // Takes the fields of its parent (inherit_fields); the other has none.
      sub: { parent: 'cat', grants: { user: [] } },
      plain: { name: 'Plain papers', grants: { user: [] } },
    },
    files: {
      alpha: { owner: 'owner', category: 'cat', name: 'alpha.pdf' },
      beta: { owner: 'owner', category: 'cat', name: 'beta.pdf' },
      gamma: { owner: 'owner', category: 'cat', name: 'gamma.txt' },
      // Not listed: unindexed, in the trash, restricted away from the user.
      unindexed: { owner: 'owner', category: 'cat', indexed: false },
      trashed: { owner: 'owner', category: 'cat' },
      restricted: { owner: 'owner', category: 'cat' },
    },
  });
  t = world.t;
  token = world.users.user.token;
  strangerToken = world.users.stranger.token;
  cat = world.categories.cat.id;
  sub = world.categories.sub.id;
  plain = world.categories.plain.id;
  fieldId = world.fields.supplier.id;
  const { alpha, beta, gamma, trashed, restricted } = world.files;
  restrictedId = restricted.id;
  userId = world.users.user.id;
  for (const [i, f] of [alpha, beta, gamma].entries()) {
    await t.db.file.update({
      where: { id: f.id },
      data: { createdAt: new Date(Date.UTC(2026, 0, 10 + i)), incrementalValue: i + 1 },
    });
    await t.db.fileFieldValue.create({
      data: { fileId: f.id, fieldId, valueText: i === 1 ? 'Acme Ltd' : 'Other' },
    });
    ids.push(f.id);
  }
  await t.db.file.update({ where: { id: trashed.id }, data: { deletedAt: new Date() } });
  await t.db.file.update({ where: { id: restricted.id }, data: { hasOwnPermissions: true } });
});
afterAll(() => t.close());

const get = (query = '', tok = token) =>
  callAs(t, tok, { method: 'GET', url: `/api/fileIncategory/${cat}${query}` });

describe('fileIncategory', () => {
  it('lists what the caller may see, newest first, with the shown fields', async () => {
    const res = await get();
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ total: 3, page: 1, quantity: 20, folder: { id: cat } });
    expect(data.items.map((f: { id: number }) => f.id)).toEqual([...ids].reverse());
    expect(data.columns).toEqual([{ field_id: fieldId, name: 'Supplier', type: 'text' }]);
    expect(data.items[1].values[0].display).toBe('Acme Ltd');
  });

  it('names the category and shows the fields it takes from above, or none', async () => {
    const page = async (id: number) =>
      (await callAs(t, token, { method: 'GET', url: `/api/fileIncategory/${id}` })).json().data;
    expect(await page(sub)).toMatchObject({
      total: 0,
      items: [],
      columns: [{ field_id: fieldId, name: 'Supplier', type: 'text' }],
    });
    expect(await page(plain)).toMatchObject({ folder: { id: plain, name: 'Plain papers' }, columns: [] });
  });

  it('pages, searches, filters by dates and by a field', async () => {
    expect((await get('?quantity=2&page=2')).json().data).toMatchObject({
      total: 3,
      last_page: 2,
      items: [{ id: ids[0] }],
    });
    expect((await get('?search=BETA')).json().data.items.map((f: { id: number }) => f.id)).toEqual([ids[1]]);
    expect(
      (await get('?startDate=2026-01-11&endDate=2026-01-11'))
        .json()
        .data.items.map((f: { id: number }) => f.id),
    ).toEqual([ids[1]]);
    expect((await get(`?fieldId=${fieldId}&fieldName=acme`)).json().data.total).toBe(1);
    const post = await callAs(t, token, {
      method: 'POST',
      url: `/api/fileIncategory/${cat}`,
      payload: { fields: [{ fieldId, fieldName: 'other' }], search: 'a' },
    });
    expect(post.json().data.total).toBe(2);
  });

  it('shows a restricted file from the moment it is granted to the caller, not after its revoking', async () => {
    // Read twice over: the caller's sets kept from one call to the next (decision 022) give
    // way to the grant and to its revoking as each is committed.
    const listed = async () => (await get()).json().data.items.map((f: { id: number }) => f.id);
    expect(await listed()).not.toContain(restrictedId);
    expect(await listed()).not.toContain(restrictedId);
    const grant = await t.db.filePermission.create({ data: { fileId: restrictedId, userId } });
    expect(await listed()).toContain(restrictedId);
    expect((await get()).json().data.total).toBe(4);
    await t.db.filePermission.delete({ where: { id: grant.id } });
    expect(await listed()).not.toContain(restrictedId);
    expect((await get()).json().data.total).toBe(3);
  });

  it('refuses bad filters (400) and a category you may not see (404)', async () => {
    const bad = await get('?startDate=yesterday');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].path).toBe('query.startDate');
    expect((await get('', strangerToken)).statusCode).toBe(404);
    expect((await callAs(t, null, { method: 'GET', url: `/api/fileIncategory/${cat}` })).statusCode).toBe(
      401,
    );
  });

  it('exports the filtered list as "Files in category {id}.xlsx"', async () => {
    const res = await callAs(t, token, {
      method: 'GET',
      url: `/api/fileIncategory_export/${cat}?search=pdf`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain(`Files in category ${cat}.xlsx`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as never);
    const sheet = book.getWorksheet('Files');
    expect(sheet?.getRow(1).values).toContain('Supplier');
    expect(sheet?.rowCount).toBe(3);
    expect(
      (await callAs(t, strangerToken, { method: 'GET', url: `/api/fileIncategory_export/${cat}` }))
        .statusCode,
    ).toBe(404);
  });

  it('the export writes text that starts like a formula (= + - @, tab, CR) as text', async () => {
    const dangers = ['=HYPERLINK("http://evil.test","click")', '+1+1', '-2+3', '@SUM(A1)', '\tTab', '\rCR'];
    const world = await seed(t, {
      users: { viewer: {} },
      fields: { field: { name: '=Field' } },
      categories: { c: { grants: { viewer: [] }, fields: ['field'] } },
    });
    const { viewer } = world.users;
    const { field } = world.fields;
    const category = world.categories.c.id;
    for (const [i, name] of dangers.entries()) {
      const f = await createFile(t.db, t.app.deps.blobs, { ownerId: viewer.id, categoryId: category, name });
      await t.db.fileFieldValue.create({
        data: { fileId: f.id, fieldId: field.id, valueText: dangers[(i + 1) % dangers.length]! },
      });
    }
    const res = await callAs(t, viewer.token, {
      method: 'GET',
      url: `/api/fileIncategory_export/${category}`,
    });
    expect(res.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as never);
    const sheet = book.getWorksheet('Files')!;
    expect(sheet.getRow(1).getCell(8).value).toBe("'=Field");
    const names: unknown[] = [];
    const values: unknown[] = [];
    for (let r = 2; r <= sheet.rowCount; r++) {
      const row = sheet.getRow(r);
      for (const c of [2, 8]) expect(row.getCell(c).formula).toBeUndefined();
      names.push(row.getCell(2).value);
      values.push(row.getCell(8).value);
    }
    // (XML reads a carriage return back as a line feed; the apostrophe is what matters.)
    const inert = dangers.map((d) => `'${d}`.replace('\r', '\n')).sort();
    expect([...names].sort()).toEqual(inert);
    expect([...values].sort()).toEqual(inert);
  });
});
