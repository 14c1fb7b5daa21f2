import type {
  TWorkflow,
  TWorkflowSummary,
  TWorkflowValue,
  ZSaveWorkflowBody,
  ZWorkflowIndexQuery,
  ZWorkflowMetadataBody,
} from '@quire/contract';
import type { z } from 'zod';
import { type Actor, audit } from '../../lib/audit.js';
import type { Deps, Tx } from '../../lib/deps.js';
import { badField, nameRace } from '../../lib/errors.js';
import { pageMeta, pageWindow } from '../../lib/paging.js';
import type { AuthContext } from '../../lib/session.js';
import { readsEverything, scopeOf } from '../../lib/visibility.js';
import { escalationIds, type Names, toSummaryDto, toWorkflowDto } from './design.dto.js';
import * as repo from './design.repository.js';
import * as detailsRepo from './step-details.repository.js';
import { badFields, workflowInUse, workflowNameTaken, workflowNotFound } from './workflow.errors.js';
import { checkValues, type FieldMeta, toText } from './workflow.values.js';

// The workflow design (spec §3): workflows and their ordered steps (each step's assignees,
// notifications, PRE/POST conditions, triggers and metadata are step-details.service.ts).
// Every write is one transaction with its audit event. Edits apply to files that enter a step
// afterwards (a file in a step keeps the tasks and due time it got on entering); deleting what
// running files use is refused with the number of files.
// About 440 lines: workflows and steps share the activation checks and audit shapes; a step's
// details are step-details.service.ts.

export type Out<S extends z.ZodType> = z.output<S>;

export const AUDIT = { type: 'workflow', targetType: 'workflow' } as const;

export async function namesFor(db: Tx, steps: Parameters<typeof escalationIds>[0]): Promise<Names> {
  const ids = escalationIds(steps);
  const [users, groups] = await Promise.all([
    detailsRepo.userNames(db, ids.users),
    detailsRepo.groupNames(db, ids.groups),
  ]);
  return { users, groups };
}

// ---- workflows ------------------------------------------------------------------------------

export async function getWorkflow(deps: Deps, id: number, db: Tx = deps.db): Promise<TWorkflow> {
  const row = await repo.findWorkflow(db, id);
  if (!row) throw workflowNotFound();
  const [byWorkflow, byStep, names, choices] = await Promise.all([
    repo.runningByWorkflow(db, [id]),
    repo.runningByStep(
      db,
      row.steps.map((s) => s.id),
    ),
    namesFor(db, row.steps),
    detailsRepo.liveFields(db),
  ]);
  return toWorkflowDto(row, { byWorkflow, byStep }, names, choices);
}

/**
 * The active workflows, for anyone signed in: each names only the categories the caller may
 * view (a workflow serving others is listed, its other categories are not named).
 */
export async function listActiveWorkflows(deps: Deps, auth: AuthContext): Promise<TWorkflowSummary[]> {
  const rows = await repo.listActiveWorkflows(deps.db);
  const running = await repo.runningByWorkflow(
    deps.db,
    rows.map((r) => r.id),
  );
  const scope = scopeOf(auth);
  const viewable = readsEverything(scope) ? null : await repo.viewableCategoryIds(deps.db, scope);
  return rows.map((r) =>
    toSummaryDto(
      viewable ? { ...r, categories: r.categories.filter((c) => viewable.has(c.id)) } : r,
      running,
    ),
  );
}

export async function pageWorkflows(deps: Deps, q: Out<typeof ZWorkflowIndexQuery>) {
  const { rows, total } = await repo.pageWorkflows(deps.db, { ...q, ...pageWindow(q) });
  const running = await repo.runningByWorkflow(
    deps.db,
    rows.map((r) => r.id),
  );
  return { items: rows.map((r) => toSummaryDto(r, running)), ...pageMeta(q, total) };
}

/** A step nothing can move on from: no assignee and no trigger that moves files. */
async function stepsNobodyMoves(db: Tx, workflowId: number): Promise<string[]> {
  const row = await repo.findWorkflow(db, workflowId);
  return (row?.steps ?? [])
    .filter(
      (s) =>
        s.assignees.length === 0 &&
        !s.triggers.some((t) => t.active && (t.kind === 'on_field_change' || t.kind === 'on_date')),
    )
    .map((s) => s.name);
}

async function checkActivation(db: Tx, workflowId: number | null) {
  const steps = workflowId ? await repo.stepsOf(db, workflowId) : [];
  if (steps.length === 0)
    throw badField('body.status', 'Add at least one step before activating the workflow');
  const stuck = workflowId ? await stepsNobodyMoves(db, workflowId) : [];
  if (stuck.length)
    throw badField(
      'body.status',
      `Give ${stuck.map((n) => `"${n}"`).join(', ')} an assignee or a trigger before activating the workflow`,
    );
}

/**
 * Activating a workflow that serves categories makes it start on the files indexed (or
 * moved) into them: unless one of its steps already has an on-index trigger (on or off), the
 * first step gets one, audited as any trigger added. Without a category there is nothing to
 * start on, and the workflow starts only when someone starts it on a file.
 */
async function startOnIndexing(tx: Tx, actor: Actor, workflow: { id: number; name: string }) {
  const row = await repo.findWorkflow(tx, workflow.id);
  const first = row?.steps[0];
  if (!row || !first || row.categories.length === 0) return;
  if (row.steps.some((s) => s.triggers.some((t) => t.kind === 'on_index'))) return;
  const trigger = await detailsRepo.saveTrigger(tx, undefined, {
    stepId: first.id,
    kind: 'on_index',
    fieldId: null,
    value: null,
    cron: null,
    targetStepId: null,
    escalateUserId: null,
    escalateGroupId: null,
    active: true,
  });
  await audit(tx, actor, {
    ...AUDIT,
    action: 'workflow.trigger_created',
    message: `Added a trigger (on_index) on step "${first.name}" of workflow "${workflow.name}": activated, it starts on files indexed into ${row.categories.map((c) => `"${c.name}"`).join(', ')}`,
    targetId: workflow.id,
    details: { step_id: first.id, trigger_id: trigger.id, kind: 'on_index', by: 'activation' },
  });
}

export async function saveWorkflow(
  deps: Deps,
  actor: Actor,
  body: Out<typeof ZSaveWorkflowBody>,
): Promise<TWorkflow> {
  const id = await deps.db
    .$transaction(async (tx) => {
      const before = body.id ? await repo.findWorkflowHead(tx, body.id) : null;
      if (body.id && !before) throw workflowNotFound();
      if (await repo.workflowByName(tx, body.name, body.id)) throw workflowNameTaken(body.name);
      const categoryIds = [...new Set(body.category_ids ?? [])];
      if (body.category_ids) {
        const live = await repo.liveCategoryIds(tx, categoryIds);
        const unknown = categoryIds.filter((c) => !live.has(c));
        if (unknown.length) throw badField('body.category_ids', `Unknown categories: ${unknown.join(', ')}`);
      }
      if (body.status === 'active' && before?.status !== 'active')
        await checkActivation(tx, before?.id ?? null);

      const workflow = before
        ? await repo.updateWorkflow(tx, before.id, {
            name: body.name,
            description: body.description,
            status: body.status,
          })
        : await repo.createWorkflow(tx, {
            name: body.name,
            description: body.description ?? '',
            status: body.status ?? 'draft',
            createdById: actor.userId,
          });
      if (body.category_ids) await repo.setCategories(tx, workflow.id, categoryIds);
      const activating = body.status === 'active' && before !== null && before.status !== 'active';
      await audit(tx, actor, {
        ...AUDIT,
        action: before ? 'workflow.updated' : 'workflow.created',
        message: `${before ? 'Updated' : 'Created'} workflow "${workflow.name}"`,
        targetId: workflow.id,
        details: {
          name: workflow.name,
          description: workflow.description,
          status: workflow.status,
          ...(body.category_ids ? { category_ids: categoryIds } : {}),
          ...(before
            ? { before: { name: before.name, description: before.description, status: before.status } }
            : {}),
        },
      });
      if (activating) await startOnIndexing(tx, actor, workflow);
      return workflow.id;
    })
    .catch(nameRace(body.name, workflowNameTaken));
  return getWorkflow(deps, id);
}

export async function deleteWorkflow(deps: Deps, actor: Actor, id: number): Promise<void> {
  await deps.db.$transaction(async (tx) => {
    const workflow = await repo.findWorkflowHead(tx, id);
    if (!workflow) throw workflowNotFound();
    const running = (await repo.runningByWorkflow(tx, [id])).get(id) ?? 0;
    if (running > 0) throw workflowInUse(running);
    const ran = await repo.hasInstances(tx, id);
    if (ran) await repo.retireWorkflow(tx, id, deps.now());
    else await repo.removeWorkflow(tx, id);
    await audit(tx, actor, {
      ...AUDIT,
      action: 'workflow.deleted',
      message: `Deleted workflow "${workflow.name}"${ran ? ' (its finished runs keep their history)' : ''}`,
      targetId: id,
      details: { name: workflow.name, retired: ran },
    });
  });
}

export async function loadFields(db: Tx, ids: number[], path: string): Promise<Map<number, FieldMeta>> {
  const fields = await detailsRepo.fieldsById(db, ids);
  const unknown = ids.filter((id) => !fields.has(id));
  if (unknown.length) throw badField(path, `Unknown metadata fields: ${[...new Set(unknown)].join(', ')}`);
  return fields;
}

/** Checks defaults against their fields' types; answers them as stored text. */
export async function checkDefaults(
  db: Tx,
  fields: Map<number, FieldMeta>,
  defaults: Array<{ field_id: number; value: TWorkflowValue }>,
  path: string,
): Promise<Map<number, string | null>> {
  const userIds = defaults.flatMap((d) =>
    fields.get(d.field_id)?.type === 'user' && typeof d.value === 'number' ? [d.value] : [],
  );
  const users = await detailsRepo.activeUserIds(db, userIds);
  const { values, errors } = checkValues(fields, defaults, (u) => users.has(u), path);
  if (errors.length) throw badFields(errors);
  return new Map([...values].map(([k, v]) => [k, toText(v)]));
}

export async function saveWorkflowMetadata(
  deps: Deps,
  actor: Actor,
  body: Out<typeof ZWorkflowMetadataBody>,
): Promise<TWorkflow> {
  await deps.db.$transaction(async (tx) => {
    if (!(await repo.lockWorkflow(tx, body.id))) throw workflowNotFound();
    const workflow = await repo.findWorkflowHead(tx, body.id);
    if (!workflow) throw workflowNotFound();
    const fields = await loadFields(
      tx,
      body.fields.map((f) => f.field_id),
      'body.fields',
    );
    const defaults = await checkDefaults(
      tx,
      fields,
      body.fields.map((f) => ({ field_id: f.field_id, value: f.default_value ?? null })),
      'body.fields',
    );
    await repo.replaceWorkflowFields(
      tx,
      workflow.id,
      body.fields.map((f) => ({
        fieldId: f.field_id,
        required: f.required ?? false,
        defaultValue: defaults.get(f.field_id) ?? null,
      })),
    );
    await audit(tx, actor, {
      ...AUDIT,
      action: 'workflow.metadata_updated',
      message: `Set the metadata of workflow "${workflow.name}" (${body.fields.length} field(s))`,
      targetId: workflow.id,
      details: {
        fields: body.fields.map((f) => ({ ...f, default_value: defaults.get(f.field_id) ?? null })),
      },
    });
  });
  return getWorkflow(deps, body.id);
}

export async function recipients(deps: Deps) {
  const [users, groups] = await detailsRepo.recipients(deps.db);
  return {
    users: users.map((u) => ({
      id: u.id,
      name: `${u.firstName} ${u.lastName}`.trim() || u.username,
      username: u.username,
      email: u.email,
    })),
    groups: groups.map((g) => ({ id: g.id, name: g.name, member_count: g._count.members })),
  };
}
