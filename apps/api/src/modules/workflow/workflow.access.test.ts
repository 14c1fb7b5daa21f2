import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs, expectAccess, FILE_CONTROL_CALLERS, readCaseOf, writeCase } from '../../../test/access.js';
import type { TestContext } from '../../../test/app.js';
import { loginAs } from '../../../test/factories.js';
import { uniqueName } from '../../../test/names.js';
import { seed, seededApp } from '../../../test/seed.js';
import { api, designWorkflow, workflowCounts } from '../../../test/workflows.js';

// Who may call the workflow calls. The design is File Control's: read by the Auditor too,
// written by File Control writers signed in as admin. Runs: General staff act only on the
// steps assigned to them, the Auditor reads everything and writes nothing, File Control
// writers move stuck files. Every refused write changes nothing and is audited.

let t: TestContext;
let admin: string;
let staffId: number;
let fieldId: number;

beforeAll(async () => {
  const world = await seededApp({
    users: { admin: { accessType: 'File Control Admin' }, staff: { signIn: false } },
    fields: { field: { type: 'text' } },
  });
  t = world.t;
  admin = world.users.admin.token;
  staffId = world.users.staff.id;
  fieldId = world.fields.field.id;
});
afterAll(() => t.close());

const post = <T>(url: string, payload: object) => api<T>(t, admin, { method: 'POST', url, payload });
const name = () => uniqueName('Access');
const workflow = () =>
  post<{ id: number; name: string }>('/api/create_and_update_workflow', { name: name() });
const step = async () =>
  post<{ id: number; workflow_id: number }>('/api/create_update_workflow_step', {
    workflow_id: (await workflow()).id,
    name: 'S',
  });
const stepWithFields = async () => {
  const s = await step();
  await post('/api/workflow/step/edit_metadata', { workflow_step_id: s.id, fields: [{ field_id: fieldId }] });
  return s;
};

describe('the design calls', () => {
  const cases = [
    readCaseOf('GET /api/workflow/index', async () => ({ method: 'GET', url: '/api/workflow/index' })),
    readCaseOf('GET /api/view_workflow/{id}', async () => ({
      method: 'GET',
      url: `/api/view_workflow/${(await workflow()).id}`,
    })),
    readCaseOf('GET /api/get_step/{id}', async () => ({
      method: 'GET',
      url: `/api/get_step/${(await step()).id}`,
    })),
    readCaseOf('GET /api/get_recipient', async () => ({ method: 'GET', url: '/api/get_recipient' })),
    readCaseOf('GET /api/get_notification/{id}', async () => ({
      method: 'GET',
      url: `/api/get_notification/${(await step()).id}`,
    })),
    readCaseOf('POST /api/get_condition', async () => ({
      method: 'POST',
      url: '/api/get_condition',
      payload: { step_id: (await step()).id },
    })),
    readCaseOf('POST /api/get_condition_post', async () => ({
      method: 'POST',
      url: '/api/get_condition_post',
      payload: { step_id: (await step()).id },
    })),
    readCaseOf('GET /api/get_trigger/{id}', async () => ({
      method: 'GET',
      url: `/api/get_trigger/${(await step()).id}`,
    })),
    readCaseOf('GET /api/get_assignee/{id}', async () => ({
      method: 'GET',
      url: `/api/get_assignee/${(await step()).id}`,
    })),
    readCaseOf('GET /api/get_step_metadata/{id}', async () => ({
      method: 'GET',
      url: `/api/get_step_metadata/${(await step()).id}`,
    })),
    readCaseOf('POST /api/workflow/dry_run', async () => {
      const { file } = (
        await seed(t, {
          users: { owner: { signIn: false } },
          categories: { category: {} },
          files: { file: { owner: 'owner', category: 'category' } },
        })
      ).files;
      return {
        method: 'POST',
        url: '/api/workflow/dry_run',
        payload: { workflow_id: (await workflow()).id, file_id: file.id },
      };
    }),
    readCaseOf('GET /api/workflow/dry_run/files', async () => ({
      method: 'GET',
      url: `/api/workflow/dry_run/files?workflow_id=${(await workflow()).id}`,
    })),
    writeCase('POST /api/create_and_update_workflow (create)', async () => ({
      method: 'POST',
      url: '/api/create_and_update_workflow',
      payload: { name: name() },
    })),
    writeCase('POST /api/create_and_update_workflow (update)', async () => {
      const w = await workflow();
      return {
        method: 'POST',
        url: '/api/create_and_update_workflow',
        payload: { id: w.id, name: `${w.name} 2` },
      };
    }),
    writeCase('DELETE /api/del_workflow/{id}', async () => ({
      method: 'DELETE',
      url: `/api/del_workflow/${(await workflow()).id}`,
    })),
    writeCase('POST /api/create_update_workflow_step', async () => ({
      method: 'POST',
      url: '/api/create_update_workflow_step',
      payload: { workflow_id: (await workflow()).id, name: 'New' },
    })),
    writeCase('DELETE /api/workflow/del_step/{id}', async () => ({
      method: 'DELETE',
      url: `/api/workflow/del_step/${(await step()).id}`,
    })),
    writeCase('POST /api/workflow/create_update_metadata', async () => ({
      method: 'POST',
      url: '/api/workflow/create_update_metadata',
      payload: { id: (await workflow()).id, fields: [{ field_id: fieldId }] },
    })),
    writeCase('POST /api/update_notification', async () => ({
      method: 'POST',
      url: '/api/update_notification',
      payload: { workflow_step_id: (await step()).id, event: 'entered', recipient: 'owner' },
    })),
    writeCase('DELETE /api/del_notification/{id}', async () => {
      const n = await post<{ id: number }>('/api/update_notification', {
        workflow_step_id: (await step()).id,
        event: 'entered',
        recipient: 'owner',
      });
      return { method: 'DELETE', url: `/api/del_notification/${n.id}` };
    }),
    writeCase('POST /api/update_condition', async () => ({
      method: 'POST',
      url: '/api/update_condition',
      payload: { workflow_step_id: (await step()).id, mode: 'PRE', field_id: fieldId, operator: 'empty' },
    })),
    writeCase('DELETE /api/del_condition/{id}', async () => {
      const c = await post<{ id: number }>('/api/update_condition', {
        workflow_step_id: (await step()).id,
        mode: 'POST',
        field_id: fieldId,
        operator: 'empty',
      });
      return { method: 'DELETE', url: `/api/del_condition/${c.id}` };
    }),
    writeCase('POST /api/update_trigger', async () => ({
      method: 'POST',
      url: '/api/update_trigger',
      payload: { workflow_step_id: (await step()).id, kind: 'on_index' },
    })),
    writeCase('DELETE /api/del_trigger/{id}', async () => {
      const tr = await post<{ id: number }>('/api/update_trigger', {
        workflow_step_id: (await step()).id,
        kind: 'on_index',
      });
      return { method: 'DELETE', url: `/api/del_trigger/${tr.id}` };
    }),
    writeCase('POST /api/update_assignee', async () => ({
      method: 'POST',
      url: '/api/update_assignee',
      payload: { workflow_step_id: (await step()).id, user_ids: [staffId] },
    })),
    writeCase('DELETE /api/del_assignee/{id}', async () => {
      const [a] = await post<Array<{ id: number }>>('/api/update_assignee', {
        workflow_step_id: (await step()).id,
        user_ids: [staffId],
      });
      return { method: 'DELETE', url: `/api/del_assignee/${a?.id}` };
    }),
    writeCase('POST /api/workflow/step/edit_metadata', async () => ({
      method: 'POST',
      url: '/api/workflow/step/edit_metadata',
      payload: { workflow_step_id: (await step()).id, fields: [{ field_id: fieldId }] },
    })),
    writeCase('POST /api/workflow/step/set_default_metadata', async () => ({
      method: 'POST',
      url: '/api/workflow/step/set_default_metadata',
      payload: {
        workflow_step_id: (await stepWithFields()).id,
        defaults: [{ field_id: fieldId, value: 'x' }],
      },
    })),
  ];
  it.each(FILE_CONTROL_CALLERS)('as %s', (...caller) =>
    expectAccess(t, caller, cases, () => workflowCounts(t)),
  );
});

describe('the calls of runs, for anyone signed in', () => {
  it.each([
    ['GET', '/api/workflows'],
    ['GET', '/api/assigned-files'],
    ['GET', '/api/folders/workflow'],
    ['GET', '/api/folder-workflow-stage/1'],
    ['POST', '/api/initiate-workflow'],
    ['POST', '/api/manual-triger'],
  ] as const)('%s %s answers 401 without a session', async (method, url) => {
    const res = await t.app.inject({ method, url, payload: method === 'POST' ? {} : undefined });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('You are not authenticated, Please login');
  });
});

describe('writes on runs', () => {
  // One file at "Check" (assigned to alice and to the Auditor, who also has edit rights on
  // the category); "Sign" (assigned to the viewer) is not reached yet.
  let file: { id: number };
  let w: { id: number; steps: number[] };
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    const { users, files } = await seed(t, {
      users: {
        alice: { signIn: false },
        viewer: {},
        stranger: {},
        auditor: { accessType: 'Auditor', signIn: 'admin' },
      },
      categories: { category: { grants: { viewer: [], alice: [], auditor: ['edit'] } } },
      files: { file: { owner: { id: staffId }, category: 'category' } },
    });
    const { alice, viewer, auditor } = users;
    w = await designWorkflow(t, admin, {
      steps: [
        { name: 'Check', users: [alice.id, auditor.id] },
        { name: 'Sign', users: [viewer.id] },
      ],
    });
    ({ file } = files);
    await post('/api/initiate-workflow', { workflow_id: w.id, file_ids: [file.id] });
    tokens.viewer = viewer.token;
    tokens.stranger = users.stranger.token;
    tokens.auditorAdmin = auditor.token;
    // The Auditor also signs in as a user: a second session of the same person.
    tokens.auditorUser = await loginAs(t.app, auditor, 'user');
  });

  const actions = (): Array<[string, InjectOptions]> => [
    [
      'start a workflow',
      { method: 'POST', url: '/api/initiate-workflow', payload: { workflow_id: w.id, file_ids: [file.id] } },
    ],
    [
      'approve',
      {
        method: 'POST',
        url: '/api/manual-triger',
        payload: { file_id: file.id, workflow_step_id: w.steps[0], action: 'approve' },
      },
    ],
    [
      'reject',
      {
        method: 'POST',
        url: '/api/manual-triger',
        payload: { file_id: file.id, workflow_step_id: w.steps[0], action: 'reject', comment: 'no' },
      },
    ],
    [
      'move',
      {
        method: 'POST',
        url: '/api/manual-triger',
        payload: { file_id: file.id, workflow_step_id: w.steps[0], action: 'move', to_step_id: w.steps[1] },
      },
    ],
    [
      'cancel',
      {
        method: 'POST',
        url: '/api/manual-triger',
        payload: { file_id: file.id, workflow_step_id: w.steps[0], action: 'cancel' },
      },
    ],
  ];

  const callers: Array<[label: string, token: string, status: number]> = [
    ['General staff who sees the file, outside their assigned step', 'viewer', 403],
    ['General staff who may not see the file', 'stranger', 404],
    ['the Auditor signed in as admin', 'auditorAdmin', 403],
    ['the Auditor signed in as user, with edit rights, assigned to the step', 'auditorUser', 403],
  ];

  it.each(callers)('refuses %s, writing nothing, auditing the refusal', async (_label, who, status) => {
    for (const [action, opts] of actions()) {
      const before = await workflowCounts(t);
      const refusals = await t.db.auditEvent.count({ where: { type: 'security' } });
      const res = await callAs(t, tokens[who] as string, opts);
      expect(`${action} ${res.statusCode}`).toBe(`${action} ${status}`);
      expect(await workflowCounts(t)).toEqual(before);
      expect(await t.db.auditEvent.count({ where: { type: 'security' } })).toBe(refusals + 1);
    }
  });

  it('still lets the Auditor read the run', async () => {
    const res = await callAs(t, tokens.auditorAdmin as string, {
      method: 'GET',
      url: `/api/folder-workflow-stage/${file.id}`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.run).toMatchObject({
      can_act: false,
      can_move: false,
      current_step: { name: 'Check' },
    });
  });
});
