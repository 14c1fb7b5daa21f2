import type { TCategoryGroup, TGrantInput } from '@quire/contract';
import { type Actor, audit, auditChange } from '../../lib/audit.js';
import type { Deps, Tx } from '../../lib/deps.js';
import { invalidInput, nameRace } from '../../lib/errors.js';
import { displayName } from '../../lib/user-dto.js';
import { readsEverything, type Scope } from '../../lib/visibility.js';
import { categoryGroupNameTaken, categoryGroupNotFound } from './category.errors.js';
import { granteeOf, grantRights, parseGrants } from './category.grants.js';
import * as repo from './category.repository.js';
import { pathsOf } from './category.tree.js';
import * as grantsRepo from './category-grants.repository.js';
import * as groupsRepo from './category-groups.repository.js';

// Category groups: named sets of categories whose grants apply to every member.

async function toGroups(
  db: Tx,
  scope: Scope,
  groups: Awaited<ReturnType<typeof groupsRepo.listCategoryGroups>>,
): Promise<TCategoryGroup[]> {
  const [members, rows] = await Promise.all([
    groupsRepo.visibleMembers(
      db,
      scope,
      groups.map((g) => g.id),
    ),
    repo.visibleRows(db, scope),
  ]);
  const paths = pathsOf(rows);
  const everything = readsEverything(scope);
  return groups
    .map((g) => ({
      id: g.id,
      name: g.name,
      description: g.description,
      categories: members
        .filter((m) => m.group_id === g.id)
        .map((m) => ({ id: m.id, name: m.name, path: paths.get(m.id) ?? m.name })),
      grants: everything
        ? g.permissions.map((p) => ({ id: p.id, grantee: granteeOf(p), rights: grantRights(p) }))
        : null,
      created_at: g.createdAt.toISOString(),
      updated_at: g.updatedAt.toISOString(),
    }))
    .filter((g) => everything || g.categories.length > 0);
}

export async function listCategoryGroups(deps: Deps, scope: Scope): Promise<TCategoryGroup[]> {
  return toGroups(deps.db, scope, await groupsRepo.listCategoryGroups(deps.db));
}

export async function getCategoryGroup(db: Tx, scope: Scope, id: number): Promise<TCategoryGroup> {
  const [group] = await toGroups(db, scope, await groupsRepo.listCategoryGroups(db, [id]));
  if (!group) throw categoryGroupNotFound();
  return group;
}

async function checkMembers(db: Tx, ids: number[]) {
  const live = await repo.liveIds(db, ids);
  const unknown = ids.filter((id) => !live.has(id));
  if (unknown.length)
    throw invalidInput(`category_ids: no such categories ${unknown.join(', ')}`, [
      { path: 'body.category_ids', message: `No such categories: ${unknown.join(', ')}` },
    ]);
}

export async function createCategoryGroup(
  deps: Deps,
  scope: Scope,
  actor: Actor,
  body: { name: string; description?: string; category_ids?: number[]; permissions?: TGrantInput[] },
): Promise<TCategoryGroup> {
  const id = await deps.db
    .$transaction(async (tx) => {
      if (await groupsRepo.categoryGroupNamed(tx, body.name)) throw categoryGroupNameTaken(body.name);
      await checkMembers(tx, body.category_ids ?? []);
      const grants = await parseGrants(tx, body.permissions ?? [], 'body.permissions');
      const group = await groupsRepo.createCategoryGroup(tx, {
        name: body.name,
        description: body.description ?? '',
        createdById: actor.userId,
      });
      await groupsRepo.replaceMembers(tx, group.id, body.category_ids ?? []);
      await groupsRepo.replaceGroupGrants(tx, group.id, grants, actor.userId);
      await audit(tx, actor, {
        type: 'category',
        action: 'category_group.created',
        message: `Created category group "${group.name}" with ${body.category_ids?.length ?? 0} categories`,
        targetType: 'category_group',
        targetId: group.id,
        details: { name: group.name, category_ids: body.category_ids ?? [], grants: grants.length },
      });
      return group.id;
    })
    .catch(nameRace(body.name, categoryGroupNameTaken));
  return getCategoryGroup(deps.db, scope, id);
}

export async function updateCategoryGroup(
  deps: Deps,
  scope: Scope,
  actor: Actor,
  body: {
    id: number;
    name?: string;
    description?: string;
    category_ids?: number[];
    permissions?: TGrantInput[];
  },
): Promise<TCategoryGroup> {
  await deps.db
    .$transaction(async (tx) => {
      if (!(await groupsRepo.lockCategoryGroup(tx, body.id))) throw categoryGroupNotFound();
      const before = await groupsRepo.findCategoryGroup(tx, body.id);
      if (!before) throw categoryGroupNotFound();
      if (body.name !== undefined && (await groupsRepo.categoryGroupNamed(tx, body.name, body.id)))
        throw categoryGroupNameTaken(body.name);
      if (body.category_ids) await checkMembers(tx, body.category_ids);
      const grants = body.permissions
        ? await parseGrants(tx, body.permissions, 'body.permissions')
        : undefined;
      await groupsRepo.updateCategoryGroup(tx, body.id, { name: body.name, description: body.description });
      if (body.category_ids) await groupsRepo.replaceMembers(tx, body.id, body.category_ids);
      if (grants) await groupsRepo.replaceGroupGrants(tx, body.id, grants, actor.userId);
      await audit(tx, actor, {
        type: 'category',
        action: 'category_group.updated',
        message: `Edited category group "${body.name ?? before.name}"`,
        targetType: 'category_group',
        targetId: body.id,
        details: {
          ...auditChange('name', before.name, body.name),
          ...auditChange('description', before.description, body.description),
          ...(body.category_ids
            ? {
                category_ids: {
                  before: before.members.sort((a, b) => a.position - b.position).map((m) => m.categoryId),
                  after: body.category_ids,
                },
              }
            : {}),
          ...(grants ? { grants: { before: before.permissions.length, after: grants.length } } : {}),
        },
      });
    })
    .catch(nameRace(body.name, categoryGroupNameTaken));
  return getCategoryGroup(deps.db, scope, body.id);
}

export async function deleteCategoryGroup(deps: Deps, actor: Actor, id: number): Promise<void> {
  await deps.db.$transaction(async (tx) => {
    if (!(await groupsRepo.lockCategoryGroup(tx, id))) throw categoryGroupNotFound();
    const group = await groupsRepo.findCategoryGroup(tx, id);
    if (!group) throw categoryGroupNotFound();
    await groupsRepo.deleteCategoryGroup(tx, id);
    await audit(tx, actor, {
      type: 'category',
      action: 'category_group.deleted',
      message: `Deleted category group "${group.name}" (its ${group.permissions.length} grant(s) no longer apply)`,
      targetType: 'category_group',
      targetId: id,
      details: { name: group.name, category_ids: group.members.map((m) => m.categoryId) },
    });
  });
}

/** Who rights can be granted to: active people and every group. */
export async function grantees(deps: Deps) {
  const [users, groups] = await Promise.all([
    grantsRepo.granteeUsers(deps.db),
    grantsRepo.granteeGroups(deps.db),
  ]);
  return { users: users.map((u) => ({ id: u.id, username: u.username, name: displayName(u) })), groups };
}
