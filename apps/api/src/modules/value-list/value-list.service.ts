import { randomUUID } from 'node:crypto';
import type {
  TItemInput,
  TValueList,
  TValueListDetail,
  TValueListImport,
  TValueListItem,
} from '@quire/contract';
import type { ValueListSource } from '@quire/db';
import { type Actor, audit, auditChange } from '../../lib/audit.js';
import { BULK_TX, type Deps, type Tx } from '../../lib/deps.js';
import { type FieldError, invalidInput, nameRace, summarise } from '../../lib/errors.js';
import { valueListFull, valueListInUse, valueListNameTaken, valueListNotFound } from './value-list.errors.js';
import { type Draw, drawRandom, type ItemPlan, planItems, type WantedItem } from './value-list.items.js';
import * as repo from './value-list.repository.js';
import { buildTemplate, type ItemRow, readItemsSheet } from './value-list.spreadsheet.js';

function toListDto(row: repo.ValueListRow): TValueList {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    source: row.source,
    item_count: row._count.items,
    fields: row.fields.map((f) => ({ id: f.id, name: f.name })),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const toItemDto = (i: { id: number; key: number; label: string; position: number }): TValueListItem => ({
  id: i.id,
  key: i.key,
  label: i.label,
  position: i.position,
});

export async function listValueLists(deps: Deps): Promise<TValueList[]> {
  return (await repo.listValueLists(deps.db)).map(toListDto);
}

export async function getValueList(db: Tx, id: number): Promise<TValueListDetail> {
  const list = await repo.findValueList(db, id);
  if (!list) throw valueListNotFound();
  return { ...toListDto(list), items: (await repo.liveItems(db, id)).map(toItemDto) };
}

export async function listItems(deps: Deps, id: number): Promise<TValueListItem[]> {
  if (!(await repo.findValueList(deps.db, id))) throw valueListNotFound();
  return (await repo.liveItems(deps.db, id)).map(toItemDto);
}

/** What it takes to make list `id`'s items the `wanted` ones (see value-list.items.ts). */
async function planFor(tx: Tx, id: number, wanted: WantedItem[], draw: Draw): Promise<ItemPlan> {
  const existing = await repo.allItems(tx, id);
  const keptIds = new Set(wanted.flatMap((w) => (w.id === undefined ? [] : [w.id])));
  const inUse = await repo.itemsInUse(
    tx,
    existing.filter((e) => !e.archivedAt && !keptIds.has(e.id)).map((e) => e.id),
  );
  return planItems(
    existing.map((e) => ({
      id: e.id,
      key: e.key,
      label: e.label,
      position: e.position,
      archived: e.archivedAt !== null,
    })),
    wanted,
    inUse,
    draw,
  );
}

/** The problems `wanted` would meet on list `id` as it is now, without writing. */
async function previewItems(db: Tx, id: number, wanted: (live: LiveItem[]) => WantedItem[]) {
  const plan = await planFor(db, id, wanted(await repo.liveItems(db, id)), drawRandom);
  if (plan.kind === 'invalid') return plan.errors;
  if (plan.kind === 'full') return [{ path: 'file', message: valueListFull(plan.needed, plan.free).message }];
  return [];
}

/**
 * Works out and writes the items of list `id` (locked by the caller): kept items take their
 * new label and place, others go (archived when a value holds them), new ones get their key
 * or a random free one. Returns what changed, for the audit event.
 */
async function applyItems(tx: Tx, deps: Deps, id: number, wanted: WantedItem[], draw: Draw) {
  const plan = await planFor(tx, id, wanted, draw);
  if (plan.kind === 'invalid') throw invalidInput(summarise(plan.errors), plan.errors);
  if (plan.kind === 'full') throw valueListFull(plan.needed, plan.free);
  if (plan.archive.length) await repo.archiveItems(tx, plan.archive, deps.now());
  if (plan.remove.length) await repo.deleteItems(tx, plan.remove);
  // Labels are unique in a list: relabelled items pass through a temporary label, so two
  // items may swap labels.
  const relabelled = plan.keep.filter((k) => k.labelChanged);
  await repo.updateItems(
    tx,
    relabelled.map((k) => ({ id: k.id, label: `relabelling ${randomUUID()}` })),
  );
  await repo.updateItems(
    tx,
    plan.keep
      .filter((k) => k.labelChanged || k.moved)
      .map((k) => ({ id: k.id, label: k.label, position: k.position })),
  );
  if (plan.create.length) await repo.createItems(tx, id, plan.create);
  return {
    created: plan.create.length,
    relabelled: relabelled.length,
    archived: plan.archive.length,
    deleted: plan.remove.length,
  };
}

const fromBody = (items: TItemInput[]): WantedItem[] =>
  items.map((item, i) => ({
    id: item.id,
    key: item.key ?? null,
    label: item.label,
    at: `body.items.${i}`,
    name: `item ${i + 1}`,
  }));

export interface ListInput {
  name: string;
  description?: string;
  items: TItemInput[];
}

async function createList(
  deps: Deps,
  actor: Actor,
  input: { name: string; description?: string; items: WantedItem[]; source: ValueListSource },
  draw: Draw,
): Promise<TValueListDetail> {
  return deps.db
    .$transaction(async (tx) => {
      if (await repo.findByName(tx, input.name)) throw valueListNameTaken(input.name);
      const list = await repo.createValueList(tx, {
        name: input.name,
        description: input.description ?? '',
        source: input.source,
        createdById: actor.userId,
      });
      const changes = await applyItems(tx, deps, list.id, input.items, draw);
      await audit(tx, actor, {
        type: 'value-list',
        action: 'value_list.created',
        message: `Created value list "${list.name}" with ${changes.created} item(s)${input.source === 'excel' ? ' from a spreadsheet' : ''}`,
        targetType: 'value_list',
        targetId: list.id,
        details: { name: list.name, source: input.source, items: changes.created },
      });
      return getValueList(tx, list.id);
    }, BULK_TX)
    .catch(nameRace(input.name, valueListNameTaken));
}

export function createValueList(deps: Deps, actor: Actor, input: ListInput, draw: Draw = drawRandom) {
  return createList(
    deps,
    actor,
    { name: input.name, description: input.description, items: fromBody(input.items), source: 'manual' },
    draw,
  );
}

async function editList(
  deps: Deps,
  actor: Actor,
  id: number,
  input: {
    name?: string;
    description?: string;
    /** The items wanted, or how to work them out from the live items (read with the list locked). */
    items?: WantedItem[] | ((live: LiveItem[]) => WantedItem[]);
    source?: ValueListSource;
  },
  draw: Draw,
): Promise<TValueListDetail> {
  return deps.db
    .$transaction(async (tx) => {
      if (!(await repo.lockValueList(tx, id))) throw valueListNotFound();
      const before = (await repo.findValueList(tx, id))!;
      const wanted =
        typeof input.items === 'function' ? input.items(await repo.liveItems(tx, id)) : input.items;
      if (input.name !== undefined && (await repo.findByName(tx, input.name, id)))
        throw valueListNameTaken(input.name);
      await repo.updateValueList(tx, id, {
        name: input.name,
        description: input.description,
        source: input.items ? input.source : undefined,
      });
      const changes = wanted ? await applyItems(tx, deps, id, wanted, draw) : null;
      await audit(tx, actor, {
        type: 'value-list',
        action: 'value_list.updated',
        message: `Edited value list "${input.name ?? before.name}"${input.source === 'excel' ? ' from a spreadsheet' : ''}`,
        targetType: 'value_list',
        targetId: id,
        details: {
          ...auditChange('name', before.name, input.name),
          ...auditChange('description', before.description, input.description),
          ...(changes ? { items: changes } : {}),
        },
      });
      return getValueList(tx, id);
    }, BULK_TX)
    .catch(nameRace(input.name, valueListNameTaken));
}

export function editValueList(
  deps: Deps,
  actor: Actor,
  id: number,
  input: Partial<ListInput>,
  draw: Draw = drawRandom,
) {
  return editList(
    deps,
    actor,
    id,
    {
      name: input.name,
      description: input.description,
      items: input.items ? fromBody(input.items) : undefined,
      source: 'manual',
    },
    draw,
  );
}

export async function destroyValueList(deps: Deps, actor: Actor, id: number): Promise<void> {
  await deps.db.$transaction(async (tx) => {
    if (!(await repo.lockValueList(tx, id))) throw valueListNotFound();
    const list = (await repo.findValueList(tx, id))!;
    if (list.fields.length)
      throw valueListInUse(
        list.name,
        list.fields.map((f) => f.name),
      );
    await repo.deleteValueList(tx, id);
    await audit(tx, actor, {
      type: 'value-list',
      action: 'value_list.deleted',
      message: `Deleted value list "${list.name}" (${list._count.items} item(s))`,
      targetType: 'value_list',
      targetId: id,
      details: { name: list.name, items: list._count.items },
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Spreadsheets

export const importTemplate = buildTemplate;

const rowsOut = (rows: ItemRow[]) => rows.map((r) => ({ row: r.row, key: r.key, label: r.label }));

function importResult(
  dryRun: boolean,
  rows: ItemRow[],
  errors: FieldError[],
  list: TValueListDetail | null,
): TValueListImport {
  return { dry_run: dryRun, rows: rowsOut(rows), errors, value_list: list };
}

export interface ImportInput {
  content: Buffer;
  name?: string;
  description?: string;
  dryRun: boolean;
}

/**
 * Creates a list from a spreadsheet: every problem of the file is named by row and nothing
 * is saved unless there are none. A dry run reports the same problems and saves nothing.
 */
export async function createFromExcel(
  deps: Deps,
  actor: Actor,
  input: ImportInput & { name: string },
  draw: Draw = drawRandom,
): Promise<TValueListImport> {
  const { rows, errors } = await readItemsSheet(input.content);
  const wanted = rows.map((r) => ({ key: r.key, label: r.label, at: `row ${r.row}`, name: `row ${r.row}` }));
  if (input.dryRun) {
    if (!errors.length && (await repo.findByName(deps.db, input.name)))
      errors.push(...(valueListNameTaken(input.name).errors ?? []));
    return importResult(true, rows, errors, null);
  }
  if (errors.length) throw invalidInput(`Nothing was imported: ${summarise(errors)}`, errors);
  const list = await createList(
    deps,
    actor,
    { name: input.name, description: input.description, items: wanted, source: 'excel' },
    draw,
  );
  return importResult(false, rows, [], list);
}

/**
 * Replaces a list's items from a spreadsheet: a row keeps the item of its key, or (without a
 * key) the item of the same label; other rows are new items; items no row keeps are removed
 * (archived when a value holds them). All or nothing, like createFromExcel.
 */
export async function editFromExcel(
  deps: Deps,
  actor: Actor,
  id: number,
  input: ImportInput,
  draw: Draw = drawRandom,
): Promise<TValueListImport> {
  const before = await repo.findValueList(deps.db, id);
  if (!before) throw valueListNotFound();
  const { rows, errors } = await readItemsSheet(input.content);
  if (input.dryRun) {
    if (!errors.length && input.name !== undefined && (await repo.findByName(deps.db, input.name, id)))
      errors.push(...(valueListNameTaken(input.name).errors ?? []));
    if (!errors.length) errors.push(...(await previewItems(deps.db, id, matchRows(rows))));
    return importResult(true, rows, errors, null);
  }
  if (errors.length) throw invalidInput(`Nothing was imported: ${summarise(errors)}`, errors);
  const list = await editList(
    deps,
    actor,
    id,
    { name: input.name, description: input.description, items: matchRows(rows), source: 'excel' },
    draw,
  );
  return importResult(false, rows, [], list);
}

type LiveItem = Awaited<ReturnType<typeof repo.liveItems>>[number];

/** Rows to items: a row keeps the item of its key, or (without a key) the item of its label. */
const matchRows =
  (rows: ItemRow[]) =>
  (live: LiveItem[]): WantedItem[] => {
    const byKey = new Map(live.map((i) => [i.key, i]));
    const byLabel = new Map(live.map((i) => [i.label.toLowerCase(), i]));
    const taken = new Set<number>();
    const wanted: WantedItem[] = rows.map((r) => {
      const match = r.key !== null ? byKey.get(r.key) : byLabel.get(r.label.toLowerCase());
      const item = match && !taken.has(match.id) ? match : undefined;
      if (item) taken.add(item.id);
      return {
        id: item?.id,
        key: item ? undefined : r.key,
        label: r.label,
        at: `row ${r.row}`,
        name: `row ${r.row}`,
      };
    });
    return wanted;
  };
