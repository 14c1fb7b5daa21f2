import type { Prisma } from '@quire/db';
import type { Tx } from '../../lib/deps.js';
import { lockRow } from '../../lib/locks.js';
import { type PageQuery, pageWindow } from '../../lib/paging.js';

// The retention area's queries: rules, legal holds (and which hold covers a file), and
// dispositions (what the daily scan finds due).

const named = { select: { id: true, name: true } } as const;
const person = { select: { id: true, username: true, firstName: true, lastName: true } } as const;

// ---------------------------------------------------------------------------------------------
// Rules

const ruleInclude = { category: named, dateField: named, reviewGroup: named } as const;
export type RuleRow = NonNullable<Awaited<ReturnType<typeof findRule>>>;

/**
 * Locks the row of the category whose rule is set or removed (lib/locks.ts lockRow): two
 * changes of one category's rule sent at once run one after the other, each auditing as
 * "before" the rule the last one left.
 */
export function lockRuleCategory(tx: Tx, categoryId: number): Promise<boolean> {
  return lockRow(tx, 'categories', categoryId);
}

export function findRule(tx: Tx, categoryId: number) {
  return tx.retentionRule.findUnique({ where: { categoryId }, include: ruleInclude });
}

export function listRules(tx: Tx) {
  return tx.retentionRule.findMany({
    include: ruleInclude,
    orderBy: [{ category: { name: 'asc' } }, { id: 'asc' }],
  });
}

export function upsertRule(
  tx: Tx,
  categoryId: number,
  data: Omit<Prisma.RetentionRuleUncheckedCreateInput, 'categoryId'>,
) {
  return tx.retentionRule.upsert({
    where: { categoryId },
    create: { ...data, categoryId },
    update: data,
    include: ruleInclude,
  });
}

export function deleteRule(tx: Tx, id: number) {
  return tx.retentionRule.delete({ where: { id } });
}

/** Category `id` (live) and its ancestors, nearest first, with each one's rule id if it has one. */
export function ancestry(tx: Tx, id: number) {
  return tx.$queryRaw<Array<{ id: number; name: string; rule_id: number | null; depth: number }>>`
    WITH RECURSIVE up AS (
      SELECT c.id, c.name, c.parent_id, 0 AS depth FROM categories c WHERE c.id = ${id} AND c.deleted_at IS NULL
      UNION ALL
      SELECT c.id, c.name, c.parent_id, up.depth + 1 FROM categories c JOIN up ON c.id = up.parent_id
    )
    SELECT up.id, up.name, r.id AS rule_id, up.depth FROM up LEFT JOIN retention_rules r ON r.category_id = up.id
     ORDER BY up.depth`;
}

export async function liveCategory(tx: Tx, id: number) {
  return tx.category.findFirst({ where: { id, deletedAt: null }, select: { id: true, name: true } });
}

export async function metadataField(tx: Tx, id: number) {
  return tx.metadataField.findUnique({ where: { id }, select: { id: true, name: true, type: true } });
}

export async function group(tx: Tx, id: number) {
  return tx.group.findUnique({ where: { id }, select: { id: true, name: true } });
}

// ---------------------------------------------------------------------------------------------
// Legal holds

const holdInclude = { setBy: person, releasedBy: person, _count: { select: { files: true } } } as const;
export type HoldRow = NonNullable<Awaited<ReturnType<typeof findHold>>>;

export function findHold(tx: Tx, id: number) {
  return tx.legalHold.findUnique({ where: { id }, include: holdInclude });
}

/** Takes hold `id`'s row lock for the rest of the transaction. */
export async function lockHold(tx: Tx, id: number) {
  await tx.$queryRaw`SELECT id FROM legal_holds WHERE id = ${id} FOR UPDATE`;
}

export async function holdsPage(tx: Tx, status: 'active' | 'released' | 'all', q: PageQuery) {
  const where: Prisma.LegalHoldWhereInput =
    status === 'active' ? { releasedAt: null } : status === 'released' ? { releasedAt: { not: null } } : {};
  const [rows, total] = await Promise.all([
    tx.legalHold.findMany({
      where,
      include: holdInclude,
      orderBy: [{ setAt: 'desc' }, { id: 'desc' }],
      ...pageWindow(q),
    }),
    tx.legalHold.count({ where }),
  ]);
  return { rows, total };
}

export function createHold(tx: Tx, data: Prisma.LegalHoldUncheckedCreateInput) {
  return tx.legalHold.create({ data, select: { id: true } });
}

export function releaseHold(
  tx: Tx,
  id: number,
  data: { releasedAt: Date; releasedById: number; releaseReason: string },
) {
  return tx.legalHold.update({ where: { id }, data, select: { id: true } });
}

export async function addHoldFiles(tx: Tx, holdId: number, fileIds: number[]) {
  if (fileIds.length)
    await tx.legalHoldFile.createMany({ data: fileIds.map((fileId) => ({ holdId, fileId })) });
}

/** The live files of category `id` and its live sub-categories, their rows locked. */
export async function lockFilesUnder(tx: Tx, categoryId: number) {
  const rows = await tx.$queryRaw<Array<{ id: number }>>`
    WITH RECURSIVE down AS (
      SELECT c.id FROM categories c WHERE c.id = ${categoryId}
      UNION ALL
      SELECT c.id FROM categories c JOIN down ON c.parent_id = down.id WHERE c.deleted_at IS NULL
    )
    SELECT f.id FROM files f WHERE f.category_id IN (SELECT id FROM down) AND f.deleted_at IS NULL
     ORDER BY f.id FOR UPDATE OF f`;
  return rows.map((r) => r.id);
}

/** A file, live or in the trash (a hold keeps a trashed file from its purge). */
export function findFile(tx: Tx, id: number) {
  return tx.file.findUnique({ where: { id }, select: { id: true, name: true } });
}

/** Files `ids` (live or trashed), their rows locked, in id order. */
export async function lockFilesById(tx: Tx, ids: number[]) {
  if (!ids.length) return [];
  const rows = await tx.$queryRaw<Array<{ id: number }>>`
    SELECT f.id FROM files f WHERE f.id = ANY(${ids}::int[]) ORDER BY f.id FOR UPDATE OF f`;
  return rows.map((r) => r.id);
}

export function savedView(tx: Tx, id: number) {
  return tx.savedView.findUnique({
    where: { id },
    select: { id: true, name: true, query: true, userId: true },
  });
}

/** How many live files each of holds `ids` covers now (category holds: the subtree's). */
export async function holdFileCounts(tx: Tx, ids: number[]) {
  if (!ids.length) return new Map<number, number>();
  const rows = await tx.$queryRaw<Array<{ id: number; n: number }>>`
    SELECT h.id,
           CASE h.target
             WHEN 'file' THEN (SELECT count(*)::int FROM files f WHERE f.id = h.file_id)
             WHEN 'saved_view' THEN (SELECT count(*)::int FROM legal_hold_files hf WHERE hf.hold_id = h.id)
             ELSE (WITH RECURSIVE down AS (
                     SELECT c.id FROM categories c WHERE c.id = h.category_id
                     UNION ALL
                     SELECT c.id FROM categories c JOIN down ON c.parent_id = down.id
                   )
                   SELECT count(*)::int FROM files f WHERE f.category_id IN (SELECT id FROM down) AND f.deleted_at IS NULL)
           END AS n
      FROM legal_holds h WHERE h.id = ANY(${ids}::int[])`;
  return new Map(rows.map((r) => [r.id, r.n]));
}

export interface HoldOnFile {
  file_id: number;
  hold_id: number;
  target: 'file' | 'category' | 'saved_view';
  target_name: string;
  reason: string;
  set_at: Date;
  set_by: string;
}

/**
 * The hold in force on each of files `fileIds` (the oldest when several): on the file itself,
 * on a saved search that froze it, or on its category or any category above it.
 */
export function holdsOnFiles(tx: Tx, fileIds: number[]) {
  return tx.$queryRaw<HoldOnFile[]>`
    WITH RECURSIVE up AS (
      SELECT f.id AS file_id, f.category_id AS category_id FROM files f WHERE f.id = ANY(${fileIds}::int[]) AND f.category_id IS NOT NULL
      UNION ALL
      SELECT up.file_id, c.parent_id FROM up JOIN categories c ON c.id = up.category_id WHERE c.parent_id IS NOT NULL
    ), covering AS (
      SELECT h.id AS hold_id, h.file_id FROM legal_holds h
       WHERE h.released_at IS NULL AND h.file_id = ANY(${fileIds}::int[])
      UNION ALL
      SELECT hf.hold_id, hf.file_id FROM legal_hold_files hf JOIN legal_holds h ON h.id = hf.hold_id
       WHERE h.released_at IS NULL AND hf.file_id = ANY(${fileIds}::int[])
      UNION ALL
      SELECT h.id, up.file_id FROM up JOIN legal_holds h ON h.category_id = up.category_id WHERE h.released_at IS NULL
    )
    SELECT DISTINCT ON (x.file_id) x.file_id, h.id AS hold_id, h.target::text AS target, h.target_name, h.reason,
           h.set_at, coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), u.username) AS set_by
      FROM covering x JOIN legal_holds h ON h.id = x.hold_id JOIN users u ON u.id = h.set_by_id
     ORDER BY x.file_id, h.set_at, h.id`;
}

/** The oldest hold in force on categories `ids` or a category above one of them. */
export async function holdOnCategories(tx: Tx, ids: number[]) {
  const [row] = await tx.$queryRaw<Array<Omit<HoldOnFile, 'file_id'> & { category_name: string }>>`
    WITH RECURSIVE up AS (
      SELECT c.id, c.parent_id, c.name AS start_name FROM categories c WHERE c.id = ANY(${ids}::int[])
      UNION ALL
      SELECT c.id, c.parent_id, up.start_name FROM categories c JOIN up ON c.id = up.parent_id
    )
    SELECT h.id AS hold_id, h.target::text AS target, h.target_name, h.reason, h.set_at, up.start_name AS category_name,
           coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), u.username) AS set_by
      FROM up JOIN legal_holds h ON h.category_id = up.id AND h.released_at IS NULL
      JOIN users u ON u.id = h.set_by_id
     ORDER BY h.set_at, h.id LIMIT 1`;
  return row ?? null;
}

export async function activeHoldCount(tx: Tx) {
  return tx.legalHold.count({ where: { releasedAt: null } });
}

// ---------------------------------------------------------------------------------------------
// Dispositions

const dispositionInclude = {
  file: { select: { id: true, name: true, deletedAt: true, category: named } },
  reviewGroup: named,
  decidedBy: person,
} as const;
export type DispositionRow = Awaited<ReturnType<typeof dispositionsByIds>>[number];

export async function dispositionsPage(tx: Tx, status: 'pending' | 'postponed' | 'approved', q: PageQuery) {
  const where: Prisma.RetentionDispositionWhereInput = { status };
  const [rows, total] = await Promise.all([
    tx.retentionDisposition.findMany({
      where,
      include: dispositionInclude,
      orderBy:
        status === 'approved' ? [{ decidedAt: 'desc' }, { id: 'desc' }] : [{ dueAt: 'asc' }, { id: 'asc' }],
      ...pageWindow(q),
    }),
    tx.retentionDisposition.count({ where }),
  ]);
  return { rows, total };
}

export function dispositionsByIds(tx: Tx, ids: number[]) {
  return tx.retentionDisposition.findMany({
    where: { id: { in: ids } },
    include: dispositionInclude,
    orderBy: { id: 'asc' },
  });
}

/** Takes the row locks of dispositions `ids` for the rest of the transaction. */
export async function lockDispositions(tx: Tx, ids: number[]) {
  await tx.$queryRaw`SELECT id FROM retention_dispositions WHERE id = ANY(${ids}::int[]) ORDER BY id FOR UPDATE`;
}

export function decide(
  tx: Tx,
  ids: number[],
  data: {
    status: 'approved' | 'postponed';
    postponedUntil: Date | null;
    decidedById: number;
    decidedAt: Date;
  },
) {
  return tx.retentionDisposition.updateMany({ where: { id: { in: ids } }, data });
}

export interface DueFile {
  file_id: number;
  rule_id: number;
  action: 'review' | 'trash' | 'purge';
  review_group_id: number | null;
  due_at: Date;
}

/**
 * Live indexed files whose retention period under the rule that holds for their category
 * (its own, else the nearest ancestor's) ended by `now`, and that have no disposition under
 * that rule yet.
 */
export function dueFiles(tx: Tx, now: Date, limit: number) {
  return tx.$queryRaw<DueFile[]>`
    WITH RECURSIVE eff AS (
      SELECT c.id AS category_id, r.id AS rule_id FROM categories c JOIN retention_rules r ON r.category_id = c.id
       WHERE c.deleted_at IS NULL
      UNION ALL
      SELECT c.id, eff.rule_id FROM categories c JOIN eff ON c.parent_id = eff.category_id
       WHERE c.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM retention_rules r2 WHERE r2.category_id = c.id)
    ), started AS (
      SELECT f.id AS file_id, r.id AS rule_id, r.action, r.review_group_id, r.keep_for, r.unit,
             CASE r.start_from
               WHEN 'upload' THEN f.created_at
               WHEN 'field_date' THEN (SELECT v.value_date::timestamp FROM file_field_values v
                                        WHERE v.file_id = f.id AND v.field_id = r.date_field_id)
               ELSE (SELECT max(i.finished_at) FROM workflow_instances i
                      WHERE i.file_id = f.id AND i.status IN ('completed', 'rejected'))
             END AS start_at
        FROM files f JOIN eff ON eff.category_id = f.category_id JOIN retention_rules r ON r.id = eff.rule_id
       WHERE f.deleted_at IS NULL AND f.index_status = 'indexed'
    ), due AS (
      SELECT s.*, s.start_at + CASE s.unit
                                 WHEN 'days' THEN make_interval(days => s.keep_for)
                                 WHEN 'months' THEN make_interval(months => s.keep_for)
                                 ELSE make_interval(years => s.keep_for)
                               END AS due_at
        FROM started s WHERE s.start_at IS NOT NULL
    )
    SELECT d.file_id, d.rule_id, d.action::text AS action, d.review_group_id, d.due_at FROM due d
     WHERE d.due_at <= ${now}
       AND NOT EXISTS (SELECT 1 FROM retention_dispositions x WHERE x.file_id = d.file_id AND x.rule_id = d.rule_id)
     ORDER BY d.due_at, d.file_id
     LIMIT ${limit}`;
}

export function insertDispositions(tx: Tx, rows: Prisma.RetentionDispositionCreateManyInput[]) {
  return tx.retentionDisposition.createMany({ data: rows, skipDuplicates: true });
}

/** Postponed dispositions whose new date has come: pending again. */
export function reopenPostponed(tx: Tx, now: Date) {
  return tx.retentionDisposition.updateMany({
    where: { status: 'postponed', postponedUntil: { lte: now } },
    data: { status: 'pending', postponedUntil: null },
  });
}

export function rulesByIds(tx: Tx, ids: number[]) {
  return tx.retentionRule.findMany({ where: { id: { in: ids } }, include: ruleInclude });
}

/** The active members of groups `ids`, by group. */
export async function activeMembers(tx: Tx, ids: number[]) {
  const rows = await tx.groupMember.findMany({
    where: { groupId: { in: ids }, user: { status: 'active' } },
    select: { groupId: true, userId: true },
  });
  const byGroup = new Map<number, number[]>();
  for (const r of rows) byGroup.set(r.groupId, [...(byGroup.get(r.groupId) ?? []), r.userId]);
  return byGroup;
}

export async function fileNames(tx: Tx, ids: number[]) {
  const rows = await tx.file.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } });
  return new Map(rows.map((r) => [r.id, r.name]));
}
