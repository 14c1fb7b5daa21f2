import type { FieldType, TMetadataField, TStoreUserFieldBody } from '@quire/contract';
import type { Prisma } from '@quire/db';
import { type Actor, audit } from '../../lib/audit.js';
import type { Deps, Tx } from '../../lib/deps.js';
import { nameRace } from '../../lib/errors.js';
import { displayName } from '../../lib/user-dto.js';
import { type Scope, visibleCategoryIds } from '../../lib/visibility.js';
import {
  fieldInUse,
  fieldNameTaken,
  fieldNotFound,
  fieldTypeLocked,
  unknownValueList,
} from './metadata.errors.js';
import * as repo from './metadata.repository.js';
import { checkValue, parseInteger, valueText } from './metadata.values.js';

// Metadata fields: the spec's "user fields". Other areas read them through here: the
// category area for a category's fields (fieldsByIds) and default values (checkDefaultValue).

const isoDate = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : null);
const num = (d: Prisma.Decimal | null) => (d === null ? null : Number(d));

const NO_USAGE = { categories: 0, files: 0, workflows: 0 };

function toFieldDto(row: repo.FieldRow, usage = NO_USAGE): TMetadataField {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    value_list: row.valueList ? { id: row.valueList.id, name: row.valueList.name } : null,
    required: row.required,
    help_text: row.helpText,
    min_number: num(row.minNumber),
    max_number: num(row.maxNumber),
    min_date: isoDate(row.minDate),
    max_date: isoDate(row.maxDate),
    max_length: row.maxLength,
    pattern: row.pattern,
    position: row.position,
    usage,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

async function withUsage(db: Tx, scope: Scope, rows: repo.FieldRow[]): Promise<TMetadataField[]> {
  const usage = await repo.usageOf(
    db,
    rows.map((r) => r.id),
    visibleCategoryIds(scope),
  );
  return rows.map((r) => toFieldDto(r, usage.get(r.id)));
}

/** Every live field in order; category counts only over the categories `scope` may view. */
export async function listFields(deps: Deps, scope: Scope): Promise<TMetadataField[]> {
  return withUsage(deps.db, scope, await repo.listFields(deps.db));
}

/** Live fields by id (unknown or deleted ids are left out), for the category area. */
export async function fieldsByIds(db: Tx, scope: Scope, ids: number[]): Promise<Map<number, TMetadataField>> {
  const rows = await repo.findFields(db, [...new Set(ids)]);
  return new Map((await withUsage(db, scope, rows)).map((f) => [f.id, f]));
}

export async function listFieldUsers(deps: Deps) {
  return (await repo.activeUsers(deps.db)).map((u) => ({
    id: u.id,
    username: u.username,
    name: displayName(u),
  }));
}

/** "2 categories (Invoices, Contracts), 14 files and 1 workflow (Approval)". */
function describeUsage(detail: Awaited<ReturnType<typeof repo.usageDetail>>): string | null {
  const names = (list: string[]) => {
    const shown = list.slice(0, 5).map((n) => `"${n}"`);
    return list.length > 5 ? `${shown.join(', ')} and ${list.length - 5} more` : shown.join(', ');
  };
  const parts: string[] = [];
  if (detail.categories.length) {
    const labels = detail.categories.map((c) => (c.deleted ? `${c.name} (in the trash)` : c.name));
    parts.push(`${plural(detail.categories.length, 'category', 'categories')} (${names(labels)})`);
  }
  if (detail.files) parts.push(plural(detail.files, 'file', 'files'));
  if (detail.workflows.length)
    parts.push(`${plural(detail.workflows.length, 'workflow', 'workflows')} (${names(detail.workflows)})`);
  if (!parts.length) return null;
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

function plural(n: number, one: string, many: string) {
  return `${n} ${n === 1 ? one : many}`;
}

/** The body as columns: a field's definition is the whole form (options of other types are null). */
function parseStore(body: TStoreUserFieldBody) {
  const date = (s: string | null | undefined) => (s ? new Date(`${s}T00:00:00.000Z`) : null);
  return {
    name: body.name,
    type: body.type as FieldType,
    valueListId: body.type === 'select' ? (body.value_list_id ?? null) : null,
    required: body.required ?? false,
    helpText: body.help_text ?? '',
    minNumber: body.min_number ?? null,
    maxNumber: body.max_number ?? null,
    minDate: date(body.min_date),
    maxDate: date(body.max_date),
    maxLength: body.max_length ?? null,
    pattern: body.pattern ? body.pattern : null,
    position: body.position,
  };
}

/** Creates a field (no `id`) or replaces a field's definition (`id`; its position is kept when absent). */
export async function storeField(
  deps: Deps,
  scope: Scope,
  actor: Actor,
  body: TStoreUserFieldBody,
): Promise<TMetadataField> {
  const input = parseStore(body);
  const id = await deps.db
    .$transaction(async (tx) => {
      if (body.id) await repo.lockField(tx, body.id);
      const before = body.id ? await repo.findField(tx, body.id) : null;
      if (body.id && !before) throw fieldNotFound();
      if (await repo.findFieldByName(tx, input.name, body.id)) throw fieldNameTaken(input.name);
      if (input.valueListId && !(await repo.valueListExists(tx, input.valueListId))) throw unknownValueList();
      if (before && (before.type !== input.type || before.valueListId !== input.valueListId)) {
        const where = describeUsage(await repo.usageDetail(tx, before.id));
        if (where) throw fieldTypeLocked(before.name, where);
      }
      const { position, ...rest } = input;
      const saved = before
        ? await repo.updateField(tx, before.id, { ...rest, ...(position === undefined ? {} : { position }) })
        : await repo.createField(tx, { ...rest, position: position ?? (await repo.nextPosition(tx)) });
      const after = toFieldDto(saved);
      await audit(tx, actor, {
        type: 'metadata',
        action: before ? 'field.updated' : 'field.created',
        message: before ? `Edited metadata field "${saved.name}"` : `Created metadata field "${saved.name}"`,
        targetType: 'metadata_field',
        targetId: saved.id,
        details: before
          ? { before: definition(toFieldDto(before)), after: definition(after) }
          : definition(after),
      });
      return saved.id;
    })
    .catch(nameRace(input.name, fieldNameTaken));
  const [field] = await withUsage(deps.db, scope, [(await repo.findField(deps.db, id))!]);
  return field!;
}

function definition(f: TMetadataField): Prisma.InputJsonObject {
  const { usage: _usage, created_at: _c, updated_at: _u, value_list, ...rest } = f;
  return { ...rest, value_list_id: value_list?.id ?? null };
}

/** Deletes a field that nothing uses; otherwise 409 saying where it is used. */
export async function deleteField(deps: Deps, actor: Actor, id: number): Promise<void> {
  await deps.db.$transaction(async (tx) => {
    await repo.lockField(tx, id);
    const field = await repo.findField(tx, id);
    if (!field) throw fieldNotFound();
    const where = describeUsage(await repo.usageDetail(tx, id));
    if (where) throw fieldInUse(field.name, where);
    await repo.deleteField(tx, id);
    await audit(tx, actor, {
      type: 'metadata',
      action: 'field.deleted',
      message: `Deleted metadata field "${field.name}"`,
      targetType: 'metadata_field',
      targetId: id,
      details: definition(toFieldDto(field)),
    });
  });
}

/**
 * A category field's default value checked against its field (`metadata.values.ts`, the one
 * rule for values): its normal form as stored text, or the problem. Select values are item
 * keys of the field's list; user values are ids of active users.
 */
export async function checkDefaultValue(
  db: Tx,
  field: TMetadataField,
  value: string,
): Promise<{ ok: true; text: string | null } | { ok: false; message: string }> {
  const ref = parseInteger(value);
  const isItem =
    field.type === 'select' && field.value_list && ref !== null
      ? Boolean(await repo.valueListItemByKey(db, field.value_list.id, ref))
      : false;
  const isUser =
    field.type === 'user' && ref !== null && ref > 0 && ref <= 2_147_483_647
      ? Boolean(await repo.activeUserExists(db, ref))
      : false;
  const checked = checkValue(
    {
      name: field.name,
      type: field.type,
      maxLength: field.max_length,
      pattern: field.pattern,
      minNumber: field.min_number,
      maxNumber: field.max_number,
      minDate: field.min_date,
      maxDate: field.max_date,
    },
    value,
    { isItem: () => isItem, isActiveUser: () => isUser },
  );
  return checked.ok ? { ok: true, text: valueText(checked.value) } : checked;
}
