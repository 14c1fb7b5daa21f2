import type {
  TFileWorkflowStage,
  TSaveConditionBody,
  TSaveStepBody,
  TSaveTriggerBody,
} from '@quire/contract';
import type { InjectOptions } from 'fastify';
import type { TestContext } from './app.js';
import { bearer } from './factories.js';

// Workflows for tests (and seed data), designed through the API as an admin would.

export interface StepSpec extends Partial<Omit<TSaveStepBody, 'workflow_id' | 'name'>> {
  name: string;
  users?: number[];
  groups?: number[];
  conditions?: Array<Omit<TSaveConditionBody, 'workflow_step_id'>>;
  triggers?: Array<Omit<TSaveTriggerBody, 'workflow_step_id'>>;
  fields?: Array<{ field_id: number; editable?: boolean; required?: boolean }>;
  notifications?: Array<{
    event: 'entered' | 'completed' | 'rejected' | 'overdue';
    recipient: 'assignees' | 'initiator' | 'owner' | 'followers' | 'user' | 'group';
    user_id?: number;
    group_id?: number;
    in_app?: boolean;
    email?: boolean;
    subject?: string;
  }>;
}

export interface WorkflowSpec {
  name?: string;
  active?: boolean;
  categoryIds?: number[];
  fields?: Array<{ field_id: number; required?: boolean; default_value?: string | number | boolean | null }>;
  steps: StepSpec[];
}

let seq = 0;

/** Calls the API as `token`; throws with the answer unless it is a 200. */
export async function api<T = unknown>(t: TestContext, token: string, opts: InjectOptions): Promise<T> {
  const res = await t.app.inject({ ...opts, headers: { ...(opts.headers ?? {}), ...bearer(token) } });
  if (res.statusCode !== 200) throw new Error(`${opts.method} ${opts.url}: ${res.statusCode} ${res.body}`);
  return res.json().data as T;
}

/** Starts workflow `workflowId` on the files as `token` (POST /api/initiate-workflow); throws unless a 200. */
export const startWorkflow = (t: TestContext, token: string, workflowId: number, fileIds: number[]) =>
  api(t, token, {
    method: 'POST',
    url: '/api/initiate-workflow',
    payload: { workflow_id: workflowId, file_ids: fileIds },
  });

/** A workflow with its steps and their details; active unless `active` is false. */
export async function designWorkflow(
  t: TestContext,
  token: string,
  spec: WorkflowSpec,
): Promise<{ id: number; steps: number[]; name: string }> {
  seq += 1;
  const post = <T>(url: string, payload: object) => api<T>(t, token, { method: 'POST', url, payload });
  const name = spec.name ?? `Workflow ${seq} ${Date.now().toString(36)}`;
  const workflow = await post<{ id: number }>('/api/create_and_update_workflow', {
    name,
    category_ids: spec.categoryIds ?? [],
  });
  if (spec.fields)
    await post('/api/workflow/create_update_metadata', { id: workflow.id, fields: spec.fields });
  const steps: number[] = [];
  for (const s of spec.steps) {
    const { users, groups, conditions, triggers, fields, notifications, ...step } = s;
    const created = await post<{ id: number }>('/api/create_update_workflow_step', {
      workflow_id: workflow.id,
      ...step,
    });
    steps.push(created.id);
    if (users?.length || groups?.length)
      await post('/api/update_assignee', {
        workflow_step_id: created.id,
        user_ids: users ?? [],
        group_ids: groups ?? [],
      });
    if (fields) await post('/api/workflow/step/edit_metadata', { workflow_step_id: created.id, fields });
    for (const c of conditions ?? [])
      await post('/api/update_condition', { workflow_step_id: created.id, ...c });
    // Given notifications replace the one a new step starts with (entered, to its assignees).
    if (notifications) {
      const told = await api<Array<{ id: number }>>(t, token, {
        method: 'GET',
        url: `/api/get_notification/${created.id}`,
      });
      for (const n of told) await api(t, token, { method: 'DELETE', url: `/api/del_notification/${n.id}` });
    }
    for (const n of notifications ?? [])
      await post('/api/update_notification', { workflow_step_id: created.id, ...n });
  }
  // Triggers last: they may name a later step.
  for (const [i, s] of spec.steps.entries())
    for (const trigger of s.triggers ?? [])
      await post('/api/update_trigger', { workflow_step_id: steps[i], ...trigger });
  if (spec.active !== false)
    await post('/api/create_and_update_workflow', { id: workflow.id, name, status: 'active' });
  return { id: workflow.id, steps, name };
}

/** A file's workflow, as the caller sees it. */
export const stageOf = (t: TestContext, token: string, fileId: number) =>
  api<TFileWorkflowStage>(t, token, { method: 'GET', url: `/api/folder-workflow-stage/${fileId}` });

/** Row counts of everything the workflow calls write, to show a refused call wrote nothing. */
export async function workflowCounts(t: TestContext) {
  const db = t.db;
  return {
    workflows: await db.workflow.count(),
    live: await db.workflow.count({ where: { deletedAt: null } }),
    fields: await db.workflowField.count(),
    steps: await db.workflowStep.count(),
    assignees: await db.stepAssignee.count(),
    notifications: await db.stepNotification.count(),
    conditions: await db.stepCondition.count(),
    triggers: await db.stepTrigger.count(),
    stepFields: await db.stepField.count(),
    instances: await db.workflowInstance.count(),
    running: await db.workflowInstance.count({ where: { status: 'running' } }),
    transitions: await db.workflowTransition.count(),
    tasks: await db.workflowTask.count(),
    openTasks: await db.workflowTask.count({ where: { status: 'open' } }),
    values: await db.workflowInstanceValue.count(),
    categoriesServed: await db.category.count({ where: { workflowId: { not: null } } }),
    audits: await db.auditEvent.count({ where: { type: 'workflow' } }),
    revisions: (await db.workflowInstance.aggregate({ _sum: { revision: true } }))._sum.revision ?? 0,
    defaults: (await db.stepField.findMany({ select: { defaultValue: true } }))
      .map((f) => f.defaultValue)
      .join('|'),
    stepShape: (
      await db.workflowStep.findMany({
        select: { id: true, name: true, position: true },
        orderBy: { id: 'asc' },
      })
    )
      .map((s) => `${s.id}:${s.name}:${s.position}`)
      .join(','),
  };
}
