import { fileURLToPath } from 'node:url';
import { hasThumbnail, officePreviewKind, type TOfficePreview } from '@quire/contract';
import type { DerivativeKind } from '@quire/db';
import { audit } from '../../lib/audit.js';
import { recordBlob } from '../../lib/blob-rows.js';
import { ChildTaskFailed, runInChild } from '../../lib/child-task.js';
import type { Deps } from '../../lib/deps.js';
import type { FileToSend } from '../../lib/send-file.js';
import { readAll } from '../../lib/streams.js';
import { noOfficePreview, noThumbnail } from './preview.errors.js';
import * as repo from './preview.repository.js';

// Derived content of a version (decision: never a version of its own): a thumbnail of the
// first page or the image, and an Office file's preview as bounded HTML. The preview.derive
// job makes them after each upload and new version, in a bounded child process
// (derive-child.mjs, lib/child-task.ts), stores each as a blob referenced from
// version_derivatives (or the reason it could not be made), and audits what it made. The
// calls serve them with the file's view right: neither is the original's bytes.

interface DeriveLimits {
  /** Longest side of a thumbnail, in pixels. */
  size: number;
  /** Largest image (width x height, from its header) a thumbnail is made from. */
  maxPixels: number;
  /** Content larger than this is not read. */
  maxBytes: number;
  maxHtml: number;
  maxRows: number;
  maxColumns: number;
  timeoutMs: number;
  memoryMb: number;
  rssMb: number;
}

/** What a thumbnail is written as (derive-child.mjs). */
const THUMBNAIL_TYPE = 'image/webp';

const DERIVE_LIMITS: DeriveLimits = {
  size: 256,
  maxPixels: 40_000_000,
  maxBytes: 50 * 1024 * 1024,
  maxHtml: 2_000_000,
  maxRows: 500,
  maxColumns: 50,
  timeoutMs: 60_000,
  memoryMb: 512,
  rssMb: 1024,
};

/** What can be made from content of `mimeType`. */
function derivable(mimeType: string): { thumbnail: boolean; preview: 'docx' | 'xlsx' | null } {
  return { thumbnail: hasThumbnail(mimeType), preview: officePreviewKind(mimeType) };
}

type Made<T> = T | { error: string };
interface ChildOut {
  thumbnail?: Made<{ webp: Uint8Array; width: number; height: number }>;
  preview?: Made<{ html: string; truncated: boolean }>;
}

const CHILD = fileURLToPath(new URL('./derive-child.mjs', import.meta.url));

async function runChild(
  bytes: Buffer,
  mimeType: string,
  want: { thumbnail: boolean; preview: 'docx' | 'xlsx' | null },
  limits: DeriveLimits,
): Promise<ChildOut> {
  try {
    return await runInChild<ChildOut>(
      CHILD,
      {
        bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
        mime: mimeType.toLowerCase().split(';')[0]?.trim(),
        thumbnail: want.thumbnail,
        preview: want.preview,
        size: limits.size,
        maxPixels: limits.maxPixels,
        maxHtml: limits.maxHtml,
        maxRows: limits.maxRows,
        maxColumns: limits.maxColumns,
      },
      limits,
    );
  } catch (err) {
    if (!(err instanceof ChildTaskFailed)) throw err;
    const error = {
      timeout: `Making it took longer than ${Math.round(limits.timeoutMs / 1000)} s`,
      memory: `Making it needed more than ${limits.rssMb} MiB`,
      error: `The file could not be read: ${err.detail}`,
      start: `The renderer could not start: ${err.detail}`,
      stopped: `The renderer stopped before it finished (${err.detail})`,
    }[err.reason];
    return {
      thumbnail: want.thumbnail ? { error } : undefined,
      preview: want.preview ? { error } : undefined,
    };
  }
}

/**
 * Makes the thumbnail and preview of one version that are not made yet (a repeated job finds
 * them and stops); each is stored with its audit event in one transaction.
 */
export async function deriveVersion(deps: Deps, versionId: number, limits: DeriveLimits = DERIVE_LIMITS) {
  const version = await repo.findVersion(deps.db, versionId);
  if (!version) return; // purged meanwhile
  const can = derivable(version.mimeType);
  const made = await repo.kindsMade(deps.db, versionId);
  const want = {
    thumbnail: can.thumbnail && !made.has('thumbnail'),
    preview: made.has('preview') ? null : can.preview,
  };
  if (!want.thumbnail && !want.preview) return;

  let out: ChildOut;
  if (Number(version.size) > limits.maxBytes) {
    const error = `Files over ${Math.round(limits.maxBytes / 1024 / 1024)} MB get no thumbnail or preview`;
    out = {
      thumbnail: want.thumbnail ? { error } : undefined,
      preview: want.preview ? { error } : undefined,
    };
  } else {
    const bytes = await readAll(await deps.blobs.read(version.blobId));
    out = await runChild(bytes, version.mimeType, want, limits);
  }

  const rows: Array<Parameters<typeof repo.saveDerivative>[1] & { size?: number }> = [];
  /** A derivative that could not be made: its row says why. */
  const noDerivative = (kind: DerivativeKind, error: string) =>
    rows.push({ versionId, kind, blobId: null, mimeType: null, width: null, height: null, error });
  /** A derivative made: its content is stored, its row names it. */
  const keepDerivative = async (
    kind: DerivativeKind,
    content: Buffer,
    mimeType: string,
    box?: { width: number; height: number },
  ) => {
    const stored = await deps.blobs.put(content);
    const [width, height] = box ? [box.width, box.height] : [null, null];
    rows.push({
      versionId,
      kind,
      blobId: stored.id,
      size: stored.size,
      mimeType,
      width,
      height,
      error: null,
    });
  };
  if (out.thumbnail) {
    const t = out.thumbnail;
    if ('error' in t) noDerivative('thumbnail', t.error);
    else await keepDerivative('thumbnail', Buffer.from(t.webp), THUMBNAIL_TYPE, t);
  }
  if (out.preview) {
    const p = out.preview;
    if ('error' in p) noDerivative('preview', p.error);
    else await keepDerivative('preview', Buffer.from(JSON.stringify(p)), 'application/json');
  }

  await deps.db.$transaction(async (tx) => {
    for (const { size, ...row } of rows) {
      if (row.blobId && row.mimeType)
        await recordBlob(tx, { id: row.blobId, size: size ?? 0, mimeType: row.mimeType });
      await repo.saveDerivative(tx, row);
    }
    const said = rows.map((r) =>
      r.error
        ? `no ${r.kind} (${r.error})`
        : r.kind === 'thumbnail'
          ? `a ${r.width} x ${r.height} thumbnail`
          : 'an Office preview',
    );
    await audit(
      tx,
      { userId: null },
      {
        type: 'file',
        action: 'file.previews_made',
        message: `Made ${said.join(' and ')} of "${version.originalName}"`,
        targetType: 'file',
        targetId: version.fileId,
        details: { version_id: versionId, kinds: rows.map((r) => ({ kind: r.kind, made: !r.error })) },
      },
    );
  });
}

/** The thumbnail of a file's current version, to send (the guard has checked view). */
export async function thumbnailOf(deps: Deps, fileId: number): Promise<FileToSend> {
  const found = await repo.currentDerivative(deps.db, fileId, 'thumbnail');
  if (!found) throw noThumbnail('it has no content');
  const d = found.derivative;
  if (!d) {
    throw noThumbnail(
      derivable(found.versionMimeType).thumbnail
        ? 'it is being made, try again in a moment'
        : 'files of this type have none',
    );
  }
  if (!d.blobId || !d.blob) throw noThumbnail(d.error ?? 'it could not be made');
  // WebP; thumbnails made before WebP are PNG, and are sent as what they are.
  const mimeType = d.mimeType ?? THUMBNAIL_TYPE;
  return {
    blobId: d.blobId,
    size: Number(d.blob.size),
    mimeType,
    filename: `${found.name}.${mimeType === 'image/png' ? 'png' : 'webp'}`,
    disposition: 'inline',
    // Revalidated with its ETag (the content's sha256): a new version changes it.
    cacheControl: 'private, no-cache',
  };
}

/** The Office preview of a file's current version (the guard has checked view). */
export async function officePreview(deps: Deps, fileId: number): Promise<TOfficePreview> {
  const found = await repo.currentDerivative(deps.db, fileId, 'preview');
  if (!found) throw noOfficePreview('it has no content');
  const kind = derivable(found.versionMimeType).preview;
  if (!kind) throw noOfficePreview('only DOCX and XLSX files are previewed this way');
  const d = found.derivative;
  if (!d) throw noOfficePreview('it is being made, try again in a moment');
  if (!d.blobId) throw noOfficePreview(d.error ?? 'it could not be made');
  const made = JSON.parse((await readAll(await deps.blobs.read(d.blobId))).toString('utf8')) as {
    html: string;
    truncated: boolean;
  };
  return { version_id: found.versionId, kind, html: made.html, truncated: made.truncated };
}
