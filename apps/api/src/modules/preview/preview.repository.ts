import type { DerivativeKind } from '@quire/db';
import type { Tx } from '../../lib/deps.js';

// The preview area's queries: versions to derive from, and their derived content.

export function findVersion(db: Tx, versionId: number) {
  return db.fileVersion.findUnique({
    where: { id: versionId },
    select: { id: true, fileId: true, blobId: true, mimeType: true, size: true, originalName: true },
  });
}

export async function kindsMade(db: Tx, versionId: number): Promise<Set<DerivativeKind>> {
  const rows = await db.versionDerivative.findMany({ where: { versionId }, select: { kind: true } });
  return new Set(rows.map((r) => r.kind));
}

export function saveDerivative(
  tx: Tx,
  row: {
    versionId: number;
    kind: DerivativeKind;
    blobId: string | null;
    mimeType: string | null;
    width: number | null;
    height: number | null;
    error: string | null;
  },
) {
  return tx.versionDerivative.upsert({
    where: { versionId_kind: { versionId: row.versionId, kind: row.kind } },
    create: row,
    update: row,
  });
}

/** The derived content of `kind` of a live file's current version (with the file's name). */
export async function currentDerivative(db: Tx, fileId: number, kind: DerivativeKind) {
  const file = await db.file.findFirst({
    where: { id: fileId, deletedAt: null },
    select: {
      name: true,
      currentVersion: {
        select: {
          id: true,
          mimeType: true,
          derivatives: {
            where: { kind },
            select: { blobId: true, mimeType: true, error: true, blob: { select: { size: true } } },
          },
        },
      },
    },
  });
  if (!file?.currentVersion) return null;
  return {
    name: file.name,
    versionId: file.currentVersion.id,
    versionMimeType: file.currentVersion.mimeType,
    derivative: file.currentVersion.derivatives[0] ?? null,
  };
}
