import { describe, expect, it } from 'vitest';
import { callAs, expectAccess, FILE_CONTROL_CALLERS, readCase, writeCase } from '../../../test/access.js';
import type { TestContext } from '../../../test/app.js';
import { errorPaths } from '../../../test/errors.js';
import {
  attachFields,
  createCategory,
  createFile,
  createMetadataField,
  createValueList,
} from '../../../test/factories.js';
import { auditedInTurn } from '../../../test/in-turn.js';
import { uniqueName } from '../../../test/names.js';
import { adminAppPerFile, type CallAs, type SeededUser, seed } from '../../../test/seed.js';

// The metadata fields (user_fields): who may call, the lists of fields and people, storing and
// deleting a field.

let t: TestContext;
let admin: SeededUser;
let asAdmin: CallAs;

adminAppPerFile('File Control Admin', (app) => ({ t, admin, asAdmin } = app));

const fieldName = () => uniqueName('Field');
const counts = async () => ({
  fields: await t.db.metadataField.count(),
  audits: await t.db.auditEvent.count({ where: { type: 'metadata' } }),
});
const store = (payload: Record<string, unknown>) =>
  asAdmin({ method: 'POST', url: '/api/store_user_field', payload });

describe('who may call the metadata calls', () => {
  const cases = [
    readCase('/api/user_fields', true),
    readCase('/api/user_fields/users', true),
    writeCase('POST /api/store_user_field (create)', () => ({
      method: 'POST',
      url: '/api/store_user_field',
      payload: { name: fieldName(), type: 'text' },
    })),
    writeCase('POST /api/store_user_field (update)', async () => ({
      method: 'POST',
      url: '/api/store_user_field',
      payload: { id: (await createMetadataField(t.db)).id, name: fieldName(), type: 'number' },
    })),
    writeCase('DELETE /api/deleteUserField/{id}', async () => ({
      method: 'DELETE',
      url: `/api/deleteUserField/${(await createMetadataField(t.db)).id}`,
    })),
  ];
  it.each(FILE_CONTROL_CALLERS)('as %s', (...caller) => expectAccess(t, caller, cases, counts));
});

describe('GET /api/user_fields', () => {
  it('lists the fields in order with where they are used, counting only categories the caller may view', async () => {
    const {
      users: { staff },
      fields: { field },
      files: { file },
    } = await seed(t, {
      users: { staff: {} },
      fields: { field: { name: fieldName() } },
      categories: {
        seen: { grants: { staff: [] }, fields: ['field'] },
        hidden: { fields: ['field'] },
        hiddenChild: { parent: 'seen', inheritPermissions: false, fields: ['field'] },
      },
      files: { file: { owner: admin, category: 'seen' } },
    });
    await t.db.fileFieldValue.create({ data: { fileId: file.id, fieldId: field.id, valueText: 'x' } });

    const asStaff = await callAs(t, staff.token, { method: 'GET', url: '/api/user_fields' });
    expect(asStaff.statusCode).toBe(200);
    const mine = asStaff.json().data.find((f: { id: number }) => f.id === field.id);
    expect(mine.usage).toEqual({ categories: 1, files: 1, workflows: 0 });

    const all = await asAdmin({ method: 'GET', url: '/api/user_fields' });
    const theirs = all.json().data.find((f: { id: number }) => f.id === field.id);
    expect(theirs).toMatchObject({
      name: field.name,
      type: 'text',
      value_list: null,
      required: false,
      usage: { categories: 3, files: 1, workflows: 0 },
    });
    const positions = all.json().data.map((f: { position: number }) => f.position);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });
});

describe('GET /api/user_fields/users', () => {
  it('lists active people by name, without deactivated ones or the vendor admin', async () => {
    const { active, off, vendor } = (
      await seed(t, {
        users: {
          active: { firstName: 'Aaron', lastName: 'Active', signIn: false },
          off: { status: 'deactivated', signIn: false },
          vendor: { accessType: 'DATAMAX ADMIN', signIn: false },
        },
      })
    ).users;
    const res = await asAdmin({ method: 'GET', url: '/api/user_fields/users' });
    expect(res.statusCode).toBe(200);
    const ids = res.json().data.map((u: { id: number }) => u.id);
    expect(ids).toContain(active.id);
    expect(ids).not.toContain(off.id);
    expect(ids).not.toContain(vendor.id);
    expect(res.json().data.find((u: { id: number }) => u.id === active.id)).toEqual({
      id: active.id,
      name: 'Aaron Active',
      username: active.username,
    });
  });
});

describe('POST /api/store_user_field', () => {
  it('creates a field of each type with its validation, and audits', async () => {
    const list = await createValueList(t.db);
    const made = [
      {
        name: fieldName(),
        type: 'text',
        required: true,
        max_length: 20,
        pattern: '[A-Z]{3}-\\d+',
        help_text: 'Like INV-12',
      },
      { name: fieldName(), type: 'number', min_number: 0, max_number: 1000.5 },
      { name: fieldName(), type: 'date', min_date: '2020-01-01', max_date: '2030-12-31' },
      { name: fieldName(), type: 'boolean' },
      { name: fieldName(), type: 'select', value_list_id: list.id },
      { name: fieldName(), type: 'user' },
    ];
    for (const payload of made) {
      const res = await store(payload);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().message).toBe('Metadata field created');
      const { value_list_id, ...rest } = payload as typeof payload & { value_list_id?: number };
      expect(res.json().data).toMatchObject(rest);
      if (value_list_id) expect(res.json().data.value_list).toEqual({ id: list.id, name: list.name });
      const event = await t.db.auditEvent.findFirst({
        where: { action: 'field.created', targetId: String(res.json().data.id) },
      });
      expect(event?.userId).toBe(admin.id);
    }
  });

  it('refuses bad definitions with a 400 naming the field, writing nothing', async () => {
    const taken = await createMetadataField(t.db, { name: fieldName() });
    const before = await counts();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: taken.name.toUpperCase(), type: 'text' }, 'body.name'],
      [{ name: fieldName(), type: 'select' }, 'body.value_list_id'],
      [{ name: fieldName(), type: 'select', value_list_id: 999999 }, 'body.value_list_id'],
      [{ name: fieldName(), type: 'text', min_number: 1 }, 'body.min_number'],
      [{ name: fieldName(), type: 'number', min_number: 5, max_number: 1 }, 'body.max_number'],
      [{ name: fieldName(), type: 'date', min_date: '2020-02-31x' }, 'body.min_date'],
      [{ name: fieldName(), type: 'text', pattern: '([a-z' }, 'body.pattern'],
      [{ name: fieldName(), type: 'colour' }, 'body.type'],
      [{ name: '  ', type: 'text' }, 'body.name'],
    ];
    for (const [payload, path] of cases) {
      const res = await store(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(errorPaths(res)).toContain(path);
    }
    expect(await counts()).toEqual(before);
  });

  it('replaces a definition by id, keeps its position, and refuses an unknown id (404)', async () => {
    const field = await createMetadataField(t.db, { name: fieldName(), type: 'text', maxLength: 5 });
    const name = fieldName();
    const res = await store({ id: field.id, name, type: 'text', required: true, help_text: 'New help' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      id: field.id,
      name,
      required: true,
      max_length: null,
      help_text: 'New help',
      position: field.position,
    });
    const event = await t.db.auditEvent.findFirst({
      where: { action: 'field.updated', targetId: String(field.id) },
    });
    expect(event?.details).toMatchObject({ before: { max_length: 5 }, after: { max_length: null, name } });
    const missing = await store({ id: 999999, name: fieldName(), type: 'text' });
    expect(missing.statusCode).toBe(404);
  });

  it('refuses to change the type of a field in use, saying where (409), changing nothing', async () => {
    const field = await createMetadataField(t.db, { name: fieldName(), type: 'text' });
    const category = await createCategory(t.db, { name: uniqueName('Invoices') });
    await attachFields(t.db, category.id, [{ fieldId: field.id }]);
    const before = await t.db.metadataField.findUnique({ where: { id: field.id } });
    const res = await store({ id: field.id, name: field.name, type: 'number' });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('metadata.type_locked');
    expect(res.json().message).toContain(`1 category ("${category.name}")`);
    expect(await t.db.metadataField.findUnique({ where: { id: field.id } })).toEqual(before);
    // The rest of the definition may change.
    const rename = await store({ id: field.id, name: fieldName(), type: 'text', required: true });
    expect(rename.statusCode).toBe(200);
  });

  it('takes edits of one field sent at once one after the other, each audit starting where the last ended', async () => {
    const field = await createMetadataField(t.db, { name: fieldName(), type: 'text' });
    const edit = (i: number) => ({
      id: field.id,
      name: field.name,
      type: 'text',
      required: i % 2 === 0,
      help_text: `Help ${i}`,
      max_length: 10 + i,
    });
    expect((await store(edit(0))).statusCode).toBe(200);
    const first = await t.db.auditEvent.findFirstOrThrow({
      where: { action: 'field.updated', targetId: String(field.id) },
    });
    const answers = await Promise.all([1, 2, 3, 4, 5, 6, 7, 8].map((i) => store(edit(i))));
    expect(answers.map((r) => r.statusCode)).toEqual(answers.map(() => 200));
    const last = (await auditedInTurn(t, {
      action: 'field.updated',
      targetId: field.id,
      start: (first.details as { before: unknown }).before,
    })) as { help_text: string; max_length: number };
    const stored = await t.db.metadataField.findUniqueOrThrow({ where: { id: field.id } });
    expect({ help_text: stored.helpText, max_length: stored.maxLength }).toEqual({
      help_text: last.help_text,
      max_length: last.max_length,
    });
  });
});

describe('DELETE /api/deleteUserField/{id}', () => {
  it('deletes a field nothing uses, and audits', async () => {
    const field = await createMetadataField(t.db, { name: fieldName() });
    const res = await asAdmin({ method: 'DELETE', url: `/api/deleteUserField/${field.id}` });
    expect(res.statusCode).toBe(200);
    expect(await t.db.metadataField.findUnique({ where: { id: field.id } })).toBeNull();
    expect(
      await t.db.auditEvent.count({ where: { action: 'field.deleted', targetId: String(field.id) } }),
    ).toBe(1);
    const again = await asAdmin({ method: 'DELETE', url: `/api/deleteUserField/${field.id}` });
    expect(again.statusCode).toBe(404);
  });

  it('refuses a field in use, naming the categories (trashed too), files and workflows (409)', async () => {
    const field = await createMetadataField(t.db, { name: fieldName() });
    const live = await createCategory(t.db, { name: uniqueName('Contracts') });
    const trashed = await createCategory(t.db, { name: uniqueName('Old') });
    await t.db.category.update({ where: { id: trashed.id }, data: { deletedAt: new Date() } });
    await attachFields(t.db, live.id, [{ fieldId: field.id }]);
    await attachFields(t.db, trashed.id, [{ fieldId: field.id }]);
    const file = await createFile(t.db, t.app.deps.blobs, { ownerId: admin.id, categoryId: live.id });
    await t.db.fileFieldValue.create({ data: { fileId: file.id, fieldId: field.id, valueText: 'x' } });
    const workflow = await t.db.workflow.create({ data: { name: uniqueName('Approval') } });
    await t.db.workflowField.create({ data: { workflowId: workflow.id, fieldId: field.id, position: 0 } });
    const before = await counts();
    const res = await asAdmin({ method: 'DELETE', url: `/api/deleteUserField/${field.id}` });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'metadata.in_use' });
    expect(res.json().message).toBe(
      `"${field.name}" cannot be deleted: it is used by 2 categories ("${live.name}", "${trashed.name} (in the trash)"), 1 file and 1 workflow ("${workflow.name}"). Remove it there first.`,
    );
    expect(await counts()).toEqual(before);
  });
});
