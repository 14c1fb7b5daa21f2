import type { TFileGrant, TFilePermissions, TFileRights, TShareResult } from '@quire/contract';
import type { Actor } from '../../lib/audit.js';
import type { Deps, Tx } from '../../lib/deps.js';
import { hashPassword } from '../../lib/passwords.js';
import type { AuthContext } from '../../lib/session.js';
import { newToken } from '../../lib/tokens.js';
import { enqueueMails } from '../email/email.queue.js';
import { notify } from '../notification/notification.service.js';
import {
  expiryInPast,
  grantBeyondYours,
  grantNamedTwice,
  linkBeyondYours,
  shareNotFound,
  unknownPeople,
} from './file.errors.js';
import * as repo from './file.repository.js';
import { personName, rightsOn, toPerson } from './file.service.js';
import { fileChanged, holdForChange } from './file-change.service.js';
import * as sharingRepo from './file-sharing.repository.js';

// Who may reach a file beyond its category: its own grants (per-file permissions, shares
// with users and groups) and public links (a token, optional expiry and password), as their
// owners set them. A link's visitors are served by public-link.service.ts.

const RIGHTS = ['view', 'download', 'edit', 'delete', 'share'] as const;

async function permissionsOf(db: Tx, auth: AuthContext, fileId: number): Promise<TFilePermissions> {
  const [own, grants, mine] = await Promise.all([
    sharingRepo.hasOwnPermissions(db, fileId),
    sharingRepo.fileGrants(db, fileId),
    rightsOn(db, auth, fileId),
  ]);
  return {
    file_id: fileId,
    has_own_permissions: own,
    grants: grants.map((g) => ({
      id: g.id,
      user: g.user ? toPerson(g.user) : null,
      group: g.group,
      view: true,
      download: g.canDownload,
      edit: g.canEdit,
      delete: g.canDelete,
      share: g.canShare,
    })),
    mine,
  };
}

export function filePermissions(deps: Deps, auth: AuthContext, fileId: number) {
  return permissionsOf(deps.db, auth, fileId);
}

/** Nobody gives a right on a file that they do not hold there themselves. */
function assertWithin(mine: TFileRights, wanted: Array<Partial<Record<(typeof RIGHTS)[number], boolean>>>) {
  for (const g of wanted)
    for (const right of RIGHTS) if (g[right] && !mine[right]) throw grantBeyondYours(right);
}

async function checkGrantees(
  tx: Tx,
  userIds: number[],
  groupIds: number[],
  where: { users: string; groups: string },
) {
  const users = await repo.activeUserIds(tx, userIds);
  const missingUsers = userIds.filter((id) => !users.has(id));
  if (missingUsers.length) throw unknownPeople(where.users, missingUsers);
  const groups = await sharingRepo.existingGroupIds(tx, groupIds);
  const missingGroups = groupIds.filter((id) => !groups.has(id));
  if (missingGroups.length) throw unknownPeople(where.groups, missingGroups);
}

export async function updateFilePermissions(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  input: { file_id: number; inherit_category: boolean; grants: TFileGrant[] },
) {
  const grants = input.grants.map((g) => ({
    userId: g.user_id ?? null,
    groupId: g.group_id ?? null,
    view: true,
    download: g.download ?? false,
    edit: g.edit ?? false,
    delete: g.delete ?? false,
    share: g.share ?? false,
  }));
  await deps.db.$transaction(async (tx) => {
    const [file] = await holdForChange(tx, auth, [input.file_id], { holders: false });
    const mine = await rightsOn(tx, auth, input.file_id);
    assertWithin(mine, grants);
    const userIds = grants.flatMap((g) => (g.userId ? [g.userId] : []));
    const groupIds = grants.flatMap((g) => (g.groupId ? [g.groupId] : []));
    await checkGrantees(tx, userIds, groupIds, { users: 'body.grants', groups: 'body.grants' });
    const dupes = (list: number[]) => list.length !== new Set(list).size;
    if (dupes(userIds) || dupes(groupIds)) throw grantNamedTwice();
    const before = await sharingRepo.fileGrants(tx, input.file_id);
    await sharingRepo.replaceGrants(
      tx,
      input.file_id,
      grants.map((g) => ({
        userId: g.userId,
        groupId: g.groupId,
        canView: true,
        canDownload: g.download,
        canEdit: g.edit,
        canDelete: g.delete,
        canShare: g.share,
        grantedById: auth.userId,
      })),
    );
    await repo.updateFile(tx, input.file_id, { hasOwnPermissions: !input.inherit_category });
    await fileChanged(tx, actor, {
      event: 'permissions_changed',
      fileId: input.file_id,
      categoryId: file?.category_id ?? null,
      action: 'file.permissions_changed',
      message: `Changed who may reach "${file?.name}"`,
      details: {
        before: {
          has_own_permissions: file?.has_own_permissions ?? false,
          grants: before.map((g) =>
            auditedGrant({
              userId: g.userId,
              groupId: g.groupId,
              download: g.canDownload,
              edit: g.canEdit,
              delete: g.canDelete,
              share: g.canShare,
            }),
          ),
        },
        after: { has_own_permissions: !input.inherit_category, grants: grants.map(auditedGrant) },
      },
    });
  });
  return permissionsOf(deps.db, auth, input.file_id);
}

/** A grant as the audit trail names it, alike before and after a change (the API's own keys). */
function auditedGrant(g: {
  userId: number | null;
  groupId: number | null;
  download: boolean;
  edit: boolean;
  delete: boolean;
  share: boolean;
}) {
  return {
    user_id: g.userId,
    group_id: g.groupId,
    download: g.download,
    edit: g.edit,
    delete: g.delete,
    share: g.share,
  };
}

interface ShareInput {
  user_ids: number[];
  group_ids: number[];
  download: boolean;
  edit: boolean;
  message?: string;
  public_link: boolean;
  expires_at?: string | null;
  password?: string;
  revoke_link_ids: string[];
}

export async function shareFile(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  fileId: number,
  input: ShareInput,
): Promise<TShareResult> {
  const now = deps.now();
  const expiresAt = input.expires_at ? new Date(input.expires_at) : null;
  if (expiresAt && expiresAt <= now) throw expiryInPast();
  const passwordHash = input.public_link && input.password ? await hashPassword(input.password) : null;
  const token = input.public_link ? newToken() : null;
  return deps.db.$transaction(async (tx) => {
    const [file] = await holdForChange(tx, auth, [fileId], { holders: false });
    if (!file) throw shareNotFound();
    const mine = await rightsOn(tx, auth, fileId);
    assertWithin(mine, [{ download: input.download, edit: input.edit }]);
    // A link never gives more than its maker holds, and a link gives the download.
    if (input.public_link && !mine.download) throw linkBeyondYours();
    await checkGrantees(tx, input.user_ids, input.group_ids, {
      users: 'body.user_ids',
      groups: 'body.group_ids',
    });
    await sharingRepo.addGrants(
      tx,
      fileId,
      { userIds: [...new Set(input.user_ids)], groupIds: [...new Set(input.group_ids)] },
      { canDownload: input.download, canEdit: input.edit },
      auth.userId,
    );

    const told = (await sharingRepo.usersToTell(tx, input.user_ids, input.group_ids)).filter(
      (u) => u.id !== auth.userId,
    );
    const sharer = auth.username;
    if (told.length) {
      const link = `/files/${fileId}`;
      await notify(
        tx,
        told.map((u) => ({
          userId: u.id,
          kind: 'file.shared',
          title: `${sharer} shared "${file.name}" with you`,
          body: input.message ?? '',
          fileId,
          link,
        })),
      );
      await enqueueMails(
        tx,
        told.map((u) => ({
          kind: 'file_shared',
          to: u.email,
          subject: `${sharer} shared "${file.name}" with you`,
          text: [
            `Hello ${personName(u)},`,
            '',
            `${sharer} shared the file "${file.name}" with you in Quire.`,
            ...(input.message ? ['', input.message] : []),
            '',
            `Open it at ${deps.config.publicUrl}${link}`,
          ].join('\n'),
          createdById: auth.userId,
        })),
      );
    }

    let created: TShareResult['link'] = null;
    if (token) {
      const share = await sharingRepo.createShare(tx, {
        fileId,
        tokenHash: token.hash,
        passwordHash,
        expiresAt,
        createdById: auth.userId,
      });
      created = {
        id: share.id,
        token: token.token,
        path: `/preview-file/${token.token}`,
        expires_at: expiresAt?.toISOString() ?? null,
        has_password: passwordHash !== null,
      };
    }
    const revoked = input.revoke_link_ids.length
      ? await sharingRepo.liveSharesAmong(tx, fileId, input.revoke_link_ids)
      : [];
    if (revoked.length)
      await sharingRepo.revokeShares(
        tx,
        fileId,
        revoked.map((r) => r.id),
        now,
      );

    await fileChanged(tx, actor, {
      event: 'shared',
      fileId,
      categoryId: file.category_id,
      action: 'file.shared',
      message: `Shared "${file.name}"${told.length ? ` with ${told.length} people` : ''}${created ? ', by a public link' : ''}${revoked.length ? `, revoked ${revoked.length} link(s)` : ''}`,
      details: {
        user_ids: input.user_ids,
        group_ids: input.group_ids,
        download: input.download,
        edit: input.edit,
        link: created
          ? { id: created.id, expires_at: created.expires_at, has_password: created.has_password }
          : null,
        revoked: revoked.map((r) => r.id),
      },
    });
    return {
      file_id: fileId,
      shared_with: told.map(toPerson),
      link: created,
      revoked: revoked.map((r) => r.id),
    };
  });
}
