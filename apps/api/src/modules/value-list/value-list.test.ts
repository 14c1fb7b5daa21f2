import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import {
  callAs,
  expectAccess,
  FILE_CONTROL_CALLERS,
  readCase,
  readCaseOf,
  writeCase,
} from '../../../test/access.js';
import type { TestContext } from '../../../test/app.js';
import { errorPaths } from '../../../test/errors.js';
import {
  createFile,
  createMetadataField,
  createUser,
  createValueList,
  loginAs,
} from '../../../test/factories.js';
import { auditedInTurn } from '../../../test/in-turn.js';
import { multipart, tinyPng, xlsx } from '../../../test/multipart.js';
import { uniqueName } from '../../../test/names.js';
import { adminAppPerFile, type CallAs, type SeededUser } from '../../../test/seed.js';
import { rowXml, workbook, zip } from '../../../test/xlsx.js';

// Value lists and their items: who may call, edits, imports from spreadsheets (hostile ones too).

let t: TestContext;
let admin: SeededUser;
let asAdmin: CallAs;

adminAppPerFile('COMPANY ADMIN', (app) => ({ t, admin, asAdmin } = app));

const listName = () => uniqueName('List');
const counts = async () => ({
  lists: await t.db.valueList.count(),
  items: await t.db.valueListItem.count(),
  live: await t.db.valueListItem.count({ where: { archivedAt: null } }),
  audits: await t.db.auditEvent.count({ where: { type: 'value-list' } }),
});
const labelsOf = (items: Array<{ label: string }>) => items.map((i) => i.label);
const upload = (file: Buffer, fields: Record<string, string> = {}) =>
  multipart({ ...fields, file: { content: file, filename: 'items.xlsx' } });

/** A value with item `itemId` on a new file, so the item is in use. */
async function useItem(valueListId: number, itemId: number) {
  const field = await createMetadataField(t.db, { type: 'select', valueListId });
  const file = await createFile(t.db, t.app.deps.blobs, { ownerId: admin.id });
  await t.db.fileFieldValue.create({ data: { fileId: file.id, fieldId: field.id, valueItemId: itemId } });
  return field;
}

describe('who may call the value-list calls', () => {
  const sheet = () => xlsx([['label'], ['One'], ['Two']]);
  const cases = [
    readCase('/api/valuelist'),
    readCaseOf('GET /api/valuelist/{id}', async () => ({
      method: 'GET',
      url: `/api/valuelist/${(await createValueList(t.db)).id}`,
    })),
    readCaseOf(
      'GET /api/valuelist-items/{id}',
      async () => ({ method: 'GET', url: `/api/valuelist-items/${(await createValueList(t.db)).id}` }),
      true,
    ),
    readCase('/api/valuelist-template'),
    writeCase('POST /api/create_value_list', () => ({
      method: 'POST',
      url: '/api/create_value_list',
      payload: { name: listName(), items: [{ label: 'A' }] },
    })),
    writeCase('PUT /api/edit_value_list/{id}', async () => ({
      method: 'PUT',
      url: `/api/edit_value_list/${(await createValueList(t.db)).id}`,
      payload: { items: [{ label: 'Only' }] },
    })),
    writeCase('POST /api/create_value_list_from_excel', async () => ({
      method: 'POST',
      url: '/api/create_value_list_from_excel',
      ...upload(await sheet(), { name: listName() }),
    })),
    writeCase('PUT /api/edit_value_list_from_excel/{id}', async () => ({
      method: 'PUT',
      url: `/api/edit_value_list_from_excel/${(await createValueList(t.db)).id}`,
      ...upload(await sheet()),
    })),
    writeCase('DELETE /api/destroyValueList/{id}', async () => ({
      method: 'DELETE',
      url: `/api/destroyValueList/${(await createValueList(t.db)).id}`,
    })),
  ];
  it.each(FILE_CONTROL_CALLERS)('as %s', (...caller) => expectAccess(t, caller, cases, counts));
});

describe('reading value lists', () => {
  it('lists every list by name with its item count and the fields using it', async () => {
    const list = await createValueList(t.db, { name: listName(), items: ['A', 'B'] });
    const field = await createMetadataField(t.db, { type: 'select', valueListId: list.id });
    await t.db.valueListItem.update({ where: { id: list.items[1]!.id }, data: { archivedAt: new Date() } });
    const res = await asAdmin({ method: 'GET', url: '/api/valuelist' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.find((l: { id: number }) => l.id === list.id)).toMatchObject({
      name: list.name,
      source: 'manual',
      item_count: 1,
      fields: [{ id: field.id, name: field.name }],
    });
  });

  it('gives one list and its live items in order (archived items left out); 404 for an unknown list', async () => {
    const list = await createValueList(t.db, { items: ['First', 'Second', 'Third'] });
    await t.db.valueListItem.update({ where: { id: list.items[1]!.id }, data: { archivedAt: new Date() } });
    const one = await asAdmin({ method: 'GET', url: `/api/valuelist/${list.id}` });
    expect(labelsOf(one.json().data.items)).toEqual(['First', 'Third']);
    const staff = await loginAs(t.app, await createUser(t.db), 'user');
    const items = await callAs(t, staff, { method: 'GET', url: `/api/valuelist-items/${list.id}` });
    expect(items.statusCode).toBe(200);
    expect(items.json().data).toEqual([
      { id: list.items[0]!.id, key: 1, label: 'First', position: 0 },
      { id: list.items[2]!.id, key: 3, label: 'Third', position: 2 },
    ]);
    for (const url of ['/api/valuelist/999999', '/api/valuelist-items/999999'])
      expect((await asAdmin({ method: 'GET', url })).statusCode).toBe(404);
  });
});

describe('POST /api/create_value_list', () => {
  it('creates a list; items keep given keys and the others get free random keys 1-10000; audited', async () => {
    const name = listName();
    const res = await asAdmin({
      method: 'POST',
      url: '/api/create_value_list',
      payload: {
        name,
        description: 'Colours',
        items: [{ label: 'Red', key: 7 }, { label: 'Green' }, { label: 'Blue' }],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ name, description: 'Colours', source: 'manual', item_count: 3 });
    expect(labelsOf(data.items)).toEqual(['Red', 'Green', 'Blue']);
    const keys = data.items.map((i: { key: number }) => i.key);
    expect(keys[0]).toBe(7);
    expect(new Set(keys).size).toBe(3);
    for (const k of keys) expect(k >= 1 && k <= 10000).toBe(true);
    expect(
      await t.db.auditEvent.count({ where: { action: 'value_list.created', targetId: String(data.id) } }),
    ).toBe(1);
  });

  it('refuses a taken name, repeated labels or keys and bad keys (400 naming each), writing nothing', async () => {
    const taken = await createValueList(t.db, { name: listName() });
    const before = await counts();
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ name: taken.name.toLowerCase(), items: [] }, ['body.name']],
      [{ name: listName(), items: [{ label: 'A' }, { label: 'a' }] }, ['body.items.1.label']],
      [
        {
          name: listName(),
          items: [
            { label: 'A', key: 3 },
            { label: 'B', key: 3 },
          ],
        },
        ['body.items.1.key'],
      ],
      [
        {
          name: listName(),
          items: [
            { label: 'A', key: 0 },
            { label: 'B', key: 10001 },
          ],
        },
        ['body.items.0.key', 'body.items.1.key'],
      ],
      [{ name: listName(), items: [{ label: '   ' }] }, ['body.items.0.label']],
    ];
    for (const [payload, paths] of cases) {
      const res = await asAdmin({ method: 'POST', url: '/api/create_value_list', payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(errorPaths(res)).toEqual(paths);
    }
    expect(await counts()).toEqual(before);
  });
});

describe('PUT /api/edit_value_list/{id}', () => {
  it('keeps items by id (labels may swap), reorders, adds, deletes unused and archives used items', async () => {
    const list = await createValueList(t.db, { items: ['A', 'B', 'C', 'D'] });
    const [a, b, c, d] = list.items as [
      (typeof list.items)[0],
      (typeof list.items)[0],
      (typeof list.items)[0],
      (typeof list.items)[0],
    ];
    await useItem(list.id, d.id);
    const res = await asAdmin({
      method: 'PUT',
      url: `/api/edit_value_list/${list.id}`,
      payload: {
        description: 'Edited',
        items: [{ id: b.id, label: 'A' }, { id: a.id, label: 'B' }, { label: 'E' }],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const items = res.json().data.items;
    expect(
      items.map((i: { id: number; key: number; label: string }) => [i.id, i.key, i.label]).slice(0, 2),
    ).toEqual([
      [b.id, 2, 'A'],
      [a.id, 1, 'B'],
    ]);
    expect(items[2].label).toBe('E');
    expect([1, 2, 4]).not.toContain(items[2].key);
    expect(await t.db.valueListItem.findUnique({ where: { id: c.id } })).toBeNull();
    expect((await t.db.valueListItem.findUnique({ where: { id: d.id } }))?.archivedAt).not.toBeNull();
    const event = await t.db.auditEvent.findFirst({
      where: { action: 'value_list.updated', targetId: String(list.id) },
    });
    expect(event?.details).toMatchObject({ items: { created: 1, relabelled: 2, archived: 1, deleted: 1 } });
  });

  it('takes edits of one list sent at once one after the other: its items replaced whole, audits in turn', async () => {
    const list = await createValueList(t.db);
    const answers = await Promise.all(
      [1, 2, 3, 4, 5, 6, 7, 8].map((i) =>
        asAdmin({
          method: 'PUT',
          url: `/api/edit_value_list/${list.id}`,
          payload: { description: `Edit ${i}`, items: [{ label: `Item ${i}` }, { label: `Also ${i}` }] },
        }),
      ),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(answers.map(() => 200));
    const description = await auditedInTurn(t, {
      action: 'value_list.updated',
      targetId: list.id,
      key: 'description',
      start: list.description,
    });
    const last = String(description).replace('Edit ', '');
    const live = await t.db.valueListItem.findMany({
      where: { valueListId: list.id, archivedAt: null },
      orderBy: { position: 'asc' },
    });
    expect(labelsOf(live)).toEqual([`Item ${last}`, `Also ${last}`]);
  });

  it('refuses when no key is left (409, nothing written), and a changed key of a kept item (400)', async () => {
    const list = await t.db.valueList.create({ data: { name: listName() } });
    await t.db.valueListItem.createMany({
      data: Array.from({ length: 10000 }, (_, i) => ({
        valueListId: list.id,
        key: i + 1,
        label: `L${i + 1}`,
        position: i,
      })),
    });
    const items = await t.db.valueListItem.findMany({
      where: { valueListId: list.id },
      orderBy: { position: 'asc' },
    });
    const before = await counts();
    const full = await asAdmin({
      method: 'PUT',
      url: `/api/edit_value_list/${list.id}`,
      payload: { items: [...items.map((i) => ({ id: i.id, label: i.label })), { label: 'One more' }] },
    });
    expect(full.statusCode).toBe(400);
    expect(full.json().errors[0].path).toBe('body.items');
    expect(await counts()).toEqual(before);
    // Two items archived (a file used them): they keep keys 1 and 2; 9998 live items hold the rest.
    await t.db.valueListItem.updateMany({
      where: { id: { in: [items[0]!.id, items[1]!.id] } },
      data: { archivedAt: new Date() },
    });
    const live = items.slice(2);
    const archivedBefore = await counts();
    const fullBy = await asAdmin({
      method: 'PUT',
      url: `/api/edit_value_list/${list.id}`,
      payload: {
        items: [...live.map((i) => ({ id: i.id, label: i.label })), { label: 'X' }, { label: 'Y' }],
      },
    });
    expect(fullBy.statusCode, fullBy.body.slice(0, 300)).toBe(409);
    expect(fullBy.json()).toMatchObject({ code: 'value_list.full' });
    expect(fullBy.json().message).toContain('0 are free and 2 are needed');
    expect(await counts()).toEqual(archivedBefore);
    const rekey = await asAdmin({
      method: 'PUT',
      url: `/api/edit_value_list/${list.id}`,
      payload: { items: [{ id: live[0]!.id, key: 9, label: live[0]!.label }] },
    });
    expect(rekey.statusCode).toBe(400);
    expect(rekey.json().errors).toEqual([{ path: 'body.items.0.key', message: 'An item keeps its key (3)' }]);
    expect(await counts()).toEqual(archivedBefore);
  });

  it('answers 404 for an unknown list', async () => {
    const res = await asAdmin({
      method: 'PUT',
      url: '/api/edit_value_list/999999',
      payload: { name: listName() },
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('DELETE /api/destroyValueList/{id}', () => {
  it('deletes a list no field uses, with its items; refuses one in use naming the fields (409)', async () => {
    const free = await createValueList(t.db);
    const res = await asAdmin({ method: 'DELETE', url: `/api/destroyValueList/${free.id}` });
    expect(res.statusCode).toBe(200);
    expect(await t.db.valueListItem.count({ where: { valueListId: free.id } })).toBe(0);
    const used = await createValueList(t.db, { name: listName() });
    const field = await createMetadataField(t.db, {
      type: 'select',
      valueListId: used.id,
      name: uniqueName('Colour'),
    });
    const before = await counts();
    const refused = await asAdmin({ method: 'DELETE', url: `/api/destroyValueList/${used.id}` });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      `"${used.name}" cannot be deleted: the metadata field "${field.name}" uses it. Change or delete that field first.`,
    );
    expect(await counts()).toEqual(before);
  });
});

describe('value lists from Excel', () => {
  it('offers a template that reads back as a valid import', async () => {
    const template = await asAdmin({ method: 'GET', url: '/api/valuelist-template' });
    expect(template.statusCode).toBe(200);
    expect(template.headers['content-type']).toContain('spreadsheetml');
    const preview = await asAdmin({
      method: 'POST',
      url: '/api/create_value_list_from_excel',
      ...upload(template.rawPayload, { name: listName(), dry_run: 'true' }),
    });
    expect(preview.json().data).toMatchObject({ dry_run: true, errors: [], value_list: null });
    expect(preview.json().data.rows.map((r: { key: number | null }) => r.key)).toEqual([1, null]);
  });

  it('creates a list from the first sheet (columns in any order), cells starting with = + - @ as text', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Items');
    ws.addRow(['Label', 'KEY']);
    ws.addRow(['Alpha', 10]);
    ws.addRow(['=1+2', null]);
    ws.addRow(['+44 20', null]);
    ws.addRow(['-minus', null]);
    ws.addRow(['@at', null]);
    ws.getCell('A7').value = { formula: 'HYPERLINK("http://x","y")', result: 'y' } as never;
    wb.addWorksheet('Ignored').addRow(['label', 'nope']);
    const file = Buffer.from(await wb.xlsx.writeBuffer());
    const name = listName();
    const res = await asAdmin({
      method: 'POST',
      url: '/api/create_value_list_from_excel',
      ...upload(file, { name }),
    });
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json().data.value_list;
    expect(list).toMatchObject({ name, source: 'excel', item_count: 6 });
    expect(labelsOf(list.items)).toEqual([
      'Alpha',
      '=1+2',
      '+44 20',
      '-minus',
      '@at',
      '=HYPERLINK("http://x","y")',
    ]);
    expect(list.items[0].key).toBe(10);
  });

  it('reads a sheet naming over 130,000 shared strings (dry run and import), no stack overflow', async () => {
    // 2,800 rows of a key and 49 shared-string cells: 137,200 distinct shared strings named.
    const ROWS = 2800;
    const PER_ROW = 49;
    const column = (i: number) =>
      i < 26 ? String.fromCharCode(65 + i) : `A${String.fromCharCode(65 + i - 26)}`;
    const rows = [rowXml(1, ['key', 'label'])];
    for (let r = 0; r < ROWS; r++) {
      let cells = `<c r="A${r + 2}"><v>${r + 1}</v></c>`;
      for (let c = 0; c < PER_ROW; c++)
        cells += `<c r="${column(c + 1)}${r + 2}" t="s"><v>${r * PER_ROW + c}</v></c>`;
      rows.push(`<row r="${r + 2}">${cells}</row>`);
    }
    const sharedStrings = Array.from({ length: ROWS * PER_ROW }, (_, i) => `item ${i}`);
    const file = workbook(rows.join(''), { sharedStrings });
    const before = await counts();
    const preview = await asAdmin({
      method: 'POST',
      url: '/api/create_value_list_from_excel',
      ...upload(file, { name: listName(), dry_run: 'true' }),
    });
    expect(preview.statusCode, preview.body.slice(0, 300)).toBe(200);
    expect(preview.json().data).toMatchObject({ dry_run: true, errors: [] });
    expect(preview.json().data.rows).toHaveLength(ROWS);
    expect(await counts()).toEqual(before);
    const res = await asAdmin({
      method: 'POST',
      url: '/api/create_value_list_from_excel',
      ...upload(file, { name: listName() }),
    });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const list = res.json().data.value_list;
    expect(list.item_count).toBe(ROWS);
    expect(list.items[1]).toMatchObject({ key: 2, label: `item ${PER_ROW}` });
  }, 60_000);

  it('previews and refuses a bad file naming every problem by row; nothing is saved', async () => {
    const file = await xlsx([
      ['key', 'label'],
      [1, 'Apple'],
      [null, null],
      [2, 'apple'],
      [1, 'Cherry'],
      ['x', 'Date'],
      [3, null],
      [4, 'Elder'],
    ]);
    const before = await counts();
    const name = listName();
    const preview = await asAdmin({
      method: 'POST',
      url: '/api/create_value_list_from_excel',
      ...upload(file, { name, dry_run: 'true' }),
    });
    expect(preview.statusCode).toBe(200);
    const expected = [
      { path: 'row 3', message: 'The row is empty: fill it in or remove it' },
      { path: 'row 4.label', message: '"apple" is also in row 2' },
      { path: 'row 5.key', message: 'Key 1 is also in row 2' },
      { path: 'row 6.key', message: 'A key is a whole number from 1 to 10000' },
      { path: 'row 7.label', message: 'The label is empty' },
    ];
    expect(preview.json().data.errors).toEqual(expected);
    const res = await asAdmin({
      method: 'POST',
      url: '/api/create_value_list_from_excel',
      ...upload(file, { name }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual(expected);
    expect(res.json().message).toMatch(/^Nothing was imported: row 3: The row is empty/);
    expect(await counts()).toEqual(before);
  });

  it('refuses a file that is not a spreadsheet, a sheet without a label column, and a zip bomb (400)', async () => {
    const before = await counts();
    const bomb = zip({
      '[Content_Types].xml': '<Types/>',
      'xl/workbook.xml': '<workbook><sheets><sheet name="a" r:id="rId1"/></sheets></workbook>',
      'xl/worksheets/sheet1.xml': `<worksheet><sheetData>${' '.repeat(80 * 1024 * 1024)}</sheetData></worksheet>`,
    });
    expect(bomb.length).toBeLessThan(200 * 1024);
    for (const [content, path] of [
      [tinyPng(), 'body.file'],
      [Buffer.from('key,label\n1,A\n'), 'body.file'],
      [bomb, 'body.file'],
      [await xlsx([['name'], ['A']]), 'row 1.label'],
    ] as const) {
      const res = await asAdmin({
        method: 'POST',
        url: '/api/create_value_list_from_excel',
        ...upload(content, { name: listName() }),
      });
      expect(res.statusCode, path).toBe(400);
      expect(res.json().errors[0].path).toBe(path);
    }
    expect(await counts()).toEqual(before);
  });

  it('replaces the items of a list: rows keep the item of their key or label, the rest are added or removed', async () => {
    const list = await createValueList(t.db, { items: ['Red', 'Green', 'Blue', 'Black'] });
    const [red, green, blue, black] = list.items as Array<(typeof list.items)[0]>;
    await useItem(list.id, black!.id);
    const file = await xlsx([
      ['key', 'label'],
      [2, 'Lime'],
      [null, 'RED'],
      [null, 'Purple'],
    ]);
    const preview = await asAdmin({
      method: 'PUT',
      url: `/api/edit_value_list_from_excel/${list.id}`,
      ...upload(file, { dry_run: 'true' }),
    });
    expect(preview.json().data).toMatchObject({ dry_run: true, errors: [], value_list: null });
    expect(await t.db.valueListItem.count({ where: { valueListId: list.id, archivedAt: null } })).toBe(4);

    const res = await asAdmin({
      method: 'PUT',
      url: `/api/edit_value_list_from_excel/${list.id}`,
      ...upload(file),
    });
    expect(res.statusCode, res.body).toBe(200);
    const items = res.json().data.value_list.items;
    expect(items.slice(0, 2).map((i: { id: number; label: string }) => [i.id, i.label])).toEqual([
      [green!.id, 'Lime'],
      [red!.id, 'RED'],
    ]);
    expect(items[2].label).toBe('Purple');
    expect(await t.db.valueListItem.findUnique({ where: { id: blue!.id } })).toBeNull();
    expect((await t.db.valueListItem.findUnique({ where: { id: black!.id } }))?.archivedAt).not.toBeNull();
    expect(res.json().data.value_list.source).toBe('excel');
  });

  it('previews a key held by an archived item as a problem of its row', async () => {
    const list = await createValueList(t.db, { items: ['Red', 'Green'] });
    await t.db.valueListItem.update({ where: { id: list.items[1]!.id }, data: { archivedAt: new Date() } });
    const file = await xlsx([
      ['key', 'label'],
      [2, 'Teal'],
    ]);
    const preview = await asAdmin({
      method: 'PUT',
      url: `/api/edit_value_list_from_excel/${list.id}`,
      ...upload(file, { dry_run: 'true' }),
    });
    expect(preview.json().data.errors).toEqual([
      { path: 'row 2.key', message: 'Key 2 belongs to the archived item "Green"' },
    ]);
  });
});
