import type { Tx } from '../../lib/deps.js';
import * as listsRepo from './file-lists.repository.js';

// Whether a person has an unindexed file waiting in a category: the category area lets them
// read that category's fields (to index it) on this alone. Kept apart from file.service.ts,
// which reads the category area's fields itself (one service each way would be an import loop).

/** An unindexed file of `userId`'s (their own, or left for a group of theirs) is in `categoryId`. */
export function hasUnindexedFileIn(db: Tx, userId: number, categoryId: number): Promise<boolean> {
  return listsRepo.unindexedWaitingIn(db, userId, categoryId);
}
