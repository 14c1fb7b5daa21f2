import type { Readable } from 'node:stream';
import { SIGNATURE_MAX_BYTES } from '@quire/contract';
import { assertMayManage } from '../../lib/access-types.js';
import { type Actor, audit } from '../../lib/audit.js';
import { recordBlob } from '../../lib/blob-rows.js';
import type { StoredBlob } from '../../lib/content-meter.js';
import type { Deps } from '../../lib/deps.js';
import { sniffImage } from '../../lib/image-type.js';
import type { AuthContext } from '../../lib/session.js';
import { findUser } from '../account/account.service.js';
import { notAnImage, othersSignatureRefused, signatureNotFound, userNotFound } from './user.errors.js';
import * as repo from './user.repository.js';
import { isSettings } from './user.service.js';

// A user's signature image: who may set or read whose, and storing it as a checked PNG or JPEG.

/** Signatures are PNG or JPEG. */
function signatureType(head: Buffer): 'image/png' | 'image/jpeg' | null {
  const type = sniffImage(head);
  return type === 'image/png' || type === 'image/jpeg' ? type : null;
}

interface StoredImage extends StoredBlob {
  mimeType: string;
}

/**
 * Whose signature an upload sets: the caller's own, or with Settings write another user's
 * (`userId`). Checked before the file is read, so a refused upload stores nothing.
 */
export async function signatureTarget(deps: Deps, auth: AuthContext, userId: number | undefined) {
  const targetId = userId ?? auth.userId;
  if (targetId !== auth.userId && !isSettings(auth, 'write')) throw othersSignatureRefused('change');
  const target = await findUser(deps.db, targetId);
  if (!target || target.status === 'deleted') throw userNotFound();
  if (target.id !== auth.userId) assertMayManage(auth.accessType, [target]);
  return target;
}
type SignatureTarget = Awaited<ReturnType<typeof signatureTarget>>;

/**
 * Streams an uploaded signature into the blob store (at most SIGNATURE_MAX_BYTES, the
 * pipeline's limit) and checks by its first bytes that it is a PNG or JPEG before anything
 * is kept: a refused file leaves nothing behind.
 */
export async function storeSignatureImage(deps: Deps, content: Readable): Promise<StoredImage> {
  let mimeType: StoredImage['mimeType'] | null = null;
  const stored = await deps.blobs.put(content, {
    maxBytes: SIGNATURE_MAX_BYTES,
    inspectBytes: 16,
    inspect: (head) => {
      mimeType = signatureType(head);
      if (!mimeType) throw notAnImage();
    },
  });
  return { ...stored, mimeType: mimeType ?? 'application/octet-stream' };
}

/** Sets a signature stored by storeSignatureImage on the user signatureTarget chose. */
export async function setSignature(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  target: SignatureTarget,
  image: StoredImage,
) {
  await deps.db.$transaction(async (tx) => {
    await recordBlob(tx, { id: image.id, size: image.size, mimeType: image.mimeType });
    await repo.updateUser(tx, target.id, { signatureBlobId: image.id });
    await audit(tx, actor, {
      type: 'user',
      action: 'signature.updated',
      message:
        target.id === auth.userId
          ? `${target.username} uploaded their signature`
          : `Uploaded the signature of ${target.username}`,
      targetType: 'user',
      targetId: target.id,
      details: {
        blob_id: image.id,
        size: image.size,
        mime_type: image.mimeType,
        before: target.signatureBlobId,
      },
    });
  });
  return { user_id: target.id, blob_id: image.id, size: image.size };
}

/** A user's signature image: the caller's own, or anyone's with Settings read. */
export async function readSignature(deps: Deps, auth: AuthContext, userId: number) {
  if (userId !== auth.userId && !isSettings(auth, 'read')) throw othersSignatureRefused('view');
  const user = await findUser(deps.db, userId);
  if (!user) throw userNotFound();
  const blob = user.signatureBlobId ? await repo.findBlob(deps.db, user.signatureBlobId) : null;
  if (!blob || !(await deps.blobs.exists(blob.id))) throw signatureNotFound();
  const ext = blob.mimeType === 'image/png' ? 'png' : 'jpg';
  return {
    blobId: blob.id,
    mimeType: blob.mimeType,
    size: Number(blob.size),
    filename: `signature-${user.username}.${ext}`,
  };
}
