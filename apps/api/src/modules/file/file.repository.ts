import { Prisma } from '@quire/db';
import type { Tx } from '../../lib/deps.js';
import type { PageQuery } from '../../lib/paging.js';
import { likePattern } from '../../lib/sql.js';
import { fileVisible, type Scope } from '../../lib/visibility.js';
import type { ValueWrite } from './file.metadata.js';

// The files area's queries: files, versions, values, grants, shares, attachments, comments,
// follows and favourites. Lists filter in SQL (lib/visibility.ts), never after the query.

// ---------------------------------------------------------------------------------------------
// Rows of every list

export interface PersonRow {
  id: number;
  username: string;
  first_name: string;
  last_name: string;
}

export interface SummaryRow {
  id: number;
  name: string;
  category_id: number | null;
  category_name: string | null;
  prefix: string | null;
  incremental_value: number | null;
  index_status: 'unindexed' | 'indexed';
  owner_id: number;
  owner_username: string;
  owner_first: string;
  owner_last: string;
  mime_type: string;
  size: bigint | number;
  version: number;
  lock_id: number | null;
  lock_username: string | null;
  lock_first: string | null;
  lock_last: string | null;
  co_id: number | null;
  co_username: string | null;
  co_first: string | null;
  co_last: string | null;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
  deleted_by_id: number | null;
  category_live: boolean;
}

/** The columns of a summary row (alias f = files). */
export const SUMMARY_COLUMNS = Prisma.sql`
  f.id, f.name, f.category_id, c.name AS category_name, c.incremental_prefix AS prefix,
  f.incremental_value, f.index_status::text AS index_status,
  o.id AS owner_id, o.username AS owner_username, o.first_name AS owner_first, o.last_name AS owner_last,
  coalesce(v.mime_type, 'application/octet-stream') AS mime_type, coalesce(v.size, 0) AS size,
  coalesce(v.number, 0) AS version,
  lu.id AS lock_id, lu.username AS lock_username, lu.first_name AS lock_first, lu.last_name AS lock_last,
  cu.id AS co_id, cu.username AS co_username, cu.first_name AS co_first, cu.last_name AS co_last,
  f.created_at, f.updated_at, f.deleted_at, f.deleted_by_id,
  (c.id IS NOT NULL AND c.deleted_at IS NULL) AS category_live`;

/** The joins a summary row needs. */
export const SUMMARY_FROM = Prisma.sql`files f
  LEFT JOIN categories c ON c.id = f.category_id
  JOIN users o ON o.id = f.owner_id
  LEFT JOIN file_versions v ON v.id = f.current_version_id
  LEFT JOIN users lu ON lu.id = f.locked_by_id
  LEFT JOIN users cu ON cu.id = f.checked_out_by_id`;

async function page(
  tx: Tx,
  where: Prisma.Sql,
  order: Prisma.Sql,
  q: PageQuery,
  from: Prisma.Sql = SUMMARY_FROM,
): Promise<{ rows: SummaryRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    tx.$queryRaw<SummaryRow[]>`SELECT ${SUMMARY_COLUMNS} FROM ${from} WHERE ${where}
      ORDER BY ${order} LIMIT ${q.quantity} OFFSET ${(q.page - 1) * q.quantity}`,
    tx.$queryRaw<Array<{ n: bigint }>>`SELECT count(*) AS n FROM ${from} WHERE ${where}`,
  ]);
  return { rows, total: Number(count[0]?.n ?? 0) };
}

export async function summaries(tx: Tx, ids: number[]): Promise<SummaryRow[]> {
  if (!ids.length) return [];
  const rows = await tx.$queryRaw<SummaryRow[]>`
    SELECT ${SUMMARY_COLUMNS} FROM ${SUMMARY_FROM} WHERE f.id = ANY(${ids}::int[])`;
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export function unindexedPage(tx: Tx, userId: number, folderId: number | undefined, q: PageQuery) {
  const where = Prisma.sql`f.owner_id = ${userId}::int AND f.index_status = 'unindexed' AND f.deleted_at IS NULL
    ${folderId ? Prisma.sql`AND f.category_id = ${folderId}::int` : Prisma.empty}`;
  return page(tx, where, Prisma.sql`f.created_at DESC, f.id DESC`, q);
}

export function checkedOutPage(tx: Tx, scope: Scope, userId: number, q: PageQuery) {
  const where = Prisma.sql`f.checked_out_by_id = ${userId}::int AND f.deleted_at IS NULL AND ${fileVisible(scope)}`;
  return page(tx, where, Prisma.sql`f.checked_out_at DESC, f.id DESC`, q);
}

export function favouritesPage(tx: Tx, scope: Scope, userId: number, q: PageQuery) {
  const from = Prisma.sql`${SUMMARY_FROM} JOIN file_favourites fav ON fav.file_id = f.id AND fav.user_id = ${userId}::int`;
  const where = Prisma.sql`f.deleted_at IS NULL AND ${fileVisible(scope)}`;
  return page(tx, where, Prisma.sql`fav.created_at DESC, f.id DESC`, q, from);
}

// ---------------------------------------------------------------------------------------------
// The category's file list

export interface CategoryFilter {
  search?: string;
  startDate?: string;
  endDate?: string;
  fields: Array<{ fieldId: number; fieldName?: string }>;
}

function fieldMatch(fieldId: number, text: string | undefined): Prisma.Sql {
  if (text === undefined || text === '')
    return Prisma.sql`EXISTS (SELECT 1 FROM file_field_values fv WHERE fv.file_id = f.id AND fv.field_id = ${fieldId}::int)`;
  const like = likePattern(text);
  const exact = text.trim().toLowerCase();
  return Prisma.sql`EXISTS (
    SELECT 1 FROM file_field_values fv
      LEFT JOIN value_list_items i ON i.id = fv.value_item_id
      LEFT JOIN users vu ON vu.id = fv.value_user_id
     WHERE fv.file_id = f.id AND fv.field_id = ${fieldId}::int
       AND (lower(fv.value_text) LIKE ${like}
            OR fv.value_number::text = ${exact} OR trim_scale(fv.value_number)::text = ${exact}
            OR fv.value_date::text = ${exact}
            OR (fv.value_boolean IS NOT NULL AND (CASE WHEN fv.value_boolean THEN 'yes' ELSE 'no' END = ${exact} OR fv.value_boolean::text = ${exact}))
            OR lower(i.label) LIKE ${like} OR i.key::text = ${exact}
            OR lower(vu.username) LIKE ${like} OR lower(vu.first_name || ' ' || vu.last_name) LIKE ${like}))`;
}

/** The WHERE of a category's list: live, indexed, visible, filtered. */
export function categoryWhere(scope: Scope, categoryId: number, filter: CategoryFilter): Prisma.Sql {
  const parts: Prisma.Sql[] = [
    Prisma.sql`f.category_id = ${categoryId}::int`,
    Prisma.sql`f.deleted_at IS NULL`,
    Prisma.sql`f.index_status = 'indexed'`,
    fileVisible(scope),
  ];
  if (filter.search) {
    const like = likePattern(filter.search);
    parts.push(
      Prisma.sql`(lower(f.name) LIKE ${like} OR lower(coalesce(c.incremental_prefix, '') || f.incremental_value::text) LIKE ${like})`,
    );
  }
  if (filter.startDate) parts.push(Prisma.sql`f.created_at >= ${filter.startDate}::date`);
  if (filter.endDate) parts.push(Prisma.sql`f.created_at < ${filter.endDate}::date + 1`);
  for (const f of filter.fields) parts.push(fieldMatch(f.fieldId, f.fieldName));
  return Prisma.join(parts, ' AND ');
}

export function categoryPage(tx: Tx, scope: Scope, categoryId: number, filter: CategoryFilter, q: PageQuery) {
  return page(tx, categoryWhere(scope, categoryId, filter), Prisma.sql`f.created_at DESC, f.id DESC`, q);
}

/** Every row of a category's filtered list, in pages of `batch`, for the export. */
export async function* categoryRows(
  tx: Tx,
  scope: Scope,
  categoryId: number,
  filter: CategoryFilter,
  batch = 1000,
): AsyncGenerator<SummaryRow[]> {
  const where = categoryWhere(scope, categoryId, filter);
  let after: { createdAt: Date; id: number } | null = null;
  for (;;) {
    const cursor: Prisma.Sql = after
      ? Prisma.sql`AND (f.created_at, f.id) < (${after.createdAt}, ${after.id}::int)`
      : Prisma.empty;
    const rows: SummaryRow[] = await tx.$queryRaw<SummaryRow[]>`
      SELECT ${SUMMARY_COLUMNS} FROM ${SUMMARY_FROM} WHERE ${where} ${cursor}
      ORDER BY f.created_at DESC, f.id DESC LIMIT ${batch}`;
    if (!rows.length) return;
    yield rows;
    const last = rows[rows.length - 1] as SummaryRow;
    after = { createdAt: last.created_at, id: last.id };
    if (rows.length < batch) return;
  }
}

// ---------------------------------------------------------------------------------------------
// Categories (their fields are the category area's: categoryFields in category.service.ts)

export function liveCategory(tx: Tx, id: number) {
  return tx.category.findFirst({
    where: { id, deletedAt: null },
    select: { id: true, name: true, incrementalPrefix: true, nextIncremental: true },
  });
}

/**
 * Takes `n` running numbers of a live category under its row lock (two uploads never share
 * one); null when the category is gone.
 */
export async function takeIncrementals(tx: Tx, categoryId: number, n: number): Promise<number | null> {
  const rows = await tx.$queryRaw<Array<{ first: number }>>`
    UPDATE categories SET next_incremental = next_incremental + ${n}::int
     WHERE id = ${categoryId}::int AND deleted_at IS NULL
    RETURNING next_incremental - ${n}::int AS first`;
  return rows[0]?.first ?? null;
}

/**
 * Gives files `fileIds` (in that order) the next running numbers of category `categoryId`, in
 * one statement: the category's row stays locked from here to the commit. False when the
 * category is gone.
 */
export async function numberFiles(tx: Tx, categoryId: number, fileIds: number[]): Promise<boolean> {
  const first = await takeIncrementals(tx, categoryId, fileIds.length);
  if (first === null) return false;
  await tx.$executeRaw`
    UPDATE files f SET incremental_value = ${first}::int + n.ord::int - 1
      FROM unnest(${fileIds}::int[]) WITH ORDINALITY AS n(id, ord)
     WHERE f.id = n.id`;
  return true;
}

// ---------------------------------------------------------------------------------------------
// One file

/** A file and what its page shows. */
export function findFileDetail(tx: Tx, id: number, options: { trashed?: boolean } = {}) {
  const person = { select: { id: true, username: true, firstName: true, lastName: true } };
  return tx.file.findFirst({
    where: { id, deletedAt: options.trashed ? { not: null } : null },
    include: {
      category: { select: { id: true, name: true, incrementalPrefix: true, deletedAt: true } },
      owner: person,
      lockedBy: person,
      checkedOutBy: person,
      versions: { orderBy: { number: 'desc' }, include: { author: person } },
      comments: { where: { deletedAt: null }, orderBy: { createdAt: 'asc' }, include: { author: person } },
      attachments: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], include: { uploadedBy: person } },
      followers: { orderBy: { createdAt: 'asc' }, include: { user: person } },
      shares: { orderBy: { createdAt: 'desc' }, include: { createdBy: person } },
    },
  });
}
export type FileDetailRow = NonNullable<Awaited<ReturnType<typeof findFileDetail>>>;

export async function isFavourite(tx: Tx, fileId: number, userId: number) {
  return (await tx.fileFavourite.count({ where: { fileId, userId } })) > 0;
}

export interface LockedFile {
  id: number;
  name: string;
  category_id: number | null;
  owner_id: number;
  index_status: 'unindexed' | 'indexed';
  incremental_value: number | null;
  current_version_id: number | null;
  locked_by_id: number | null;
  checked_out_by_id: number | null;
  has_own_permissions: boolean;
  deleted_at: Date | null;
  lock_name: string | null;
  co_name: string | null;
}

/** The live files of categories `categoryIds`, by id. */
export async function liveFileIdsIn(tx: Tx, categoryIds: number[]): Promise<number[]> {
  const rows = await tx.file.findMany({
    where: { categoryId: { in: categoryIds }, deletedAt: null },
    select: { id: true },
    orderBy: { id: 'asc' },
  });
  return rows.map((r) => r.id);
}

/** Files `ids` with their row locks taken (for the rest of the transaction), in id order. */
export function lockFiles(tx: Tx, ids: number[], options: { trashed?: boolean } = {}) {
  const state = options.trashed ? Prisma.sql`f.deleted_at IS NOT NULL` : Prisma.sql`f.deleted_at IS NULL`;
  return tx.$queryRaw<LockedFile[]>`
    SELECT f.id, f.name, f.category_id, f.owner_id, f.index_status::text AS index_status,
           f.incremental_value, f.current_version_id, f.locked_by_id, f.checked_out_by_id,
           f.has_own_permissions, f.deleted_at,
           (SELECT coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), u.username) FROM users u WHERE u.id = f.locked_by_id) AS lock_name,
           (SELECT coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), u.username) FROM users u WHERE u.id = f.checked_out_by_id) AS co_name
      FROM files f
     WHERE f.id = ANY(${ids}::int[]) AND ${state}
     ORDER BY f.id
       FOR UPDATE OF f`;
}

export function updateFile(tx: Tx, id: number, data: Prisma.FileUncheckedUpdateInput) {
  return tx.file.update({ where: { id }, data });
}

/**
 * Records stored content in `blobs`. One statement that never locks an existing row (ON
 * CONFLICT DO NOTHING): uploads of the same content do not queue on it, except behind the
 * one transaction that is inserting it.
 */
export function upsertBlob(tx: Tx, blob: { id: string; size: number; mimeType: string }) {
  return tx.$executeRaw`
    INSERT INTO blobs (id, size, mime_type) VALUES (${blob.id}, ${BigInt(blob.size)}, ${blob.mimeType})
    ON CONFLICT (id) DO NOTHING`;
}

export function createFile(tx: Tx, data: Prisma.FileUncheckedCreateInput) {
  return tx.file.create({ data, select: { id: true } });
}

export async function nextVersionNumber(tx: Tx, fileId: number): Promise<number> {
  const top = await tx.fileVersion.aggregate({ where: { fileId }, _max: { number: true } });
  return (top._max.number ?? 0) + 1;
}

export function createVersion(tx: Tx, data: Prisma.FileVersionUncheckedCreateInput) {
  return tx.fileVersion.create({ data });
}

export function findVersion(tx: Tx, id: number) {
  return tx.fileVersion.findUnique({ where: { id } });
}

/** The file of each version or attachment id, for live files only. */
export async function fileIdsOf(tx: Tx, kind: 'version' | 'attachment', ids: number[]) {
  const rows =
    kind === 'version'
      ? await tx.fileVersion.findMany({
          where: { id: { in: ids }, file: { deletedAt: null } },
          select: { id: true, fileId: true },
        })
      : await tx.attachment.findMany({
          where: { id: { in: ids }, file: { deletedAt: null } },
          select: { id: true, fileId: true },
        });
  return new Map(rows.map((r) => [r.id, r.fileId]));
}

// ---------------------------------------------------------------------------------------------
// Values

export interface StoredValue {
  fieldId: number;
  valueText: string | null;
  valueNumber: string | null;
  valueDate: Date | null;
  valueBoolean: boolean | null;
  valueItemId: number | null;
  valueUserId: number | null;
  itemKey: number | null;
  itemLabel: string | null;
  userName: string | null;
}

/** The values of files `fileIds` (of `fieldIds` when given), by file. */
export async function storedValues(
  tx: Tx,
  fileIds: number[],
  fieldIds?: number[],
): Promise<Map<number, StoredValue[]>> {
  const out = new Map<number, StoredValue[]>();
  if (!fileIds.length) return out;
  const rows = await tx.$queryRaw<
    Array<{
      file_id: number;
      field_id: number;
      value_text: string | null;
      value_number: Prisma.Decimal | null;
      value_date: Date | null;
      value_boolean: boolean | null;
      value_item_id: number | null;
      value_user_id: number | null;
      item_key: number | null;
      item_label: string | null;
      user_name: string | null;
    }>
  >`
    SELECT fv.file_id, fv.field_id, fv.value_text, fv.value_number, fv.value_date, fv.value_boolean,
           fv.value_item_id, fv.value_user_id, i.key AS item_key, i.label AS item_label,
           coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), u.username) AS user_name
      FROM file_field_values fv
      LEFT JOIN value_list_items i ON i.id = fv.value_item_id
      LEFT JOIN users u ON u.id = fv.value_user_id
     WHERE fv.file_id = ANY(${fileIds}::int[])
       ${fieldIds ? Prisma.sql`AND fv.field_id = ANY(${fieldIds}::int[])` : Prisma.empty}`;
  for (const r of rows) {
    const list = out.get(r.file_id) ?? [];
    list.push({
      fieldId: r.field_id,
      valueText: r.value_text,
      valueNumber: r.value_number === null ? null : String(r.value_number),
      valueDate: r.value_date,
      valueBoolean: r.value_boolean,
      valueItemId: r.value_item_id,
      valueUserId: r.value_user_id,
      itemKey: r.item_key,
      itemLabel: r.item_label,
      userName: r.user_name,
    });
    out.set(r.file_id, list);
  }
  return out;
}

export async function writeValues(
  tx: Tx,
  fileId: number,
  writes: ValueWrite[],
  drop: number[],
  userId: number,
) {
  const clear = [...drop, ...writes.filter((w) => isEmpty(w)).map((w) => w.fieldId)];
  if (clear.length) await tx.fileFieldValue.deleteMany({ where: { fileId, fieldId: { in: clear } } });
  for (const w of writes.filter((x) => !isEmpty(x))) {
    const data = {
      valueText: w.valueText,
      valueNumber: w.valueNumber,
      valueDate: w.valueDate,
      valueBoolean: w.valueBoolean,
      valueItemId: w.valueItemId,
      valueUserId: w.valueUserId,
      updatedById: userId,
    };
    await tx.fileFieldValue.upsert({
      where: { fileId_fieldId: { fileId, fieldId: w.fieldId } },
      create: { fileId, fieldId: w.fieldId, ...data },
      update: data,
    });
  }
}

function isEmpty(w: ValueWrite) {
  return (
    w.valueText === null &&
    w.valueNumber === null &&
    w.valueDate === null &&
    w.valueBoolean === null &&
    w.valueItemId === null &&
    w.valueUserId === null
  );
}

export async function itemIds(tx: Tx, pairs: Array<{ valueListId: number; key: number }>) {
  const rows = await tx.valueListItem.findMany({
    where: { archivedAt: null, OR: pairs.map((p) => ({ valueListId: p.valueListId, key: p.key })) },
    select: { id: true, valueListId: true, key: true },
  });
  return new Map(rows.map((r) => [`${r.valueListId}:${r.key}`, r.id]));
}

export async function activeUserIds(tx: Tx, ids: number[]) {
  const rows = await tx.user.findMany({
    where: { id: { in: ids.filter((id) => id > 0 && id < 2 ** 31) }, status: 'active' },
    select: { id: true },
  });
  return new Set(rows.map((r) => r.id));
}

export async function replaceTags(
  tx: Tx,
  fileId: number,
  categoryId: number,
  tagIds: number[],
  userId: number,
) {
  const valid = await tx.relatedTag.findMany({
    where: { id: { in: tagIds }, categoryId },
    select: { id: true },
  });
  await tx.fileTag.deleteMany({ where: { fileId } });
  if (valid.length)
    await tx.fileTag.createMany({ data: valid.map((t) => ({ fileId, tagId: t.id, createdById: userId })) });
  return valid.map((t) => t.id);
}

// ---------------------------------------------------------------------------------------------
// Grants and shares

export async function hasOwnPermissions(tx: Tx, fileId: number): Promise<boolean> {
  const f = await tx.file.findUniqueOrThrow({ where: { id: fileId }, select: { hasOwnPermissions: true } });
  return f.hasOwnPermissions;
}

export function fileGrants(tx: Tx, fileId: number) {
  return tx.filePermission.findMany({
    where: { fileId },
    orderBy: { id: 'asc' },
    include: {
      user: { select: { id: true, username: true, firstName: true, lastName: true } },
      group: { select: { id: true, name: true } },
    },
  });
}

export async function replaceGrants(
  tx: Tx,
  fileId: number,
  grants: Array<Omit<Prisma.FilePermissionUncheckedCreateInput, 'fileId'>>,
) {
  await tx.filePermission.deleteMany({ where: { fileId } });
  if (grants.length) await tx.filePermission.createMany({ data: grants.map((g) => ({ ...g, fileId })) });
}

/** Adds rights to users' or groups' grants on a file (never removes one). */
export async function addGrant(
  tx: Tx,
  fileId: number,
  who: { userId: number } | { groupId: number },
  rights: { canDownload: boolean; canEdit: boolean },
  grantedById: number,
) {
  const where =
    'userId' in who
      ? { fileId_userId: { fileId, userId: who.userId } }
      : { fileId_groupId: { fileId, groupId: who.groupId } };
  const existing = await tx.filePermission.findUnique({ where });
  if (existing) {
    await tx.filePermission.update({
      where: { id: existing.id },
      data: {
        canView: true,
        canDownload: existing.canDownload || rights.canDownload,
        canEdit: existing.canEdit || rights.canEdit,
      },
    });
    return;
  }
  await tx.filePermission.create({
    data: { fileId, ...who, canView: true, ...rights, grantedById },
  });
}

export async function existingGroupIds(tx: Tx, ids: number[]) {
  const rows = await tx.group.findMany({ where: { id: { in: ids } }, select: { id: true } });
  return new Set(rows.map((r) => r.id));
}

/** Active users: those named, and the members of the groups named. */
export function usersToTell(tx: Tx, userIds: number[], groupIds: number[]) {
  return tx.user.findMany({
    where: {
      status: 'active',
      OR: [{ id: { in: userIds } }, { memberships: { some: { groupId: { in: groupIds } } } }],
    },
    select: { id: true, username: true, firstName: true, lastName: true, email: true },
    orderBy: { id: 'asc' },
  });
}

export function createShare(tx: Tx, data: Prisma.ShareUncheckedCreateInput) {
  return tx.share.create({ data });
}

/** Of links `ids`, those of file `fileId` not revoked yet. */
export function liveSharesAmong(tx: Tx, fileId: number, ids: string[]) {
  return tx.share.findMany({
    where: { fileId, id: { in: ids }, revokedAt: null },
    select: { id: true },
  });
}

export function revokeShares(tx: Tx, fileId: number, ids: string[], at: Date) {
  return tx.share.updateMany({
    where: { fileId, id: { in: ids }, revokedAt: null },
    data: { revokedAt: at },
  });
}

export function shareByTokenHash(tx: Tx, tokenHash: string) {
  return tx.share.findUnique({
    where: { tokenHash },
    include: {
      file: { select: { id: true, name: true, deletedAt: true, currentVersionId: true } },
      createdBy: { select: { id: true, accessType: true, status: true, deletedAt: true } },
    },
  });
}

export function countShareDownload(tx: Tx, id: string, at: Date) {
  return tx.share.update({ where: { id }, data: { downloadCount: { increment: 1 }, lastUsedAt: at } });
}

export function touchShare(tx: Tx, id: string, at: Date) {
  return tx.share.update({ where: { id }, data: { lastUsedAt: at } });
}

// ---------------------------------------------------------------------------------------------
// Attachments, views

export function createAttachment(tx: Tx, data: Prisma.AttachmentUncheckedCreateInput) {
  return tx.attachment.create({
    data,
    include: { uploadedBy: { select: { id: true, username: true, firstName: true, lastName: true } } },
  });
}

export function findAttachments(tx: Tx, ids: number[]) {
  return tx.attachment.findMany({ where: { id: { in: ids } } });
}

export async function recordView(tx: Tx, userId: number, fileId: number, at: Date, preview: boolean) {
  await tx.fileView.upsert({
    where: { userId_fileId: { userId, fileId } },
    create: { userId, fileId, lastViewedAt: at, lastPreviewedAt: preview ? at : null },
    update: preview ? { lastPreviewedAt: at } : { lastViewedAt: at, viewCount: { increment: 1 } },
  });
}

export function deleteFileRow(tx: Tx, id: number) {
  return tx.$executeRaw`DELETE FROM files WHERE id = ${id}::int`;
}
