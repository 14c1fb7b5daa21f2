import {
  type TCreateLegalHoldInput,
  type TLegalHold,
  type TRetentionRule,
  type TRetentionRuleInput,
  ZSavedViewQuery,
} from '@quire/contract';
import { type Actor, audit } from '../../lib/audit.js';
import type { Deps, Tx } from '../../lib/deps.js';
import { invalidInput } from '../../lib/errors.js';
import { type PageQuery, pageMeta } from '../../lib/paging.js';
import type { AuthContext } from '../../lib/session.js';
import { filterFiles } from '../dashboard-and-search/search.service.js';
import { toPerson } from '../file/file.service.js';
import {
  categoryNotFound,
  dateFieldInvalid,
  holdAlreadyReleased,
  holdNotFound,
  holdTargetNotFound,
  reviewGroupNotFound,
  ruleNotFound,
} from './retention.errors.js';
import * as repo from './retention.repository.js';

// Retention rules (per category, inherited down the tree unless overridden) and legal holds
// (on a file, a category with its sub-categories, or the files a saved search matches). The
// holds are enforced by the change path (legal-hold.guard.ts); this sets and releases them.
// Every write is one transaction with its audit event.

// ---------------------------------------------------------------------------------------------
// Rules

const UNIT_WORDS = { days: ['day', 'days'], months: ['month', 'months'], years: ['year', 'years'] } as const;

/** The rule in words: "Keep 7 years from upload, then purge". */
export function ruleSummary(r: repo.RuleRow): string {
  const [one, many] = UNIT_WORDS[r.unit];
  const from =
    r.startFrom === 'upload'
      ? 'from upload'
      : r.startFrom === 'field_date'
        ? `from its "${r.dateField?.name ?? 'date'}" date`
        : 'from the end of its workflow';
  const then =
    r.action === 'review'
      ? `review by ${r.reviewGroup ? `"${r.reviewGroup.name}"` : 'a group'}`
      : r.action === 'trash'
        ? 'move to the trash'
        : 'purge';
  return `Keep ${r.keepFor} ${r.keepFor === 1 ? one : many} ${from}, then ${then}`;
}

export function toRule(r: repo.RuleRow): TRetentionRule {
  return {
    id: r.id,
    category: r.category,
    keep_for: r.keepFor,
    unit: r.unit,
    start_from: r.startFrom,
    date_field: r.dateField,
    action: r.action,
    review_group: r.reviewGroup,
    summary: ruleSummary(r),
    updated_at: r.updatedAt.toISOString(),
  };
}

export async function listRules(deps: Deps) {
  return { items: (await repo.listRules(deps.db)).map(toRule) };
}

/** A category's own rule and the one that holds for it (nearest ancestor's when it has none). */
export async function categoryRetention(deps: Deps, categoryId: number) {
  const chain = await repo.ancestry(deps.db, categoryId);
  if (!chain.length) throw categoryNotFound();
  const own = await repo.findRule(deps.db, categoryId);
  const holder = chain.find((c) => c.rule_id !== null);
  const effective = holder
    ? holder.id === categoryId
      ? own
      : await repo.findRule(deps.db, holder.id)
    : null;
  return {
    own: own ? toRule(own) : null,
    effective: effective ? toRule(effective) : null,
    inherited_from: holder && holder.id !== categoryId ? { id: holder.id, name: holder.name } : null,
  };
}

async function checkRule(tx: Tx, body: TRetentionRuleInput) {
  if (body.date_field_id) {
    const field = await repo.metadataField(tx, body.date_field_id);
    if (field?.type !== 'date') throw dateFieldInvalid();
  }
  if (body.review_group_id && !(await repo.group(tx, body.review_group_id))) throw reviewGroupNotFound();
}

export async function setRule(deps: Deps, actor: Actor, categoryId: number, body: TRetentionRuleInput) {
  return deps.db.$transaction(async (tx) => {
    await repo.lockRuleCategory(tx, categoryId);
    const category = await repo.liveCategory(tx, categoryId);
    if (!category) throw categoryNotFound();
    await checkRule(tx, body);
    const before = await repo.findRule(tx, categoryId);
    const rule = await repo.upsertRule(tx, categoryId, {
      keepFor: body.keep_for,
      unit: body.unit,
      startFrom: body.start_from,
      dateFieldId: body.date_field_id ?? null,
      action: body.action,
      reviewGroupId: body.review_group_id ?? null,
      createdById: actor.userId,
    });
    const dto = toRule(rule);
    await audit(tx, actor, {
      type: 'retention',
      action: 'retention.rule_set',
      message: `Retention of "${category.name}": ${dto.summary}`,
      targetType: 'category',
      targetId: categoryId,
      details: { rule_id: rule.id, before: before ? ruleSummary(before) : null, after: dto.summary },
    });
    return dto;
  });
}

export async function deleteRule(deps: Deps, actor: Actor, categoryId: number) {
  return deps.db.$transaction(async (tx) => {
    await repo.lockRuleCategory(tx, categoryId);
    const rule = await repo.findRule(tx, categoryId);
    if (!rule) throw ruleNotFound();
    await repo.deleteRule(tx, rule.id);
    await audit(tx, actor, {
      type: 'retention',
      action: 'retention.rule_deleted',
      message: `Removed the retention rule of "${rule.category.name}" (${ruleSummary(rule)})`,
      targetType: 'category',
      targetId: categoryId,
      details: { rule_id: rule.id, rule: ruleSummary(rule) },
    });
    return { id: rule.id };
  });
}

// ---------------------------------------------------------------------------------------------
// Legal holds

/** The most files a saved-search hold may freeze (hold their category instead). */
const HOLD_SEARCH_MAX = 10_000;

function toHold(h: repo.HoldRow, fileCount: number): TLegalHold {
  return {
    id: h.id,
    target: h.target,
    target_id: h.target === 'file' ? h.fileId : h.target === 'category' ? h.categoryId : h.savedViewId,
    target_name: h.targetName,
    file_count: fileCount,
    reason: h.reason,
    set_by: toPerson(h.setBy),
    set_at: h.setAt.toISOString(),
    released_at: h.releasedAt?.toISOString() ?? null,
    released_by: h.releasedBy ? toPerson(h.releasedBy) : null,
    release_reason: h.releaseReason,
  };
}

async function holdDto(tx: Tx, id: number) {
  const row = await repo.findHold(tx, id);
  if (!row) throw holdNotFound();
  return toHold(row, (await repo.holdFileCounts(tx, [id])).get(id) ?? 0);
}

export async function listHolds(deps: Deps, q: PageQuery & { status: 'active' | 'released' | 'all' }) {
  const { rows, total } = await repo.holdsPage(deps.db, q.status, q);
  const counts = await repo.holdFileCounts(
    deps.db,
    rows.map((r) => r.id),
  );
  return { ...pageMeta(q, total), items: rows.map((r) => toHold(r, counts.get(r.id) ?? 0)) };
}

/** The files a saved search of the caller's matches now (as the caller sees them). */
async function savedSearchFiles(deps: Deps, auth: AuthContext, viewId: number) {
  const view = await repo.savedView(deps.db, viewId);
  if (!view || view.userId !== auth.userId) throw holdTargetNotFound('saved_view');
  const query = ZSavedViewQuery.parse(view.query);
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const found = await filterFiles(deps, auth, query, { page, quantity: 500 });
    ids.push(...found.items.map((f) => f.id));
    if (ids.length > HOLD_SEARCH_MAX)
      throw invalidInput(
        `This saved search matches more than ${HOLD_SEARCH_MAX} files; narrow it, or hold their category`,
        [{ path: 'body.target_id', message: `Matches more than ${HOLD_SEARCH_MAX} files` }],
      );
    if (found.items.length < 500) break;
  }
  return { name: view.name, ids: [...new Set(ids)] };
}

/**
 * Sets a hold, with the rows of the files it covers locked first: a change in flight finishes
 * before, and every change after sees the hold (legal-hold.guard.ts).
 */
export async function createHold(deps: Deps, auth: AuthContext, actor: Actor, body: TCreateLegalHoldInput) {
  const search = body.target === 'saved_view' ? await savedSearchFiles(deps, auth, body.target_id) : null;
  return deps.db.$transaction(async (tx) => {
    let name: string;
    let fileIds: number[];
    if (body.target === 'file') {
      const file = await repo.findFile(tx, body.target_id);
      if (!file) throw holdTargetNotFound('file');
      name = file.name;
      fileIds = await repo.lockFilesById(tx, [file.id]);
    } else if (body.target === 'category') {
      const category = await repo.liveCategory(tx, body.target_id);
      if (!category) throw holdTargetNotFound('category');
      name = category.name;
      fileIds = await repo.lockFilesUnder(tx, category.id);
    } else {
      name = search?.name ?? '';
      fileIds = await repo.lockFilesById(tx, search?.ids ?? []);
    }
    const hold = await repo.createHold(tx, {
      target: body.target,
      fileId: body.target === 'file' ? body.target_id : null,
      categoryId: body.target === 'category' ? body.target_id : null,
      savedViewId: body.target === 'saved_view' ? body.target_id : null,
      targetName: name,
      reason: body.reason,
      setById: auth.userId,
      setAt: deps.now(),
    });
    if (body.target === 'saved_view') await repo.addHoldFiles(tx, hold.id, fileIds);
    const what = body.target === 'file' ? 'file' : body.target === 'category' ? 'category' : 'saved search';
    await audit(tx, actor, {
      type: 'retention',
      action: 'retention.hold_set',
      message: `Put the ${what} "${name}" on legal hold (${fileIds.length} file${fileIds.length === 1 ? '' : 's'}): ${body.reason}`,
      targetType: body.target,
      targetId: body.target_id,
      details: {
        hold_id: hold.id,
        reason: body.reason,
        file_ids: fileIds.slice(0, 1000),
        file_count: fileIds.length,
      },
    });
    return holdDto(tx, hold.id);
  });
}

export async function releaseHold(deps: Deps, auth: AuthContext, actor: Actor, id: number, reason: string) {
  return deps.db.$transaction(async (tx) => {
    await repo.lockHold(tx, id);
    const hold = await repo.findHold(tx, id);
    if (!hold) throw holdNotFound();
    if (hold.releasedAt) throw holdAlreadyReleased();
    await repo.releaseHold(tx, id, {
      releasedAt: deps.now(),
      releasedById: auth.userId,
      releaseReason: reason,
    });
    await audit(tx, actor, {
      type: 'retention',
      action: 'retention.hold_released',
      message: `Released the legal hold on "${hold.targetName}": ${reason}`,
      targetType: hold.target,
      targetId: (hold.fileId ?? hold.categoryId ?? hold.savedViewId ?? undefined) as number | undefined,
      details: {
        hold_id: id,
        reason,
        set_reason: hold.reason,
        set_by_id: hold.setById,
        set_at: hold.setAt.toISOString(),
      },
    });
    return holdDto(tx, id);
  });
}
