import { Prisma } from '@quire/db';
import { utc } from '../../lib/jobs/queue.js';

// What a search asks for, as SQL: the words of a search (searchTerms) and the conditions of
// the filters on a file `f` (filterConditions), a metadata field's value among them. The
// page, its count and the snippets that use them are search.repository.ts.

/** A metadata condition, checked against its field's type by the service. */
export type FieldCondition =
  | { fieldId: number; kind: 'text'; value: string }
  | { fieldId: number; kind: 'number'; min: number | null; max: number | null }
  | { fieldId: number; kind: 'date'; min: string | null; max: string | null }
  | { fieldId: number; kind: 'boolean'; value: boolean }
  | { fieldId: number; kind: 'items'; itemIds: number[] }
  | { fieldId: number; kind: 'user'; userId: number };

export interface FileFilter {
  categoryId?: number;
  includeSubcategories?: boolean;
  /** categoryId and its live sub-categories, when read already (seenFor); else a subquery finds them. */
  categoryTree?: number[];
  /** Created at or after (UTC). */
  from?: Date;
  /** Created before (UTC). */
  to?: Date;
  ownerId?: number;
  workflowStepId?: number;
  locked?: boolean;
  checkedOut?: boolean;
  fields?: FieldCondition[];
}

/** What was typed, as the parts the SQL needs. */
export interface SearchTerms {
  /** `'word':* & 'other':*` for to_tsquery (prefix matches). */
  tsquery: string;
  /** `%word%` per word (LIKE on the lower-cased name; all must match). */
  likes: string[];
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, '\\$&');

/** The words of a search (letters and digits), at most 8. */
export function searchTerms(text: string): SearchTerms | null {
  const words = (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 8);
  if (!words.length) return null;
  return {
    tsquery: words.map((w) => `'${w}':*`).join(' & '),
    likes: words.map((w) => `%${escapeLike(w)}%`),
  };
}

/** `column` set, and within `min` and `max` where they are given (as `type`). */
function between(
  column: string,
  type: 'numeric' | 'date',
  min: number | string | null,
  max: number | string | null,
) {
  const col = Prisma.raw(column);
  const cast = Prisma.raw(type);
  return Prisma.join(
    [
      Prisma.sql`${col} IS NOT NULL`,
      ...(min !== null ? [Prisma.sql`${col} >= ${min}::${cast}`] : []),
      ...(max !== null ? [Prisma.sql`${col} <= ${max}::${cast}`] : []),
    ],
    ' AND ',
  );
}

function fieldCondition(c: FieldCondition): Prisma.Sql {
  const base = Prisma.sql`v.file_id = f.id AND v.field_id = ${c.fieldId}::int`;
  let cond: Prisma.Sql;
  switch (c.kind) {
    case 'text':
      cond = Prisma.sql`lower(v.value_text) = lower(${c.value})`;
      break;
    case 'number':
      cond = between('v.value_number', 'numeric', c.min, c.max);
      break;
    case 'date':
      cond = between('v.value_date', 'date', c.min, c.max);
      break;
    case 'boolean':
      cond = Prisma.sql`v.value_boolean = ${c.value}`;
      break;
    case 'items':
      cond = Prisma.sql`v.value_item_id = ANY(${c.itemIds}::int[])`;
      break;
    case 'user':
      cond = Prisma.sql`v.value_user_id = ${c.userId}::int`;
      break;
  }
  return Prisma.sql`EXISTS (SELECT 1 FROM file_field_values v WHERE ${base} AND ${cond})`;
}

/** The live category `categoryId` and its live sub-categories, as a subquery of ids. */
export const categoryTreeSql = (categoryId: number) => Prisma.sql`
  WITH RECURSIVE sub AS (
    SELECT id FROM categories WHERE id = ${categoryId}::int AND deleted_at IS NULL
    UNION ALL
    SELECT c.id FROM categories c JOIN sub ON c.parent_id = sub.id WHERE c.deleted_at IS NULL)
  SELECT id FROM sub`;

/** Whether the filter takes a category with its sub-categories. */
export const takesTree = (f: FileFilter): f is FileFilter & { categoryId: number } =>
  f.categoryId !== undefined && f.includeSubcategories !== false;

export function filterConditions(f: FileFilter): Prisma.Sql[] {
  const parts: Prisma.Sql[] = [];
  if (f.categoryTree) parts.push(Prisma.sql`f.category_id = ANY(${f.categoryTree}::int[])`);
  else if (f.categoryId !== undefined) {
    parts.push(
      f.includeSubcategories === false
        ? Prisma.sql`f.category_id = ${f.categoryId}::int`
        : // An array (read once): PostgreSQL looks its few ids up by index, where `IN` over the
          // recursive query made it expect hundreds and read every file.
          Prisma.sql`f.category_id = ANY(ARRAY(${categoryTreeSql(f.categoryId)}))`,
    );
  }
  if (f.from) parts.push(Prisma.sql`f.created_at >= (${utc(f.from)}::timestamptz AT TIME ZONE 'UTC')`);
  if (f.to) parts.push(Prisma.sql`f.created_at < (${utc(f.to)}::timestamptz AT TIME ZONE 'UTC')`);
  if (f.ownerId !== undefined) parts.push(Prisma.sql`f.owner_id = ${f.ownerId}::int`);
  if (f.workflowStepId !== undefined)
    parts.push(Prisma.sql`EXISTS (SELECT 1 FROM workflow_instances wi
      WHERE wi.file_id = f.id AND wi.status = 'running' AND wi.current_step_id = ${f.workflowStepId}::int)`);
  if (f.locked !== undefined)
    parts.push(f.locked ? Prisma.sql`f.locked_by_id IS NOT NULL` : Prisma.sql`f.locked_by_id IS NULL`);
  if (f.checkedOut !== undefined)
    parts.push(
      f.checkedOut ? Prisma.sql`f.checked_out_by_id IS NOT NULL` : Prisma.sql`f.checked_out_by_id IS NULL`,
    );
  for (const c of f.fields ?? []) parts.push(fieldCondition(c));
  return parts;
}
