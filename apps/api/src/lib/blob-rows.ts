import type { Tx } from './deps.js';

/**
 * Records a stored blob (lib/blob-store.ts) in the `blobs` table, in the transaction that
 * first points a row at it: a blob is kept from then on while any row references it.
 */
export function recordBlob(tx: Tx, blob: { id: string; size: number; mimeType: string }) {
  return tx.blob.upsert({
    where: { id: blob.id },
    create: { id: blob.id, size: BigInt(blob.size), mimeType: blob.mimeType },
    update: {},
  });
}
