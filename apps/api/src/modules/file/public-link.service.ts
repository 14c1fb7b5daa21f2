import { createHmac, timingSafeEqual } from 'node:crypto';
import type { TPublicFile } from '@quire/contract';
import type { AccessType as DbAccessType } from '@quire/db';
import { accessTypeFromDb } from '../../lib/access-types.js';
import { type Actor, audit } from '../../lib/audit.js';
import type { Deps } from '../../lib/deps.js';
import { dummyPasswordHash, verifyPassword } from '../../lib/passwords.js';
import { hashToken } from '../../lib/tokens.js';
import { fileRights, scopeOf } from '../../lib/visibility.js';
import { previewKind } from './file.content.js';
import { contentMissing, shareNotFound } from './file.errors.js';
import * as repo from './file.repository.js';
import * as sharingRepo from './file-sharing.repository.js';

// Public links as their visitors use them: the link's file, the password unlock that gives a
// short-lived access token, and the content — each only while the link's maker still holds
// the rights it gives.

const ACCESS_TTL_MS = 3_600_000;

function accessMac(deps: Deps, shareId: string, exp: number) {
  return createHmac('sha256', deps.secretKey).update(`share-access:${shareId}:${exp}`).digest('base64url');
}

function accessValid(deps: Deps, shareId: string, access: string | undefined): boolean {
  if (!access) return false;
  const [expText, mac] = access.split('.');
  const exp = Number(expText);
  if (!mac || !Number.isSafeInteger(exp) || exp < deps.now().getTime()) return false;
  const want = Buffer.from(accessMac(deps, shareId, exp));
  const got = Buffer.from(mac);
  return want.length === got.length && timingSafeEqual(want, got);
}

/**
 * Whether the maker of a link still holds what it gives (viewing and downloading its file),
 * checked each time it is used: a link dies with its maker's right, account or activity.
 * Their rights are the most their access type reaches (File Control admins and the Auditor
 * signed in as admin read everything).
 */
async function makerStillGives(
  deps: Deps,
  maker: { id: number; accessType: DbAccessType; status: string; deletedAt: Date | null },
  fileId: number,
) {
  if (maker.status !== 'active' || maker.deletedAt) return false;
  const scope = scopeOf({ userId: maker.id, accessType: accessTypeFromDb(maker.accessType), role: 'admin' });
  const rights = await fileRights(deps.db, scope, [fileId]);
  return rights.get(fileId)?.download === true;
}

/**
 * The live link behind a token (not revoked, not expired, its file not in the trash, its maker
 * still holding what it gives), or the one 404.
 */
async function liveShare(deps: Deps, token: string) {
  const share = /^[A-Za-z0-9_-]{16,100}$/.test(token)
    ? await sharingRepo.shareByTokenHash(deps.db, hashToken(token))
    : null;
  const now = deps.now();
  if (!share || share.revokedAt || (share.expiresAt && share.expiresAt <= now) || share.file.deletedAt)
    throw shareNotFound();
  if (!(await makerStillGives(deps, share.createdBy, share.fileId))) throw shareNotFound();
  return share;
}

async function sharedVersion(deps: Deps, share: Awaited<ReturnType<typeof liveShare>>) {
  const versionId = share.versionId ?? share.file.currentVersionId;
  const version = versionId ? await repo.findVersion(deps.db, versionId) : null;
  if (!version) throw shareNotFound();
  return version;
}

export async function publicFile(deps: Deps, token: string, access?: string): Promise<TPublicFile> {
  const share = await liveShare(deps, token);
  const expires = share.expiresAt?.toISOString() ?? null;
  if (share.passwordHash && !accessValid(deps, share.id, access))
    return {
      password_required: true,
      name: null,
      mime_type: null,
      size: null,
      preview: null,
      expires_at: expires,
    };
  const version = await sharedVersion(deps, share);
  return {
    password_required: false,
    name: share.file.name,
    mime_type: version.mimeType,
    size: Number(version.size),
    preview: previewKind(version.mimeType),
    expires_at: expires,
  };
}

/** Proves a link's password: a wrong one gets the answer of a wrong link, after the same work. */
export async function unlockPublicFile(deps: Deps, actor: Actor, token: string, password: string) {
  let share: Awaited<ReturnType<typeof liveShare>> | null = null;
  try {
    share = await liveShare(deps, token);
  } catch {
    share = null;
  }
  const ok = await verifyPassword(share?.passwordHash ?? (await dummyPasswordHash()), password);
  if (!share?.passwordHash || !ok) throw shareNotFound();
  const exp = deps.now().getTime() + ACCESS_TTL_MS;
  await deps.db.$transaction(async (tx) => {
    await sharingRepo.touchShare(tx, share.id, deps.now());
    await audit(tx, actor, {
      type: 'file',
      action: 'share.unlocked',
      message: `A public link of "${share.file.name}" was opened with its password`,
      targetType: 'file',
      targetId: share.fileId,
      details: { share_id: share.id },
    });
  });
  return { access: `${exp}.${accessMac(deps, share.id, exp)}`, expires_at: new Date(exp).toISOString() };
}

/** The content behind a live link (a download is counted and audited; a preview is not counted). */
export async function publicContent(
  deps: Deps,
  actor: Actor,
  token: string,
  access: string | undefined,
  disposition: 'inline' | 'attachment',
) {
  const share = await liveShare(deps, token);
  if (share.passwordHash && !accessValid(deps, share.id, access)) throw shareNotFound();
  const version = await sharedVersion(deps, share);
  if (!(await deps.blobs.exists(version.blobId))) throw contentMissing();
  await deps.db.$transaction(async (tx) => {
    if (disposition === 'attachment') await sharingRepo.countShareDownload(tx, share.id, deps.now());
    else await sharingRepo.touchShare(tx, share.id, deps.now());
    await audit(tx, actor, {
      type: 'file',
      action: disposition === 'attachment' ? 'share.downloaded' : 'share.previewed',
      message: `"${share.file.name}" was ${disposition === 'attachment' ? 'downloaded' : 'previewed'} through a public link`,
      targetType: 'file',
      targetId: share.fileId,
      details: { share_id: share.id, version_id: version.id },
    });
  });
  return {
    blobId: version.blobId,
    size: Number(version.size),
    mimeType: version.mimeType,
    filename: share.file.name,
    disposition,
  };
}
