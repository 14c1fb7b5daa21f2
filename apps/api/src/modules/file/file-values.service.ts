import type { TFieldValueInput } from '@quire/contract';
import type { Actor } from '../../lib/audit.js';
import type { Tx } from '../../lib/deps.js';
import type { AuthContext } from '../../lib/session.js';
import { categoryVerdict, scopeOf } from '../../lib/visibility.js';
import { categoryFields } from '../category/category.service.js';
import { categoryNotFound, uploadForbidden, valuesInvalid } from './file.errors.js';
import { checkValues } from './file.metadata.js';
import * as repo from './file.repository.js';
import { assertMayChange, fileChanged } from './file-change.service.js';
import * as valuesRepo from './file-values.repository.js';

// A file's metadata values against its category's fields: applying them when indexing,
// whether the caller may file into a category, and moving a file (its values checked against
// the new category's fields, its running number taken there).

function lookups(tx: Tx) {
  return {
    itemIds: (pairs: Array<{ valueListId: number; key: number }>) => valuesRepo.itemIds(tx, pairs),
    activeUserIds: (ids: number[]) => repo.activeUserIds(tx, ids),
  };
}

export async function applyValues(
  tx: Tx,
  auth: AuthContext,
  fileId: number,
  categoryId: number,
  input: TFieldValueInput[],
) {
  const fields = await categoryFields(tx, categoryId);
  const existing = (await valuesRepo.storedValues(tx, [fileId])).get(fileId) ?? [];
  const checked = await checkValues(fields, existing, input, lookups(tx));
  if (checked.errors.length) throw valuesInvalid(checked.errors);
  await valuesRepo.writeValues(tx, fileId, checked.writes, checked.drop, auth.userId);
  return checked.changed;
}

/** May the caller file things in category `id`? 404 when they may not see it, 403 without upload. */
export async function assertCanFileInto(db: Tx, auth: AuthContext, categoryId: number) {
  const verdict = await categoryVerdict(db, scopeOf(auth), [categoryId], 'upload');
  if (verdict === 'hidden') throw categoryNotFound();
  if (verdict === 'forbidden') throw uploadForbidden();
}

/**
 * Moves a file locked by `lockForChange` to category `categoryId`, in the caller's transaction,
 * once `assertMayChange` lets the caller change it (this checks, so a move of many files
 * checks each): the values are checked against the new category's fields, kept where
 * they are shared, dropped where not, required ones needed (an unindexed file is checked when
 * indexed); it takes the category's next running number. Audited as `file.moved`.
 */
export async function moveLockedFile(
  tx: Tx,
  auth: AuthContext,
  actor: Actor,
  file: repo.LockedFile,
  categoryId: number,
  values: TFieldValueInput[] = [],
) {
  await assertMayChange(tx, auth, [file]);
  if (file.category_id === categoryId && !values.length) return;
  const moving = file.category_id !== categoryId;
  const number = moving ? await repo.takeIncrementals(tx, categoryId, 1) : file.incremental_value;
  if (number === null && moving) throw categoryNotFound();
  const fields = await categoryFields(tx, categoryId);
  const existing = (await valuesRepo.storedValues(tx, [file.id])).get(file.id) ?? [];
  const checked = await checkValues(fields, existing, values, lookups(tx));
  const errors =
    file.index_status === 'indexed'
      ? checked.errors
      : checked.errors.filter((e) => !e.message.endsWith('is required'));
  if (errors.length) throw valuesInvalid(errors);
  await valuesRepo.writeValues(tx, file.id, checked.writes, checked.drop, auth.userId);
  await repo.updateFile(tx, file.id, { categoryId, incrementalValue: number });
  await fileChanged(tx, actor, {
    event: 'moved',
    fileId: file.id,
    categoryId,
    fieldIds: checked.changed,
    action: 'file.moved',
    message: `Moved "${file.name}" to another category`,
    details: {
      before: { folder_id: file.category_id, incremental_value: file.incremental_value },
      after: { folder_id: categoryId, incremental_value: number },
      dropped_fields: checked.drop,
    },
  });
}
