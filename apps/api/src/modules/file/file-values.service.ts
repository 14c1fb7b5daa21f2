import type { TFieldValueInput } from '@quire/contract';
import type { Actor } from '../../lib/audit.js';
import type { Tx } from '../../lib/deps.js';
import { AppError } from '../../lib/errors.js';
import type { AuthContext } from '../../lib/session.js';
import { categoryVerdict, scopeOf } from '../../lib/visibility.js';
import { categoryFields } from '../category/category.service.js';
import { categoryNotFound, uploadForbidden, valuesInvalid } from './file.errors.js';
import { checkValues } from './file.metadata.js';
import * as repo from './file.repository.js';
import { assertMayChange, fileChanged, filesChanged } from './file-change.service.js';
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

/**
 * `moveLockedFile` for many files with no values given (a bulk move), its statements one per
 * kind rather than one per file: the same checks, numbers (in the files' order), values, rows,
 * audit events and file events. False, with nothing written, when one file may not move (held,
 * in a step, values the new category refuses): the caller then moves them one by one, which
 * answers that file's own refusal.
 */
export async function moveLockedFiles(
  tx: Tx,
  auth: AuthContext,
  actor: Actor,
  files: repo.LockedFile[],
  categoryId: number,
): Promise<boolean> {
  const refused = await assertMayChange(tx, auth, files).then(
    () => false,
    (error: unknown) => {
      if (error instanceof AppError) return true;
      throw error;
    },
  );
  if (refused) return false;
  const moving = files.filter((f) => f.category_id !== categoryId);
  if (!moving.length) return true;
  const fields = await categoryFields(tx, categoryId);
  const stored = await valuesRepo.storedValues(
    tx,
    moving.map((f) => f.id),
  );
  const checks: Array<Awaited<ReturnType<typeof checkValues>>> = [];
  for (const file of moving) {
    const checked = await checkValues(fields, stored.get(file.id) ?? [], [], lookups(tx));
    const errors =
      file.index_status === 'indexed'
        ? checked.errors
        : checked.errors.filter((e) => !e.message.endsWith('is required'));
    if (errors.length) return false;
    checks.push(checked);
  }
  const first = await repo.takeIncrementals(tx, categoryId, moving.length);
  if (first === null) throw categoryNotFound();
  for (const [i, file] of moving.entries())
    await valuesRepo.writeValues(tx, file.id, checks[i]!.writes, checks[i]!.drop, auth.userId);
  await repo.moveFiles(
    tx,
    moving.map((f) => f.id),
    categoryId,
    moving.map((_, i) => first + i),
  );
  await filesChanged(
    tx,
    actor,
    moving.map((file, i) => ({
      event: 'moved',
      fileId: file.id,
      categoryId,
      fieldIds: checks[i]!.changed,
      action: 'file.moved',
      message: `Moved "${file.name}" to another category`,
      details: {
        before: { folder_id: file.category_id, incremental_value: file.incremental_value },
        after: { folder_id: categoryId, incremental_value: first + i },
        dropped_fields: checks[i]!.drop,
      },
    })),
  );
  return true;
}
