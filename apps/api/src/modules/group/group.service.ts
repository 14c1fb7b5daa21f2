import type { TCreateGroupBody, TEditGroupBody, TGroup } from '@quire/contract';
import type { AccessType as DbAccessType } from '@quire/db';
import { assertMayManage } from '../../lib/access-types.js';
import { type Actor, audit, type FieldChange } from '../../lib/audit.js';
import type { Deps, Tx } from '../../lib/deps.js';
import { nameRace } from '../../lib/errors.js';
import type { AuthContext } from '../../lib/session.js';
import { groupNameTaken, groupNotFound, unknownUsers } from './group.errors.js';
import * as repo from './group.repository.js';

type GroupRow = NonNullable<Awaited<ReturnType<typeof repo.findGroup>>>;

function toGroupDto(group: GroupRow): TGroup {
  const members = group.members
    .map(({ user }) => ({ id: user.id, name: `${user.firstName} ${user.lastName}`.trim() || user.username }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
  return {
    id: group.id,
    name: group.name,
    description: group.description,
    member_count: members.length,
    members,
    created_at: group.createdAt.toISOString(),
  };
}

export async function listGroups(deps: Deps): Promise<TGroup[]> {
  return (await repo.listGroups(deps.db)).map(toGroupDto);
}

async function checkName(db: Tx, name: string, exceptId?: number) {
  if (await repo.findGroupByName(db, name, exceptId)) throw groupNameTaken(name);
}

/**
 * The new member list, checked: every id a user not deleted (400 naming the unknown ones),
 * and everyone it adds or removes someone the caller may manage (403), the rule editUser
 * applies to group_ids: no Company Admin or Vendor Admin moved by a User Administration Admin.
 */
async function checkMembers(
  db: Tx,
  auth: AuthContext,
  userIds: number[],
  current: Array<{ id: number; accessType: DbAccessType }> = [],
): Promise<number[]> {
  const ids = [...new Set(userIds)];
  const found = await repo.usersByIds(db, ids);
  const known = new Set(found.map((u) => u.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length) throw unknownUsers(unknown);
  const before = new Set(current.map((u) => u.id));
  const added = found.filter((u) => !before.has(u.id));
  const removed = current.filter((u) => !known.has(u.id));
  assertMayManage(auth.accessType, [...added, ...removed]);
  return ids;
}

export async function createGroup(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  input: TCreateGroupBody,
): Promise<TGroup> {
  const id = await deps.db
    .$transaction(async (tx) => {
      await checkName(tx, input.name);
      await repo.sharePeople(tx, input.user_ids ?? []);
      const userIds = await checkMembers(tx, auth, input.user_ids ?? []);
      const group = await repo.createGroup(tx, { name: input.name, description: input.description ?? '' });
      await repo.replaceMembers(tx, group.id, userIds);
      await audit(tx, actor, {
        type: 'group',
        action: 'group.created',
        message: `Created group "${group.name}" with ${userIds.length} member(s)`,
        targetType: 'group',
        targetId: group.id,
        details: { name: group.name, description: group.description, user_ids: userIds },
      });
      return group.id;
    })
    .catch(nameRace(input.name, groupNameTaken));
  return getGroup(deps, id);
}

export async function editGroup(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  id: number,
  input: TEditGroupBody,
): Promise<TGroup> {
  await deps.db
    .$transaction(async (tx) => {
      if (!(await repo.lockGroup(tx, id))) throw groupNotFound();
      // Its members and those it names, whose memberships it changes.
      if (input.user_ids) await repo.sharePeople(tx, [...(await repo.memberIds(tx, id)), ...input.user_ids]);
      // Its members, read once: after their rows are shared (when it names members), so that
      // none of them changes or leaves the group meanwhile.
      const before = await repo.groupToEdit(tx, id);
      if (!before) throw groupNotFound();
      if (input.name !== undefined && input.name !== before.name) await checkName(tx, input.name, id);
      const members = before.members.map((m) => m.user);
      const userIds =
        input.user_ids === undefined ? undefined : await checkMembers(tx, auth, input.user_ids, members);

      const changes: Record<string, FieldChange> = {};
      if (input.name !== undefined && input.name !== before.name)
        changes.name = { before: before.name, after: input.name };
      if (input.description !== undefined && input.description !== before.description)
        changes.description = { before: before.description, after: input.description };
      if (userIds) {
        // The members shown: deleted people are not.
        const old = members
          .filter((u) => u.status !== 'deleted')
          .map((u) => u.id)
          .sort((a, b) => a - b);
        const now = [...userIds].sort((a, b) => a - b);
        if (old.join() !== now.join()) changes.user_ids = { before: old, after: now };
      }
      await repo.updateGroup(tx, id, { name: input.name, description: input.description });
      if (userIds) await repo.replaceMembers(tx, id, userIds);
      await audit(tx, actor, {
        type: 'group',
        action: 'group.updated',
        message: `Edited group "${input.name ?? before.name}"`,
        targetType: 'group',
        targetId: id,
        details: changes,
      });
    })
    .catch(nameRace(input.name, groupNameTaken));
  return getGroup(deps, id);
}

export async function deleteGroup(deps: Deps, actor: Actor, id: number): Promise<void> {
  await deps.db.$transaction(async (tx) => {
    if (!(await repo.lockGroup(tx, id))) throw groupNotFound();
    const group = await repo.findGroup(tx, id);
    if (!group) throw groupNotFound();
    await repo.deleteGroup(tx, id);
    await audit(tx, actor, {
      type: 'group',
      action: 'group.deleted',
      message: `Deleted group "${group.name}" (${group.members.length} member(s))`,
      targetType: 'group',
      targetId: id,
      details: { name: group.name, user_ids: group.members.map((m) => m.user.id) },
    });
  });
}

async function getGroup(deps: Deps, id: number): Promise<TGroup> {
  const group = await repo.findGroup(deps.db, id);
  if (!group) throw groupNotFound();
  return toGroupDto(group);
}
