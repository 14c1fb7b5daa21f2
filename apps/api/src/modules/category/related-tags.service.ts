import type { TRelatedTag } from '@quire/contract';
import { type Actor, audit, auditChange } from '../../lib/audit.js';
import type { Deps, Tx } from '../../lib/deps.js';
import { type FieldError, invalidInput, summarise } from '../../lib/errors.js';
import type { Scope } from '../../lib/visibility.js';
import { categoryNotFound, tagNotFound } from './category.errors.js';
import * as repo from './category.repository.js';
import * as tagsRepo from './related-tags.repository.js';

// Related tags: a category's tags, each optionally linking another category.

/** The tags of category `id` the caller may see, with the linked category when visible. */
export async function categoryTags(db: Tx, scope: Scope, id: number): Promise<TRelatedTag[]> {
  return (await tagsRepo.tagsOf(db, scope, id)).map((t) => ({
    id: t.id,
    folder_id: t.category_id,
    name: t.name,
    color: t.color,
    linked_folder: t.linked_id === null ? null : { id: t.linked_id, name: t.linked_name! },
  }));
}

export async function listTags(deps: Deps, scope: Scope, categoryId: number): Promise<TRelatedTag[]> {
  return categoryTags(deps.db, scope, categoryId);
}

async function checkLink(db: Tx, categoryId: number, linked: number | null | undefined, path: string) {
  if (linked === undefined || linked === null) return;
  if (linked === categoryId)
    throw invalidInput('A tag cannot link a category to itself', [
      { path, message: 'This is the category itself' },
    ]);
  if (!(await repo.findLive(db, linked)))
    throw invalidInput(`${path.replace(/^body\./, '')}: no such category`, [
      { path, message: 'No such category' },
    ]);
}

export async function addTags(
  deps: Deps,
  scope: Scope,
  actor: Actor,
  body: {
    folder_id: number;
    tags: Array<{ name: string; color?: string | null; linked_folder_id?: number | null }>;
  },
): Promise<TRelatedTag[]> {
  await deps.db.$transaction(async (tx) => {
    if (!(await repo.findLive(tx, body.folder_id))) throw categoryNotFound();
    const errors: FieldError[] = [];
    const taken = new Set(
      (
        await tagsRepo.tagNamesTaken(
          tx,
          body.folder_id,
          body.tags.map((t) => t.name),
        )
      ).map((t) => t.name.toLowerCase()),
    );
    const seen = new Set<string>();
    body.tags.forEach((t, i) => {
      const key = t.name.toLowerCase();
      if (taken.has(key))
        errors.push({ path: `body.tags.${i}.name`, message: 'The category already has this tag' });
      else if (seen.has(key))
        errors.push({ path: `body.tags.${i}.name`, message: 'This tag is listed twice' });
      seen.add(key);
    });
    if (errors.length) throw invalidInput(summarise(errors), errors);
    for (const [i, t] of body.tags.entries())
      await checkLink(tx, body.folder_id, t.linked_folder_id, `body.tags.${i}.linked_folder_id`);
    const made = [];
    for (const t of body.tags)
      made.push(
        await tagsRepo.createTag(tx, {
          categoryId: body.folder_id,
          name: t.name,
          color: t.color ?? null,
          linkedCategoryId: t.linked_folder_id ?? null,
          createdById: actor.userId,
        }),
      );
    await audit(tx, actor, {
      type: 'category',
      action: 'related_tag.added',
      message: `Added related tag${made.length === 1 ? '' : 's'} ${made.map((m) => `"${m.name}"`).join(', ')}`,
      targetType: 'category',
      targetId: body.folder_id,
      details: {
        tags: made.map((m) => ({ id: m.id, name: m.name, linked_category_id: m.linkedCategoryId })),
      },
    });
  });
  return categoryTags(deps.db, scope, body.folder_id);
}

export async function editTag(
  deps: Deps,
  scope: Scope,
  actor: Actor,
  body: {
    id: number;
    folder_id: number;
    name?: string;
    color?: string | null;
    linked_folder_id?: number | null;
  },
): Promise<TRelatedTag> {
  await deps.db.$transaction(async (tx) => {
    await tagsRepo.lockTag(tx, body.id);
    const tag = await tagsRepo.findTag(tx, body.id);
    if (!tag || tag.categoryId !== body.folder_id || tag.category.deletedAt) throw tagNotFound();
    if (
      body.name !== undefined &&
      (await tagsRepo.tagNamesTaken(tx, tag.categoryId, [body.name], tag.id)).length
    )
      throw invalidInput(`The category already has the tag "${body.name}"`, [
        { path: 'body.name', message: 'The category already has this tag' },
      ]);
    await checkLink(tx, tag.categoryId, body.linked_folder_id, 'body.linked_folder_id');
    await tagsRepo.updateTag(tx, tag.id, {
      name: body.name,
      color: body.color,
      linkedCategoryId: body.linked_folder_id,
    });
    await audit(tx, actor, {
      type: 'category',
      action: 'related_tag.updated',
      message: `Edited related tag "${body.name ?? tag.name}"`,
      targetType: 'related_tag',
      targetId: tag.id,
      details: {
        ...auditChange('name', tag.name, body.name),
        ...auditChange('color', tag.color, body.color),
        ...auditChange('linked_category_id', tag.linkedCategoryId, body.linked_folder_id),
      },
    });
  });
  const found = (await categoryTags(deps.db, scope, body.folder_id)).find((t) => t.id === body.id);
  if (!found) throw tagNotFound();
  return found;
}

export async function deleteTag(deps: Deps, actor: Actor, id: number): Promise<void> {
  await deps.db.$transaction(async (tx) => {
    await tagsRepo.lockTag(tx, id);
    const tag = await tagsRepo.findTag(tx, id);
    if (!tag || tag.category.deletedAt) throw tagNotFound();
    await tagsRepo.deleteTag(tx, id);
    await audit(tx, actor, {
      type: 'category',
      action: 'related_tag.deleted',
      message: `Deleted related tag "${tag.name}" of "${tag.category.name}"`,
      targetType: 'related_tag',
      targetId: id,
      details: { category_id: tag.categoryId, name: tag.name },
    });
  });
}
