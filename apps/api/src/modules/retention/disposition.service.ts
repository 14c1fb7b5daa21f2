import type { TDecideDispositionsInput, TDisposition } from '@quire/contract';
import { type Actor, type AuditInput, audit, auditAll } from '../../lib/audit.js';
import type { Deps, Tx } from '../../lib/deps.js';
import { AppError } from '../../lib/errors.js';
import { type PageQuery, pageMeta } from '../../lib/paging.js';
import type { AuthContext } from '../../lib/session.js';
import { purgeRow, purgeRows, toPerson } from '../file/file.service.js';
import {
  type FileChange,
  fileChanged,
  filesChangedAmong,
  holdForChange,
  lockForChange,
} from '../file/file-change.service.js';
import { trashFilesIn, trashLocked } from '../file-actions/file-actions.service.js';
import { notify } from '../notification/notification.service.js';
import { assertNotHeld } from './legal-hold.guard.js';
import { dispositionDecided, dispositionsNotFound } from './retention.errors.js';
import * as repo from './retention.repository.js';
import { ruleSummary } from './retention.service.js';

// Dispositions: the daily `retention.scan` lists the files whose period under their
// category's rule is over; File Control writers approve (the rule's review, trash or purge is
// carried out through the file change path, so a legal hold refuses it) or postpone them.
// Every decision is audited with the rule that caused it.

const DAY_MS = 86_400_000;

function toDisposition(d: repo.DispositionRow, held: Set<number>): TDisposition {
  return {
    id: d.id,
    file: { id: d.file.id, name: d.file.name },
    category: d.file.category,
    rule_id: d.ruleId,
    rule_summary: d.ruleSummary,
    action: d.action,
    review_group: d.reviewGroup,
    due_at: d.dueAt.toISOString(),
    status: d.status,
    postponed_until: d.postponedUntil?.toISOString() ?? null,
    decided_by: d.decidedBy ? toPerson(d.decidedBy) : null,
    decided_at: d.decidedAt?.toISOString() ?? null,
    held: held.has(d.fileId),
  };
}

async function heldOf(tx: Tx, rows: repo.DispositionRow[]) {
  if (!rows.length) return new Set<number>();
  const holds = await repo.holdsOnFiles(tx, [...new Set(rows.map((r) => r.fileId))]);
  return new Set(holds.map((h) => h.file_id));
}

export async function listDispositions(
  deps: Deps,
  q: PageQuery & { status: 'pending' | 'postponed' | 'approved' },
) {
  const { rows, total } = await repo.dispositionsPage(deps.db, q.status, q);
  const held = await heldOf(deps.db, rows);
  return { ...pageMeta(q, total), items: rows.map((r) => toDisposition(r, held)) };
}

/** Carries out an approved disposition's action on its file, in the caller's transaction. */
async function carryOut(tx: Tx, deps: Deps, auth: AuthContext, actor: Actor, d: repo.DispositionRow) {
  if (d.action === 'review') return;
  if (d.file.deletedAt) {
    // Already in the trash: a trash disposition has nothing left to do; a purge purges it,
    // unless a hold covers it.
    if (d.action === 'trash') return;
    const [file] = await lockForChange(tx, [d.fileId], { trashed: true });
    if (!file) return;
    await assertNotHeld(tx, [file]);
    await purgeLocked(tx, actor, file, d);
    return;
  }
  if (d.action === 'trash') {
    await trashFilesIn(tx, auth, actor, [d.fileId], deps.now());
    return;
  }
  const [file] = await holdForChange(tx, auth, [d.fileId]);
  if (file) await purgeLocked(tx, actor, file, d);
}

type PurgedFile = { id: number; name: string; category_id: number | null; incremental_value: number | null };

async function purgeLocked(tx: Tx, actor: Actor, file: PurgedFile, d: repo.DispositionRow) {
  await fileChanged(tx, actor, purgeChange(file, d));
  await purgeRow(tx, file.id);
}

/** The change recorded when a disposition purges its file. */
function purgeChange(file: PurgedFile, d: repo.DispositionRow): FileChange {
  return {
    event: 'purged',
    fileId: file.id,
    categoryId: file.category_id,
    action: 'file.purged',
    message: `Deleted "${file.name}" for good (retention: ${d.ruleSummary})`,
    details: {
      name: file.name,
      folder_id: file.category_id,
      incremental_value: file.incremental_value,
      disposition_id: d.id,
      rule_id: d.ruleId,
    },
  };
}

/**
 * Carries out approved dispositions `ds` (in answer order), each approval's audit event
 * (`approved`) just before what carrying it out records, as one after another would (and
 * `carryOut` does). All at once: the files to trash or purge are locked and checked in one go,
 * those to trash moved in one statement, the events written in one (the file events in
 * another) and the purged rows deleted together. When one may not be carried out, or two
 * concern one file, nothing of it has been written yet and they go one after another, so the
 * refusal is the one the first refused gives.
 */
async function carryOutAll(
  tx: Tx,
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  ds: repo.DispositionRow[],
  approved: (d: repo.DispositionRow) => AuditInput,
) {
  // What changes a file: a trash of a live file, a purge (of a live file or one in the trash).
  const acting = ds.filter((d) => d.action === 'purge' || (d.action === 'trash' && !d.file.deletedAt));
  const live = acting.filter((d) => !d.file.deletedAt).map((d) => d.fileId);
  const binned = acting.filter((d) => d.file.deletedAt).map((d) => d.fileId);
  const files =
    new Set(acting.map((d) => d.fileId)).size === acting.length
      ? await lockAndCheck(tx, auth, live, binned)
      : null;
  if (!files) {
    for (const d of ds) {
      await audit(tx, actor, approved(d));
      await carryOut(tx, deps, auth, actor, d);
    }
    return;
  }
  const byId = new Map(files.map((f) => [f.id, f]));
  const fileOf = (d: repo.DispositionRow) => byId.get(d.fileId) as PurgedFile;
  const trashing = acting.filter((d) => d.action === 'trash');
  const trashed = new Map(
    (await trashLocked(tx, auth, trashing.map(fileOf), deps.now())).map((c) => [c.fileId, c]),
  );
  await filesChangedAmong(
    tx,
    actor,
    ds.flatMap((d) => {
      const change =
        d.action === 'purge'
          ? purgeChange(fileOf(d), d)
          : d.action === 'trash'
            ? trashed.get(d.fileId)
            : undefined;
      return [{ audit: approved(d) }, ...(change ? [{ change }] : [])];
    }),
  );
  await purgeRows(
    tx,
    acting.filter((d) => d.action === 'purge').map((d) => d.fileId),
  );
}

/**
 * Locks live files `live` and trashed files `binned` and checks them as `carryOut` does, all
 * at once; null on a refusal (or one gone), for the caller to go one by one.
 */
async function lockAndCheck(tx: Tx, auth: AuthContext, live: number[], binned: number[]) {
  try {
    const liveFiles = live.length ? await holdForChange(tx, auth, live) : [];
    const binnedFiles = binned.length ? await lockForChange(tx, binned, { trashed: true }) : [];
    await assertNotHeld(tx, binnedFiles);
    return [...liveFiles, ...binnedFiles];
  } catch (error) {
    if (error instanceof AppError) return null;
    throw error;
  }
}

/**
 * Approves or postpones dispositions `ids`, all or nothing: one already approved (409), one
 * unknown (400) or one whose action a legal hold, a lock or a workflow step refuses
 * (the change path's answer, naming the file) leaves every one as it was.
 */
export async function decideDispositions(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  body: TDecideDispositionsInput,
) {
  const ids = [...new Set(body.ids)];
  return deps.db.$transaction(async (tx) => {
    await repo.lockDispositions(tx, ids);
    const rows = await repo.dispositionsByIds(tx, ids);
    if (rows.length !== ids.length) throw dispositionsNotFound();
    const decided = rows.find((r) => r.status === 'approved');
    if (decided) throw dispositionDecided(decided.file.name);
    const now = deps.now();
    const approve = body.decision === 'approve';
    const postponedUntil = approve ? null : new Date(now.getTime() + (body.postpone_days ?? 1) * DAY_MS);
    await repo.decide(tx, ids, {
      status: approve ? 'approved' : 'postponed',
      postponedUntil,
      decidedById: auth.userId,
      decidedAt: now,
    });
    const after = await repo.dispositionsByIds(tx, ids);
    const answer = after.map((r) => toDisposition(r, new Set()));
    const eventOf = (d: (typeof after)[number]) => ({
      type: 'retention' as const,
      action: approve
        ? ('retention.disposition_approved' as const)
        : ('retention.disposition_postponed' as const),
      message: approve
        ? `Approved the disposition of "${d.file.name}" (${d.action}) under the rule "${d.ruleSummary}"`
        : `Postponed the disposition of "${d.file.name}" to ${postponedUntil?.toISOString().slice(0, 10)} under the rule "${d.ruleSummary}"`,
      targetType: 'file',
      targetId: d.fileId,
      details: {
        disposition_id: d.id,
        rule_id: d.ruleId,
        rule_summary: d.ruleSummary,
        action: d.action,
        ...(postponedUntil ? { postponed_until: postponedUntil.toISOString() } : {}),
      },
    });
    // A postponement changes no file: its events go in one statement. An approval carries each
    // out, its event just before its change's.
    if (!approve) await auditAll(tx, actor, after.map(eventOf));
    else await carryOutAll(tx, deps, auth, actor, after, eventOf);
    return { items: answer };
  });
}

/**
 * A review is a task for its rule's group: each active member is told in the app (once per
 * file and rule), with a link to the file. File Control writers record the review.
 */
async function askReviewers(tx: Tx, due: repo.DueFile[], rules: Map<number, repo.RuleRow>) {
  const reviews = due.filter((d) => d.action === 'review' && d.review_group_id !== null);
  if (!reviews.length) return;
  const members = await repo.activeMembers(tx, [...new Set(reviews.map((d) => d.review_group_id as number))]);
  const names = await repo.fileNames(
    tx,
    reviews.map((d) => d.file_id),
  );
  await notify(
    tx,
    reviews.flatMap((d) =>
      (members.get(d.review_group_id as number) ?? []).map((userId) => ({
        userId,
        kind: 'retention.review',
        title: `Retention review due: "${names.get(d.file_id) ?? 'a file'}"`,
        body: rules.get(d.rule_id) ? ruleSummary(rules.get(d.rule_id) as repo.RuleRow) : '',
        fileId: d.file_id,
        link: `/files/${d.file_id}`,
        sourceKey: `retention-review:${d.file_id}:${d.rule_id}`,
      })),
    ),
  );
}

/** How many due files one scan lists at most per pass (it passes again until none is left). */
const SCAN_BATCH = 1000;

/**
 * The daily scan (or one asked for by a File Control writer, `actor`): postponed dispositions
 * whose date has come are pending again, and every file whose period is over gets a pending
 * disposition under its rule (once per rule; a scan run twice lists nothing twice). One audit
 * event per batch that found something.
 */
export async function scanDue(deps: Deps, actor: Actor = { userId: null }) {
  const now = deps.now();
  let listed = 0;
  const reopened = (await repo.reopenPostponed(deps.db, now)).count;
  for (;;) {
    const batch = await deps.db.$transaction(async (tx) => {
      const due = await repo.dueFiles(tx, now, SCAN_BATCH);
      if (!due.length) return 0;
      const rules = new Map(
        (await repo.rulesByIds(tx, [...new Set(due.map((d) => d.rule_id))])).map((r) => [r.id, r]),
      );
      const made = await repo.insertDispositions(
        tx,
        due.map((d) => {
          const rule = rules.get(d.rule_id);
          return {
            fileId: d.file_id,
            ruleId: d.rule_id,
            ruleSummary: rule ? ruleSummary(rule) : 'A rule since removed',
            action: d.action,
            reviewGroupId: d.review_group_id,
            dueAt: d.due_at,
          };
        }),
      );
      await askReviewers(tx, due, rules);
      if (made.count)
        await audit(tx, actor, {
          type: 'retention',
          action: 'retention.disposition_listed',
          message: `${made.count} file${made.count === 1 ? '' : 's'} due for disposition`,
          details: {
            file_ids: due.map((d) => d.file_id),
            rule_ids: [...rules.keys()],
          },
        });
      return due.length;
    });
    listed += batch;
    if (batch < SCAN_BATCH) break;
  }
  return { listed, reopened };
}
