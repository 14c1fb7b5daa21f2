import type { AccessType, LoginRole } from '@quire/contract';
import type { Db, UserStatus } from '@quire/db';
import type { FastifyInstance } from 'fastify';
import { accessTypeToDb } from '../src/lib/access-types.js';
import type { BlobStore } from '../src/lib/blob-store.js';
import { hashPassword } from '../src/lib/passwords.js';

// Data factories shared by the tests and `pnpm db:seed`.

export const TEST_PASSWORD = 'Correct-Horse-Battery-9';
let passwordHash: Promise<string> | undefined;
let seq = 0;

export async function ensureCompany(db: Db) {
  return (await db.company.findFirst()) ?? (await db.company.create({ data: { name: 'Test Company' } }));
}

export interface UserOverrides {
  username?: string;
  email?: string;
  accessType?: AccessType;
  loginRole?: LoginRole;
  status?: UserStatus;
  firstName?: string;
  lastName?: string;
  password?: string;
}

/** A user of the given access type; login role admin unless General staff. */
export async function createUser(db: Db, o: UserOverrides = {}) {
  const company = await ensureCompany(db);
  const accessType = o.accessType ?? 'General staff';
  seq += 1;
  const username = (o.username ?? `user${seq}_${Date.now().toString(36)}`).toLowerCase();
  passwordHash ??= hashPassword(TEST_PASSWORD);
  return db.user.create({
    data: {
      companyId: company.id,
      username,
      email: (o.email ?? `${username}@example.test`).toLowerCase(),
      firstName: o.firstName ?? 'Test',
      lastName: o.lastName ?? `User ${seq}`,
      loginRole: o.loginRole ?? (accessType === 'General staff' ? 'user' : 'admin'),
      accessType: accessTypeToDb(accessType),
      status: o.status ?? 'active',
      passwordHash: o.password ? await hashPassword(o.password) : await passwordHash,
    },
  });
}

/** Signs in through the API and returns the bearer token. */
export async function loginAs(
  app: FastifyInstance,
  user: { username: string },
  role: LoginRole = 'admin',
  password = TEST_PASSWORD,
): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { username: user.username, password, role },
  });
  if (res.statusCode !== 200)
    throw new Error(`login failed for ${user.username}: ${res.statusCode} ${res.body}`);
  return res.json().data.access_token;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

// ---------------------------------------------------------------------------------------------
// Documents: categories with grants, files with a stored version. Areas extend these rather
// than writing their own.

export interface Grant {
  userId?: number;
  groupId?: number;
  /** Rights besides view (any right implies view). */
  rights?: Array<'upload' | 'edit' | 'delete' | 'share' | 'manage'>;
}

/** A live category (under `parentId` when given), with grants. */
export async function createCategory(
  db: Db,
  o: {
    name?: string;
    parentId?: number;
    grants?: Grant[];
    inheritPermissions?: boolean;
    position?: number;
  } = {},
) {
  seq += 1;
  const category = await db.category.create({
    data: {
      name: o.name ?? `Category ${seq}`,
      parentId: o.parentId ?? null,
      position: o.position ?? seq,
      inheritPermissions: o.inheritPermissions ?? true,
    },
  });
  for (const g of o.grants ?? []) {
    const r = new Set(g.rights ?? []);
    await db.categoryPermission.create({
      data: {
        categoryId: category.id,
        userId: g.userId ?? null,
        groupId: g.groupId ?? null,
        canUpload: r.has('upload'),
        canEdit: r.has('edit'),
        canDelete: r.has('delete'),
        canShare: r.has('share'),
        canManage: r.has('manage'),
      },
    });
  }
  return category;
}

/**
 * A file with one version whose content is stored in `blobs` (the app's store:
 * `app.deps.blobs`), indexed in `categoryId` unless `indexed` is false.
 */
export async function createFile(
  db: Db,
  blobs: BlobStore,
  o: {
    ownerId: number;
    categoryId?: number | null;
    name?: string;
    content?: Buffer;
    mimeType?: string;
    indexed?: boolean;
  },
) {
  seq += 1;
  const content = o.content ?? Buffer.from(`file ${seq} made by a test\n`);
  const stored = await blobs.put(content);
  const name = o.name ?? `file-${seq}.txt`;
  const mimeType = o.mimeType ?? 'text/plain';
  return db.$transaction(async (tx) => {
    await tx.blob.upsert({
      where: { id: stored.id },
      create: { id: stored.id, size: BigInt(stored.size), mimeType },
      update: {},
    });
    const file = await tx.file.create({
      data: {
        name,
        categoryId: o.categoryId ?? null,
        ownerId: o.ownerId,
        indexStatus: o.indexed === false ? 'unindexed' : 'indexed',
        indexedAt: o.indexed === false ? null : new Date(),
      },
    });
    const version = await tx.fileVersion.create({
      data: {
        fileId: file.id,
        number: 1,
        blobId: stored.id,
        originalName: name,
        mimeType,
        size: BigInt(stored.size),
        authorId: o.ownerId,
      },
    });
    return tx.file.update({ where: { id: file.id }, data: { currentVersionId: version.id } });
  });
}

/** A value list with items in order (keys 1, 2, 3… unless given). */
export async function createValueList(
  db: Db,
  o: { name?: string; items?: Array<string | { key: number; label: string }> } = {},
) {
  seq += 1;
  return db.valueList.create({
    data: {
      name: o.name ?? `List ${seq}`,
      items: {
        create: (o.items ?? ['Red', 'Green', 'Blue']).map((item, position) =>
          typeof item === 'string'
            ? { key: position + 1, label: item, position }
            : { key: item.key, label: item.label, position },
        ),
      },
    },
    include: { items: { orderBy: { position: 'asc' } } },
  });
}

/** A metadata field (a `select` field needs `valueListId`). */
export async function createMetadataField(
  db: Db,
  o: {
    name?: string;
    type?: 'text' | 'number' | 'date' | 'boolean' | 'select' | 'user';
    valueListId?: number;
    required?: boolean;
    maxLength?: number;
    pattern?: string;
    minNumber?: number;
    maxNumber?: number;
  } = {},
) {
  seq += 1;
  return db.metadataField.create({
    data: {
      name: o.name ?? `Field ${seq}`,
      type: o.type ?? 'text',
      valueListId: o.valueListId ?? null,
      required: o.required ?? false,
      maxLength: o.maxLength ?? null,
      pattern: o.pattern ?? null,
      minNumber: o.minNumber ?? null,
      maxNumber: o.maxNumber ?? null,
      position: seq,
    },
  });
}

/** Attaches fields to a category, in order. */
export async function attachFields(
  db: Db,
  categoryId: number,
  fields: Array<{ fieldId: number; required?: boolean; defaultValue?: string }>,
) {
  await db.categoryField.createMany({
    data: fields.map((f, position) => ({
      categoryId,
      fieldId: f.fieldId,
      position,
      required: f.required ?? null,
      defaultValue: f.defaultValue ?? null,
    })),
  });
}

/**
 * A metadata field for a test that only needs one to exist: a `select` field gets its own
 * value list with `items` keyed 1, 2, 3…; names are unique across test files.
 */
export async function createField(
  db: Db,
  o: {
    name?: string;
    type?: 'text' | 'number' | 'date' | 'boolean' | 'select' | 'user';
    required?: boolean;
    items?: string[];
    minNumber?: number;
    maxNumber?: number;
    maxLength?: number;
  } = {},
) {
  const unique = Date.now().toString(36);
  const { items, ...field } = o;
  const list =
    o.type === 'select'
      ? await createValueList(db, { name: `List ${seq + 1} ${unique}`, items: items ?? ['One', 'Two'] })
      : null;
  return createMetadataField(db, {
    ...field,
    name: o.name ?? `Field ${seq + 1} ${unique}`,
    ...(list ? { valueListId: list.id } : {}),
  });
}

/** Puts fields on a category's indexing form, in the order given. */
export async function addCategoryFields(db: Db, categoryId: number, fieldIds: number[]) {
  await attachFields(
    db,
    categoryId,
    fieldIds.map((fieldId) => ({ fieldId })),
  );
}

/** A group with members (named uniquely unless `name` is given). */
export async function createGroup(db: Db, userIds: number[] = [], name?: string, description?: string) {
  seq += 1;
  return db.group.create({
    data: {
      name: name ?? `Group ${seq} ${Date.now().toString(36)}`,
      ...(description !== undefined ? { description } : {}),
      members: { create: userIds.map((userId) => ({ userId })) },
    },
  });
}

/**
 * Sets a file's metadata values as the files area stores them: text, a number, a `YYYY-MM-DD`
 * date, yes/no, a select field's item key, a user id.
 */
export async function setFileValues(
  db: Db,
  fileId: number,
  values: Array<{ fieldId: number; value: string | number | boolean | null }>,
) {
  for (const { fieldId, value } of values) {
    const field = await db.metadataField.findUniqueOrThrow({ where: { id: fieldId } });
    const columns = {
      valueText: field.type === 'text' && value !== null ? String(value) : null,
      valueNumber: field.type === 'number' && value !== null ? String(value) : null,
      valueDate: field.type === 'date' && value !== null ? new Date(`${value}T00:00:00Z`) : null,
      valueBoolean: field.type === 'boolean' && value !== null ? value === true : null,
      valueItemId:
        field.type === 'select' && value !== null && field.valueListId
          ? (
              await db.valueListItem.findFirstOrThrow({
                where: { valueListId: field.valueListId, key: Number(value) },
              })
            ).id
          : null,
      valueUserId: field.type === 'user' && value !== null ? Number(value) : null,
    };
    await db.fileFieldValue.upsert({
      where: { fileId_fieldId: { fileId, fieldId } },
      create: { fileId, fieldId, ...columns },
      update: columns,
    });
  }
}
