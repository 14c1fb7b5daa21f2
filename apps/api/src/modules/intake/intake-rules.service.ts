import {
  DRY_RUN_ARRIVALS,
  MAX_INTAKE_RULES,
  type TDryRunRow,
  type TFieldValueInput,
  type TIntakeRule,
  type TIntakeRuleInput,
} from '@quire/contract';
import type { Prisma } from '@quire/db';
import { type Actor, audit } from '../../lib/audit.js';
import type { Deps, Tx } from '../../lib/deps.js';
import { badField } from '../../lib/errors.js';
import { ruleNotFound, tooManyRules } from './intake.errors.js';
import * as repo from './intake.repository.js';
import { toArrival } from './intake-arrivals.service.js';
import { conditionsInWords, firstMatch } from './rule-match.js';

// Intake rules: listed in the order they are tried, added (last), changed, removed, put in a
// new order, and tried without effect on the last arrivals (the dry run).

function valuesOf(row: { values: Prisma.JsonValue }): TFieldValueInput[] {
  return (Array.isArray(row.values) ? row.values : []) as TFieldValueInput[];
}

function actionsInWords(row: repo.RuleRow) {
  const parts: string[] = [];
  if (row.category) parts.push(`file into "${row.category.name}"`);
  const values = valuesOf(row).length;
  if (values) parts.push(`set ${values} value${values === 1 ? '' : 's'}`);
  if (row.tagIds.length) parts.push(`tag ${row.tagIds.length}`);
  if (row.unindexedUser) parts.push(`leave unindexed for ${row.unindexedUser.username}`);
  if (row.unindexedGroup) parts.push(`leave unindexed for group "${row.unindexedGroup.name}"`);
  if (row.workflow) parts.push(`start "${row.workflow.name}"`);
  return parts.length ? parts.join(', ') : "index into the source's category";
}

export function toRule(row: repo.RuleRow, sourceNames: Map<number, string>): TIntakeRule {
  const conditions = conditionsInWords(row, (id) => sourceNames.get(id) ?? `source ${id}`);
  return {
    id: row.id,
    name: row.name,
    position: row.position,
    enabled: row.enabled,
    source_ids: row.sourceIds,
    sender_contains: row.senderContains ?? '',
    name_glob: row.nameGlob ?? '',
    text_words: row.textWords,
    category: row.category,
    values: valuesOf(row),
    tag_ids: row.tagIds,
    workflow: row.workflow,
    unindexed_user: row.unindexedUser,
    unindexed_group: row.unindexedGroup,
    summary: `When ${conditions}: ${actionsInWords(row)}`,
    updated_at: row.updatedAt.toISOString(),
  };
}

async function sourceNames(tx: Tx) {
  return new Map((await repo.listSources(tx)).map((s) => [s.id, s.name]));
}

export async function listRules(deps: Deps): Promise<TIntakeRule[]> {
  const [rows, names] = await Promise.all([repo.listRules(deps.db), sourceNames(deps.db)]);
  return rows.map((r) => toRule(r, names));
}

/**
 * What zod cannot check: the sources, category, workflow, fields, tags, the person (active) and
 * group it leaves files for exist; 400 naming it.
 */
async function checkRefs(tx: Tx, body: TIntakeRuleInput) {
  const found = await repo.existing(tx, {
    sources: body.source_ids,
    categories: body.category_id ? [body.category_id] : [],
    workflows: body.workflow_id ? [body.workflow_id] : [],
    fields: body.values.map((v) => v.field_id),
  });
  const missingSource = body.source_ids.findIndex((id) => !found.sources.has(id));
  if (missingSource >= 0) throw badField(`body.source_ids.${missingSource}`, 'No such intake source');
  if (body.category_id && !found.categories.has(body.category_id))
    throw badField('body.category_id', 'Choose a category that exists');
  if (body.workflow_id && !found.workflows.has(body.workflow_id))
    throw badField('body.workflow_id', 'Choose a workflow that exists');
  if (body.unindexed_user_id !== null && !(await repo.activeUser(tx, body.unindexed_user_id)))
    throw badField('body.unindexed_user_id', 'Choose an active user');
  if (body.unindexed_group_id !== null && !(await repo.findGroup(tx, body.unindexed_group_id)))
    throw badField('body.unindexed_group_id', 'Choose a group that exists');
  const leaves = body.unindexed_user_id !== null || body.unindexed_group_id !== null;
  if (leaves && (body.values.length || body.tag_ids.length))
    throw badField(
      body.values.length ? 'body.values' : 'body.tag_ids',
      'Values and tags are set when a file is indexed: a rule that leaves it unindexed sets none',
    );
  const missingField = body.values.findIndex((v) => !found.fields.has(v.field_id));
  if (missingField >= 0) throw badField(`body.values.${missingField}.field_id`, 'No such metadata field');
  if ((body.values.length || body.tag_ids.length) && !body.category_id)
    throw badField(
      body.values.length ? 'body.values' : 'body.tag_ids',
      'Values and tags belong to a category: choose the category the rule files into',
    );
  if (body.category_id && body.tag_ids.length) {
    const tags = await repo.tagsOf(tx, body.category_id, body.tag_ids);
    const bad = body.tag_ids.findIndex((id) => !tags.has(id));
    if (bad >= 0) throw badField(`body.tag_ids.${bad}`, 'That tag is not one of the category’s');
  }
  const fields = new Set<number>();
  body.values.forEach((v, i) => {
    if (fields.has(v.field_id)) throw badField(`body.values.${i}.field_id`, 'This field is set twice');
    fields.add(v.field_id);
  });
}

function dataOf(body: TIntakeRuleInput) {
  return {
    name: body.name,
    enabled: body.enabled,
    sourceIds: [...new Set(body.source_ids)],
    senderContains: body.sender_contains || null,
    nameGlob: body.name_glob || null,
    textWords: body.text_words,
    categoryId: body.category_id,
    values: body.values as Prisma.InputJsonArray,
    tagIds: [...new Set(body.tag_ids)],
    workflowId: body.workflow_id,
    unindexedUserId: body.unindexed_user_id,
    unindexedGroupId: body.unindexed_group_id,
  };
}

/** A rule's audit event, in the transaction of its change. */
function auditRule(
  tx: Tx,
  actor: Actor,
  action: 'intake.rule_created' | 'intake.rule_changed' | 'intake.rule_deleted',
  row: { id: number },
  event: { message: string; details?: Prisma.InputJsonObject },
) {
  return audit(tx, actor, { type: 'intake', action, targetType: 'intake_rule', targetId: row.id, ...event });
}

export async function createRule(deps: Deps, actor: Actor, body: TIntakeRuleInput): Promise<TIntakeRule> {
  return deps.db.$transaction(async (tx) => {
    await checkRefs(tx, body);
    if ((await repo.countRules(tx)) >= MAX_INTAKE_RULES) throw tooManyRules(MAX_INTAKE_RULES);
    const row = await repo.createRule(tx, {
      ...dataOf(body),
      position: await repo.nextRulePosition(tx),
      createdById: actor.userId,
    });
    const rule = toRule(row, await sourceNames(tx));
    await auditRule(tx, actor, 'intake.rule_created', row, {
      message: `Added intake rule "${row.name}": ${rule.summary}`,
      details: { ...body, values: body.values } as Prisma.InputJsonObject,
    });
    return rule;
  });
}

export async function updateRule(
  deps: Deps,
  actor: Actor,
  id: number,
  body: TIntakeRuleInput,
): Promise<TIntakeRule> {
  return deps.db.$transaction(async (tx) => {
    await repo.lockRule(tx, id);
    const before = await repo.findRule(tx, id);
    if (!before) throw ruleNotFound();
    await checkRefs(tx, body);
    const row = await repo.updateRule(tx, id, dataOf(body));
    const names = await sourceNames(tx);
    const rule = toRule(row, names);
    await auditRule(tx, actor, 'intake.rule_changed', row, {
      message: `Changed intake rule "${row.name}": ${rule.summary}`,
      details: { before: toRule(before, names).summary, after: rule.summary },
    });
    return rule;
  });
}

export async function deleteRule(deps: Deps, actor: Actor, id: number) {
  await deps.db.$transaction(async (tx) => {
    await repo.lockRule(tx, id);
    const row = await repo.findRule(tx, id);
    if (!row) throw ruleNotFound();
    await repo.deleteRule(tx, id);
    await auditRule(tx, actor, 'intake.rule_deleted', row, { message: `Removed intake rule "${row.name}"` });
  });
  return { id };
}

/** The new order must name every rule once. */
export async function reorderRules(deps: Deps, actor: Actor, ids: number[]): Promise<TIntakeRule[]> {
  return deps.db.$transaction(async (tx) => {
    const current = (await repo.lockRules(tx)).map((r) => r.id);
    const given = new Set(ids);
    if (given.size !== ids.length) throw badField('body.ids', 'A rule is named twice');
    const unknown = ids.findIndex((id) => !current.includes(id));
    if (unknown >= 0) throw badField(`body.ids.${unknown}`, 'No such intake rule');
    if (ids.length !== current.length) throw badField('body.ids', 'Give every rule, in its new order');
    for (const [i, id] of ids.entries()) await repo.setRulePosition(tx, id, i + 1);
    await audit(tx, actor, {
      type: 'intake',
      action: 'intake.rules_reordered',
      message: 'Put the intake rules in a new order',
      details: { before: current, after: ids },
    });
    const names = await sourceNames(tx);
    return (await repo.listRules(tx)).map((r) => toRule(r, names));
  });
}

/**
 * What the rules as they stand (enabled ones, or rule `ruleId` alone) would do to the last
 * arrivals that were taken: the rule that would file each, and its actions. Changes nothing.
 */
export async function dryRun(deps: Deps, ruleId?: number): Promise<TDryRunRow[]> {
  const rules = ruleId
    ? await repo.listRules(deps.db, { id: ruleId })
    : await repo.listRules(deps.db, { enabled: true });
  if (ruleId && !rules.length) throw ruleNotFound();
  const arrivals = await repo.recentArrivals(deps.db, DRY_RUN_ARRIVALS);
  const out: TDryRunRow[] = [];
  for (const a of arrivals) {
    const facts = {
      sourceId: a.sourceId,
      fileName: a.fileName,
      sender: a.sender,
      text: null as string | null,
    };
    let match = firstMatch(rules, facts);
    let textUnknown = false;
    if (match === 'needs_text') {
      const text = a.fileId ? await repo.fileText(deps.db, a.fileId) : null;
      textUnknown = text?.status !== 'done';
      match = firstMatch(rules, { ...facts, text: text?.status === 'done' ? (text.text ?? '') : '' });
    }
    const rule = match === 'needs_text' ? null : match;
    out.push({
      arrival: toArrival(a),
      rule: rule ? { id: rule.id, name: rule.name } : null,
      category: rule?.category ?? null,
      values: rule ? valuesOf(rule).length : 0,
      tags: rule ? rule.tagIds.length : 0,
      workflow: rule?.workflow ?? null,
      unindexed_user: rule?.unindexedUser ?? null,
      unindexed_group: rule?.unindexedGroup ?? null,
      text_unknown: textUnknown,
    });
  }
  return out;
}
