import type { TGrantInput, TRights } from '@quire/contract';
import type { Tx } from '../../lib/deps.js';
import { type FieldError, invalidInput, summarise } from '../../lib/errors.js';
import { displayName } from '../../lib/user-dto.js';
import * as grantsRepo from './category-grants.repository.js';

// Grants of category rights, to people and groups: checking those a write names, and how a
// stored grant reads. Categories and category groups both hold them.

type Grantee = {
  user: { id: number; username: string; firstName: string; lastName: string } | null;
  group: { id: number; name: string } | null;
};
export const granteeOf = (g: Grantee) =>
  g.user
    ? { kind: 'user' as const, id: g.user.id, name: displayName(g.user) }
    : { kind: 'group' as const, id: g.group!.id, name: g.group!.name };

export const grantRights = (g: Omit<grantsRepo.GrantData, 'userId' | 'groupId'>): TRights => ({
  view: g.canView || g.canUpload || g.canEdit || g.canDelete || g.canShare || g.canManage,
  upload: g.canUpload,
  edit: g.canEdit,
  delete: g.canDelete,
  share: g.canShare,
  manage: g.canManage,
});

/** Grants as rows: people and groups must exist, each at most once; any right implies view. */
export async function parseGrants(
  db: Tx,
  grants: TGrantInput[],
  at: string,
): Promise<grantsRepo.GrantData[]> {
  const errors: FieldError[] = [];
  const [users, groups] = await Promise.all([
    grantsRepo.usersNotDeleted(
      db,
      grants.flatMap((g) => (g.user_id ? [g.user_id] : [])),
    ),
    grantsRepo.groupIds(
      db,
      grants.flatMap((g) => (g.group_id ? [g.group_id] : [])),
    ),
  ]);
  const seen = new Set<string>();
  grants.forEach((g, i) => {
    const key = g.user_id ? `u${g.user_id}` : `g${g.group_id}`;
    if (g.user_id && !users.has(g.user_id))
      errors.push({ path: `${at}.${i}.user_id`, message: 'No such user' });
    if (g.group_id && !groups.has(g.group_id))
      errors.push({ path: `${at}.${i}.group_id`, message: 'No such group' });
    if (seen.has(key))
      errors.push({
        path: `${at}.${i}.${g.user_id ? 'user_id' : 'group_id'}`,
        message: `This ${g.user_id ? 'user' : 'group'} is listed twice`,
      });
    seen.add(key);
  });
  if (errors.length) throw invalidInput(summarise(errors), errors);
  return grants.map((g) => {
    const r = new Set(g.rights);
    return {
      userId: g.user_id ?? null,
      groupId: g.group_id ?? null,
      canView: true,
      canUpload: r.has('upload'),
      canEdit: r.has('edit'),
      canDelete: r.has('delete'),
      canShare: r.has('share'),
      canManage: r.has('manage'),
    };
  });
}
