import type { TFileWorkflowStage, TRun, TStep, TWorkflow, TWorkflowSummary } from '@quire/contract';

// Workflow data for the feature's tests, shaped by the contract.

export function aStep(overrides: Partial<TStep> & { id: number; name: string; position: number }): TStep {
  return {
    workflow_id: 1,
    description: '',
    due_hours: null,
    completion: 'any',
    quorum: null,
    on_approve: 'next',
    on_approve_step_id: null,
    on_reject: 'previous',
    on_reject_step_id: null,
    running_count: 0,
    assignees: [],
    notifications: [],
    conditions: [],
    triggers: [],
    fields: [],
    ...overrides,
  };
}

export const AMOUNT = { field_id: 31, name: 'Amount', type: 'number' as const, options: [] };
export const KIND = {
  field_id: 32,
  name: 'Kind',
  type: 'select' as const,
  options: [
    { key: 1, label: 'Invoice' },
    { key: 2, label: 'Receipt' },
  ],
};

/** "Invoices": Check (Alice, PRE Amount > 100) -> Sign (group Signers), draft. */
export function aWorkflow(overrides: Partial<TWorkflow> = {}): TWorkflow {
  return {
    id: 1,
    name: 'Invoices',
    description: 'Two signatures',
    status: 'draft',
    step_count: 2,
    categories: [{ id: 5, name: 'Finance' }],
    running_count: 0,
    updated_at: '2025-05-01T10:00:00Z',
    fields: [],
    field_choices: [AMOUNT, KIND],
    steps: [
      aStep({
        id: 11,
        name: 'Check',
        position: 1,
        assignees: [{ id: 100, step_id: 11, kind: 'user', user_id: 20, group_id: null, name: 'Alice Smith' }],
        conditions: [
          {
            id: 200,
            step_id: 11,
            mode: 'PRE',
            field_id: 31,
            field_name: 'Amount',
            field_type: 'number',
            on_workflow_field: false,
            operator: 'gt',
            value: '100',
            join: 'and',
            position: 1,
          },
        ],
      }),
      aStep({
        id: 12,
        name: 'Sign',
        position: 2,
        assignees: [{ id: 101, step_id: 12, kind: 'group', user_id: null, group_id: 8, name: 'Signers' }],
      }),
    ],
    ...overrides,
  };
}

export function aSummary(overrides: Partial<TWorkflowSummary> = {}): TWorkflowSummary {
  const { fields: _f, steps: _s, field_choices: _c, ...summary } = aWorkflow();
  return { ...summary, ...overrides };
}

export function aRun(overrides: Partial<TRun> = {}): TRun {
  return {
    instance_id: 70,
    workflow: { id: 1, name: 'Invoices' },
    status: 'running',
    revision: 1,
    current_step: { id: 12, name: 'Sign', position: 2, completion: 'any', quorum: null },
    steps: [
      { id: 11, name: 'Check', position: 1 },
      { id: 12, name: 'Sign', position: 2 },
    ],
    assignees: [{ user_id: 7, name: 'Jane Doe', status: 'open' }],
    due_at: null,
    overdue: false,
    started_at: '2025-05-01T10:00:00Z',
    started_by: { id: 3, name: 'Owen Owner' },
    finished_at: null,
    values: [],
    form: [
      {
        field_id: 41,
        name: 'Signed amount',
        type: 'number',
        options: [],
        editable: true,
        required: true,
        default_value: null,
        position: 1,
        value: null,
      },
    ],
    can_act: true,
    can_move: false,
    ...overrides,
  };
}

export function aStage(overrides: Partial<TFileWorkflowStage> = {}): TFileWorkflowStage {
  return {
    file_id: 9,
    file_name: 'invoice-9.pdf',
    run: aRun(),
    history: [
      {
        id: 2,
        instance_id: 70,
        workflow: { id: 1, name: 'Invoices' },
        kind: 'approved',
        from_step: { id: 11, name: 'Check' },
        to_step: { id: 12, name: 'Sign' },
        acted_by: { id: 20, name: 'Alice Smith' },
        comment: 'Fine',
        values: [],
        created_at: '2025-05-01T11:00:00Z',
      },
      {
        id: 1,
        instance_id: 70,
        workflow: { id: 1, name: 'Invoices' },
        kind: 'started',
        from_step: null,
        to_step: { id: 11, name: 'Check' },
        acted_by: { id: 3, name: 'Owen Owner' },
        comment: '',
        values: [],
        created_at: '2025-05-01T10:00:00Z',
      },
    ],
    ...overrides,
  };
}
