import type { Tx } from '../../lib/deps.js';
import { categoryHeld, fileHeld, restoreWhileHeld } from './retention.errors.js';
import * as repo from './retention.repository.js';

// The legal-hold checks of the change path (docs/architecture.md, Files, "One change path").
// The file service's `assertMayChange` calls `assertNotHeld` on files whose rows it has locked;
// the trash's purge, a category's deletion and a backup restore call the others. A hold is
// set with the rows of the files it covers locked (retention.service.ts), so a change and a
// hold never pass each other.

/** Refuses (409, audited) when a hold in force covers one of `files`, naming the first. */
export async function assertNotHeld(tx: Tx, files: Array<{ id: number; name: string }>) {
  if (!files.length) return;
  const holds = await repo.holdsOnFiles(
    tx,
    files.map((f) => f.id),
  );
  if (!holds.length) return;
  const byFile = new Map(holds.map((h) => [h.file_id, h]));
  for (const f of files) {
    const hold = byFile.get(f.id);
    if (hold) throw fileHeld(f.name, hold);
  }
}

/** Refuses (409, audited) when one of categories `ids`, or one above them, is on hold. */
export async function assertCategoriesNotHeld(tx: Tx, ids: number[]) {
  if (!ids.length) return;
  const hold = await repo.holdOnCategories(tx, ids);
  if (hold) throw categoryHeld(hold.category_name, hold);
}

/** A restore of a whole backup replaces every file: refused while any hold is in force. */
export async function assertNoHoldInForce(tx: Tx) {
  const count = await repo.activeHoldCount(tx);
  if (count > 0) throw restoreWhileHeld(count);
}
