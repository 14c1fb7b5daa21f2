import type { Prisma } from '@quire/db';
import type { Tx } from '../../lib/deps.js';
import { lockRow } from '../../lib/locks.js';
import { sameName } from '../../lib/names.js';
import { type PageQuery, pageWindow } from '../../lib/paging.js';

// The intake area's queries: sources, arrivals (the claim of an external key) and rules.

const named = { select: { id: true, name: true } } as const;

// ---------------------------------------------------------------------------------------------
// Sources

const person = { select: { id: true, username: true } } as const;
const sourceInclude = { category: named, owner: person, unindexedGroup: named } as const;
export type SourceRow = NonNullable<Awaited<ReturnType<typeof findSource>>>;

/**
 * Locks a source's row for a change or removal of it (lib/locks.ts lockRow): two changes sent
 * at once run one after the other, each auditing as "before" the source the last one left.
 */
export function lockSource(tx: Tx, id: number): Promise<boolean> {
  return lockRow(tx, 'intake_sources', id);
}

export function findSource(tx: Tx, id: number) {
  return tx.intakeSource.findUnique({ where: { id }, include: sourceInclude });
}

export function listSources(tx: Tx, where: Prisma.IntakeSourceWhereInput = {}) {
  return tx.intakeSource.findMany({
    where,
    include: sourceInclude,
    orderBy: [{ name: 'asc' }, { id: 'asc' }],
  });
}

/** A source of this name in any letter case, other than `exceptId`. */
export function sourceNamed(tx: Tx, name: string, exceptId?: number) {
  return tx.intakeSource.findFirst({
    where: sameName(name, exceptId),
    select: { id: true },
  });
}

export function createSource(tx: Tx, data: Prisma.IntakeSourceUncheckedCreateInput) {
  return tx.intakeSource.create({ data, include: sourceInclude });
}

export function updateSource(tx: Tx, id: number, data: Prisma.IntakeSourceUncheckedUpdateInput) {
  return tx.intakeSource.update({ where: { id }, data, include: sourceInclude });
}

export function deleteSource(tx: Tx, id: number) {
  return tx.intakeSource.delete({ where: { id } });
}

/** Whether an enabled source of one of `kinds` exists. */
export async function hasEnabledSource(tx: Tx, kinds: Array<'folder' | 'imap'>) {
  return (await tx.intakeSource.count({ where: { enabled: true, kind: { in: kinds } } })) > 0;
}

/** A poll of source `id` starts (one at a time: the schedule runs one poll job at once). */
export function markRunning(tx: Tx, id: number, at: Date) {
  return tx.intakeSource.updateMany({ where: { id }, data: { state: 'running', lastRunAt: at } });
}

export function markPolled(tx: Tx, id: number, error: string | null) {
  return tx.intakeSource.updateMany({
    where: { id },
    data: { state: error ? 'error' : 'idle', lastError: error },
  });
}

export function countArrival(tx: Tx, id: number, status: 'taken' | 'failed', by = 1) {
  return tx.intakeSource.update({
    where: { id },
    data: status === 'taken' ? { takenCount: { increment: by } } : { failedCount: { increment: by } },
    select: { id: true },
  });
}

export function liveCategory(tx: Tx, id: number) {
  return tx.category.findFirst({ where: { id, deletedAt: null }, select: { id: true, name: true } });
}

/** The live sub-category of `parentId` named `name` (case-insensitive). */
export function childCategory(tx: Tx, parentId: number, name: string) {
  return tx.category.findFirst({
    where: { parentId, deletedAt: null, name: { equals: name, mode: 'insensitive' } },
    select: { id: true, name: true },
    orderBy: { id: 'asc' },
  });
}

export function findGroup(tx: Tx, id: number) {
  return tx.group.findUnique({ where: { id }, select: { id: true, name: true } });
}

export function activeUser(tx: Tx, id: number) {
  return tx.user.findFirst({
    where: { id, status: 'active', deletedAt: null },
    select: { id: true, username: true, accessType: true, loginRole: true },
  });
}

// ---------------------------------------------------------------------------------------------
// Arrivals

const arrivalInclude = {
  source: { select: { id: true, name: true, kind: true } },
  file: { select: { id: true, name: true, deletedAt: true } },
} as const;
export type ArrivalRow = NonNullable<Awaited<ReturnType<typeof findArrival>>>;

export function findArrival(tx: Tx, id: number) {
  return tx.intakeArrival.findUnique({ where: { id }, include: arrivalInclude });
}

export function arrivalByKey(tx: Tx, sourceId: number, externalKey: string) {
  return tx.intakeArrival.findUnique({
    where: { sourceId_externalKey: { sourceId, externalKey } },
    include: arrivalInclude,
  });
}

/** The external keys of `keys` that source `sourceId` has already claimed. */
export async function claimedKeys(tx: Tx, sourceId: number, keys: string[]) {
  if (!keys.length) return new Set<string>();
  const rows = await tx.intakeArrival.findMany({
    where: { sourceId, externalKey: { in: keys } },
    select: { externalKey: true },
  });
  return new Set(rows.map((r) => r.externalKey));
}

/**
 * Claims (source, external key) for an arrival: the row is inserted, or nothing when the key is
 * claimed already (by an earlier take, a retry, or another server whose transaction committed
 * first: the unique index makes this insert wait for it). Answers the new row's id or null.
 */
export async function claimArrival(
  tx: Tx,
  row: {
    sourceId: number;
    externalKey: string;
    status: 'taken' | 'failed';
    reason: string | null;
    fileName: string;
    size: number | null;
    sender: string | null;
    subject: string | null;
    at: Date;
  },
): Promise<number | null> {
  const found = await tx.$queryRaw<Array<{ id: number }>>`
    INSERT INTO intake_arrivals (source_id, external_key, status, reason, file_name, size, sender, subject, created_at)
    VALUES (${row.sourceId}, ${row.externalKey}, ${row.status}::"IntakeArrivalStatus", ${row.reason},
            ${row.fileName}, ${row.size === null ? null : BigInt(row.size)}, ${row.sender}, ${row.subject},
            ${row.at})
    ON CONFLICT (source_id, external_key) DO NOTHING
    RETURNING id`;
  return found[0]?.id ?? null;
}

export function setArrivalFile(tx: Tx, id: number, fileId: number) {
  return tx.intakeArrival.update({ where: { id }, data: { fileId }, select: { id: true } });
}

export function updateArrival(tx: Tx, id: number, data: Prisma.IntakeArrivalUncheckedUpdateInput) {
  return tx.intakeArrival.update({ where: { id }, data, include: arrivalInclude });
}

export function deleteArrival(tx: Tx, id: number) {
  return tx.intakeArrival.deleteMany({ where: { id } });
}

export async function listArrivals(
  tx: Tx,
  q: PageQuery & { status?: 'taken' | 'failed'; source_id?: number },
) {
  const where: Prisma.IntakeArrivalWhereInput = {
    ...(q.status ? { status: q.status } : {}),
    ...(q.source_id ? { sourceId: q.source_id } : {}),
  };
  const [rows, total] = await Promise.all([
    tx.intakeArrival.findMany({
      where,
      include: arrivalInclude,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      ...pageWindow(q),
    }),
    tx.intakeArrival.count({ where }),
  ]);
  return { rows, total };
}

export function recentArrivals(tx: Tx, take: number) {
  return tx.intakeArrival.findMany({
    include: arrivalInclude,
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take,
  });
}

/** The text extracted from a file's current version, and whether extraction has finished. */
export async function fileText(tx: Tx, fileId: number) {
  const rows = await tx.$queryRaw<Array<{ status: string | null; text: string | null; name: string }>>`
    SELECT vt.status::text AS status, vt.text, f.name
      FROM files f LEFT JOIN version_texts vt ON vt.version_id = f.current_version_id
     WHERE f.id = ${fileId}`;
  return rows[0] ?? null;
}

/** A file's state as the rules see it (null when it is gone or in the trash). */
export function fileState(tx: Tx, fileId: number) {
  return tx.file.findFirst({
    where: { id: fileId, deletedAt: null },
    select: { id: true, name: true, categoryId: true, indexStatus: true },
  });
}

// ---------------------------------------------------------------------------------------------
// Rules

const ruleInclude = {
  category: named,
  workflow: named,
  unindexedUser: person,
  unindexedGroup: named,
} as const;
export type RuleRow = NonNullable<Awaited<ReturnType<typeof findRule>>>;

/**
 * Locks a rule's row for a change or removal of it (lib/locks.ts lockRow): two changes sent at
 * once run one after the other, each auditing as "before" the rule the last one left.
 */
export function lockRule(tx: Tx, id: number): Promise<boolean> {
  return lockRow(tx, 'intake_rules', id);
}

export function findRule(tx: Tx, id: number) {
  return tx.intakeRule.findUnique({ where: { id }, include: ruleInclude });
}

export function listRules(tx: Tx, where: Prisma.IntakeRuleWhereInput = {}) {
  return tx.intakeRule.findMany({
    where,
    include: ruleInclude,
    orderBy: [{ position: 'asc' }, { id: 'asc' }],
  });
}

export function countRules(tx: Tx) {
  return tx.intakeRule.count();
}

export async function nextRulePosition(tx: Tx) {
  const last = await tx.intakeRule.aggregate({ _max: { position: true } });
  return (last._max.position ?? 0) + 1;
}

export function createRule(tx: Tx, data: Prisma.IntakeRuleUncheckedCreateInput) {
  return tx.intakeRule.create({ data, include: ruleInclude });
}

export function updateRule(tx: Tx, id: number, data: Prisma.IntakeRuleUncheckedUpdateInput) {
  return tx.intakeRule.update({ where: { id }, data, include: ruleInclude });
}

export function deleteRule(tx: Tx, id: number) {
  return tx.intakeRule.delete({ where: { id } });
}

/** Every rule row locked, in order (a reorder holds them until it commits). */
export function lockRules(tx: Tx) {
  return tx.$queryRaw<Array<{ id: number }>>`SELECT id FROM intake_rules ORDER BY position, id FOR UPDATE`;
}

export function setRulePosition(tx: Tx, id: number, position: number) {
  return tx.intakeRule.update({ where: { id }, data: { position }, select: { id: true } });
}

/** The ids of `ids` that are live categories, workflows, sources, tags (of a category), fields. */
export async function existing(
  tx: Tx,
  what: { categories?: number[]; workflows?: number[]; sources?: number[]; fields?: number[] },
) {
  const [categories, workflows, sources, fields] = await Promise.all([
    what.categories?.length
      ? tx.category.findMany({
          where: { id: { in: what.categories }, deletedAt: null },
          select: { id: true },
        })
      : [],
    what.workflows?.length
      ? tx.workflow.findMany({ where: { id: { in: what.workflows }, deletedAt: null }, select: { id: true } })
      : [],
    what.sources?.length
      ? tx.intakeSource.findMany({ where: { id: { in: what.sources } }, select: { id: true } })
      : [],
    what.fields?.length
      ? tx.metadataField.findMany({ where: { id: { in: what.fields } }, select: { id: true } })
      : [],
  ]);
  const ids = (rows: Array<{ id: number }>) => new Set(rows.map((r) => r.id));
  return {
    categories: ids(categories),
    workflows: ids(workflows),
    sources: ids(sources),
    fields: ids(fields),
  };
}

/** The tags of `ids` that belong to category `categoryId`. */
export async function tagsOf(tx: Tx, categoryId: number, ids: number[]) {
  if (!ids.length) return new Set<number>();
  const rows = await tx.relatedTag.findMany({ where: { id: { in: ids }, categoryId }, select: { id: true } });
  return new Set(rows.map((r) => r.id));
}
