import type {
  TConditionOperator,
  TFieldType,
  TRecipientKind,
  TStepCompletion,
  TStepRoute,
  TTriggerKind,
  TWorkflow,
} from '@quire/contract';

// How the workflow's codes read on screen.

export const EVENT_WORDS = {
  entered: 'A file enters the step',
  completed: 'The step is approved',
  rejected: 'The step is rejected',
  overdue: 'The step is overdue',
} as const;

export const RECIPIENT_WORDS: Record<TRecipientKind, string> = {
  assignees: "The step's assignees",
  initiator: 'Who started the run',
  owner: "The file's owner",
  followers: "The file's followers",
  user: 'A user',
  group: 'A group',
};

export const COMPLETION_WORDS: Record<TStepCompletion, string> = {
  any: 'One assignee approves',
  all: 'Every assignee approves',
  quorum: 'A number of assignees approve',
};

export const ROUTE_WORDS: Record<TStepRoute, string> = {
  next: 'The next step',
  step: 'A step I choose',
  previous: 'The previous step',
  end: 'The end of the workflow',
};

export const TRIGGER_WORDS: Record<TTriggerKind, string> = {
  on_index: 'A file is indexed into a category of the workflow',
  on_field_change: 'A metadata value changes',
  on_date: 'A date is reached',
  overdue: 'The step is overdue (escalate)',
};

export const TRANSITION_WORDS = {
  started: 'Started',
  approved: 'Approved',
  rejected: 'Rejected',
  moved: 'Moved',
  triggered: 'Moved by a trigger',
  escalated: 'Escalated (overdue)',
  completed: 'Completed',
  cancelled: 'Cancelled',
} as const;

export const RUN_STATUS_WORDS = {
  running: 'Running',
  completed: 'Completed',
  cancelled: 'Cancelled',
  rejected: 'Rejected',
} as const;

/** Operators that make sense for a field type. */
export function operatorsFor(type: TFieldType): TConditionOperator[] {
  const all: TConditionOperator[] = ['eq', 'ne', 'contains', 'empty', 'not_empty', 'in_list'];
  return type === 'boolean' || type === 'user' ? all.filter((o) => o !== 'contains') : [...all, 'gt', 'lt'];
}

/** "Check → Sign" for a step route. */
export function routeLabel(
  route: TStepRoute,
  stepId: number | null,
  steps: Array<{ id: number; name: string; position: number }>,
  from: { position: number },
): string {
  const ordered = [...steps].sort((a, b) => a.position - b.position);
  const at = ordered.findIndex((s) => s.position === from.position);
  if (route === 'end') return 'End';
  if (route === 'next') return ordered[at + 1]?.name ?? 'End';
  if (route === 'previous') return ordered[at - 1]?.name ?? 'End';
  return ordered.find((s) => s.id === stepId)?.name ?? ordered[at + 1]?.name ?? 'End';
}

/**
 * What an active workflow starts on, from the workflow the server answered: activation gives
 * the first step an on-index trigger when the workflow serves categories and has none.
 */
export function whatStartsIt(w: Pick<TWorkflow, 'name' | 'categories' | 'steps'>): string {
  const categories = w.categories.map((c) => c.name).join(', ');
  if (!categories) return `${w.name} serves no category: it starts only when someone starts it on a file.`;
  const step = [...w.steps]
    .sort((a, b) => a.position - b.position)
    .find((s) => s.triggers.some((t) => t.kind === 'on_index' && t.active));
  if (!step)
    return `${w.name} has no on-index trigger that is on: it starts only when someone starts it on a file.`;
  return `${w.name} now starts on every file indexed into ${categories}, at the step "${step.name}".`;
}
