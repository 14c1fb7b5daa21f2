import type {
  TAssignedFile,
  TDryRun,
  TFileWorkflowStage,
  TTransition,
  TWorkflowValue,
  ZDryRunBody,
} from '@quire/contract';
import type { Deps, Tx } from '../../lib/deps.js';
import { objectNotFound } from '../../lib/object-guards.js';
import { type PageQuery, pageMeta, pageWindow } from '../../lib/paging.js';
import type { AuthContext } from '../../lib/session.js';
import { scopeOf } from '../../lib/visibility.js';
import { personName, stepFieldOf } from './design.dto.js';
import { toFieldMeta } from './design.repository.js';
import { isAuditor, type Out, reachableFile, userIdsIn } from './run.access.js';
import { checkStep, entryStep } from './run.engine.js';
import * as repo from './run.repository.js';
import * as valuesRepo from './run-values.repository.js';
import { workflowNotFound } from './workflow.errors.js';
import { display, type FieldMeta, fromColumns, fromText } from './workflow.values.js';

// Runs as people see them (spec §4): a file's workflow and history, a person's work, and the
// dry run of a step. Starting and deciding are run.service.ts.

// ---- reading --------------------------------------------------------------------------------

async function shownValues(
  db: Tx,
  fields: Map<number, FieldMeta>,
  values: Array<{ field_id: number; value: TWorkflowValue }>,
) {
  const names = new Map(
    (await repo.userBrief(db, userIdsIn(fields, values))).map((u) => [u.id, personName(u)] as const),
  );
  return values.flatMap((v) => {
    const field = fields.get(v.field_id);
    if (!field) return [];
    return [
      {
        field_id: field.id,
        name: field.name,
        type: field.type,
        value: v.value,
        display: display(field, v.value, (id) => names.get(id)),
      },
    ];
  });
}

const transitionValues = (json: unknown): Array<{ field_id: number; value: TWorkflowValue }> =>
  Array.isArray(json) ? (json as Array<{ field_id: number; value: TWorkflowValue }>) : [];

/**
 * The workflow of a file the caller may view. `justActed`: the answer to a decision the caller
 * was allowed to make, shown even when that decision closed the task that let them see it.
 */
export async function stage(
  deps: Deps,
  auth: AuthContext,
  fileId: number,
  justActed?: { id: number; name: string },
): Promise<TFileWorkflowStage> {
  const db = deps.db;
  const file = justActed ?? (await reachableFile(deps, auth, fileId));
  const [run, transitions] = await Promise.all([
    repo.latestRunOfFile(db, fileId),
    repo.transitionsOfFile(db, fileId),
  ]);

  const runValueRows = run ? await valuesRepo.runValueRows(db, run.id) : new Map();
  const formRows = run?.currentStepId ? await valuesRepo.stepFieldsOf(db, run.currentStepId) : [];
  const fieldIds = new Set<number>([
    ...runValueRows.keys(),
    ...formRows.map((f) => f.fieldId),
    ...transitions.flatMap((t) => transitionValues(t.values).map((v) => v.field_id)),
  ]);
  const fields = await valuesRepo.fieldMetas(db, [...fieldIds]);

  const history: TTransition[] = [];
  for (const t of transitions)
    history.push({
      id: Number(t.id),
      instance_id: t.instanceId,
      workflow: t.instance.workflow,
      kind: t.kind,
      from_step: t.fromStep,
      to_step: t.toStep,
      acted_by: t.actedBy ? { id: t.actedBy.id, name: personName(t.actedBy) } : null,
      comment: t.comment,
      values: await shownValues(db, fields, transitionValues(t.values)),
      created_at: t.createdAt.toISOString(),
    });
  if (!run) return { file_id: file.id, file_name: file.name, run: null, history };

  const [steps, workflow, startedBy] = await Promise.all([
    repo.stepsForRun(db, run.workflowId),
    repo.workflowRef(db, run.workflowId),
    run.startedById ? repo.userBrief(db, [run.startedById]) : Promise.resolve([]),
  ]);
  const current = steps.find((s) => s.id === run.currentStepId) ?? null;
  const tasks = current ? await repo.tasksOfVisit(db, run.id, current.id, run.stepEnteredAt) : [];
  const runValues = new Map(
    [...runValueRows].map(([id, row]) => [id, fromColumns(fields.get(id) as FieldMeta, row)]),
  );
  const scope = scopeOf(auth);
  const now = deps.now();
  return {
    file_id: file.id,
    file_name: file.name,
    run: {
      instance_id: run.id,
      workflow: workflow ?? { id: run.workflowId, name: '' },
      status: run.status,
      revision: run.revision,
      current_step: current
        ? {
            id: current.id,
            name: current.name,
            position: current.position,
            completion: current.completion,
            quorum: current.quorum,
          }
        : null,
      steps: steps.map((s) => ({ id: s.id, name: s.name, position: s.position })),
      assignees: tasks.map((t) => ({ user_id: t.userId, name: personName(t.user), status: t.status })),
      due_at: run.dueAt?.toISOString() ?? null,
      overdue: run.status === 'running' && run.dueAt !== null && run.dueAt <= now,
      started_at: run.startedAt.toISOString(),
      started_by: startedBy[0] ? { id: startedBy[0].id, name: personName(startedBy[0]) } : null,
      finished_at: run.finishedAt?.toISOString() ?? null,
      values: await shownValues(
        db,
        fields,
        [...runValues].map(([field_id, value]) => ({ field_id, value })),
      ),
      form: formRows.map((f) => {
        const meta = fields.get(f.fieldId) as FieldMeta;
        const stored = runValues.get(f.fieldId) ?? null;
        const field = stepFieldOf(meta, f);
        return { ...field, value: stored ?? field.default_value };
      }),
      can_act:
        run.status === 'running' &&
        !isAuditor(auth) &&
        tasks.some((t) => t.userId === auth.userId && t.status === 'open'),
      can_move: run.status === 'running' && scope.kind === 'all' && scope.write,
    },
    history,
  };
}

export async function assigned(deps: Deps, auth: AuthContext, q: PageQuery) {
  const { rows, total } = await repo.assignedPage(
    deps.db,
    auth.userId,
    pageWindow(q).skip,
    pageWindow(q).take,
  );
  const now = deps.now();
  const items: TAssignedFile[] = rows.map((t) => ({
    task_id: t.id,
    file_id: t.instance.file.id,
    file_name: t.instance.file.name,
    category: t.instance.file.category,
    instance_id: t.instance.id,
    workflow: t.instance.workflow,
    step: t.step,
    assigned_at: t.createdAt.toISOString(),
    due_at: t.dueAt?.toISOString() ?? null,
    overdue: t.dueAt !== null && t.dueAt <= now,
    started_by: t.instance.startedBy ? personName(t.instance.startedBy) : null,
  }));
  return { items, ...pageMeta(q, total) };
}

export async function foldersWithWorkflows(deps: Deps, auth: AuthContext) {
  const rows = await repo.categoriesWithWorkflows(deps.db, scopeOf(auth));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    parent_id: r.parent_id,
    workflow:
      r.workflow_id && r.workflow_name && r.workflow_status
        ? { id: r.workflow_id, name: r.workflow_name, status: r.workflow_status }
        : null,
  }));
}

// ---- the dry run ----------------------------------------------------------------------------

export async function dryRun(deps: Deps, body: Out<typeof ZDryRunBody>): Promise<TDryRun> {
  const db = deps.db;
  const workflow = await repo.liveWorkflow(db, body.workflow_id);
  if (!workflow) throw workflowNotFound();
  const file = await repo.fileHead(db, body.file_id);
  if (!file) throw objectNotFound('file');
  const steps = await repo.stepsForRun(db, workflow.id);
  const entry = entryStep(steps, (await repo.indexTriggerStep(db, workflow.id))?.stepId);
  // The run's values it would start with: the workflow metadata's defaults.
  const declared = await valuesRepo.workflowFieldsOf(db, workflow.id);
  const defaults = new Map(
    declared.flatMap((f) => {
      const v = fromText(toFieldMeta(f.field), f.defaultValue);
      return v === null ? [] : [[f.fieldId, v] as const];
    }),
  );
  const results = [];
  for (const step of steps) {
    const [pre, post] = await Promise.all([
      checkStep(db, step, 'PRE', file.id, null, defaults),
      checkStep(db, step, 'POST', file.id, null, defaults),
    ]);
    const shown = (set: typeof pre) => ({
      holds: set.holds,
      conditions: set.results.map((r) => ({
        id: r.condition.id,
        field_name: r.condition.field.name,
        on_workflow_field: r.condition.onWorkflowField,
        operator: r.condition.operator,
        expected: r.expected,
        actual: r.actualText,
        join: r.condition.join,
        holds: r.holds,
      })),
    });
    results.push({
      id: step.id,
      name: step.name,
      position: step.position,
      pre: shown(pre),
      post: shown(post),
    });
  }
  const entryResult = results.find((r) => r.id === entry?.id);
  const running = await repo.runningOfFile(db, file.id);
  let reason: string;
  if (!entry) reason = 'The workflow has no steps yet.';
  else if (running)
    reason =
      running.workflowId === workflow.id
        ? `"${file.name}" is already running this workflow.`
        : `"${file.name}" is already running another workflow; a file runs one at a time.`;
  else if (!entryResult?.pre.holds)
    reason = `"${file.name}" would not enter "${entry.name}": its PRE conditions fail.`;
  else
    reason = `"${file.name}" would enter "${entry.name}"${workflow.status === 'draft' ? ' once the workflow is activated' : ''}.`;
  return {
    file_id: file.id,
    workflow_id: workflow.id,
    entry_step: entry ? { id: entry.id, name: entry.name } : null,
    would_start: !!entry && !running && !!entryResult?.pre.holds && workflow.status === 'active',
    reason,
    steps: results,
  };
}

// ---- the step decides who edits -------------------------------------------------------------

export async function dryRunFiles(
  deps: Deps,
  auth: AuthContext,
  q: { workflow_id: number; search?: string | undefined },
) {
  const workflow = await repo.liveWorkflow(deps.db, q.workflow_id);
  if (!workflow) throw workflowNotFound();
  const categories = await repo.categoriesServedBy(deps.db, workflow.id);
  const rows = await repo.visibleFiles(deps.db, scopeOf(auth), categories, q.search, 50);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    category:
      r.category_id !== null && r.category_name !== null
        ? { id: r.category_id, name: r.category_name }
        : null,
  }));
}
