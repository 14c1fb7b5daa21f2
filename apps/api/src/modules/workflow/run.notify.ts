import type { Deps, Tx } from '../../lib/deps.js';
import { enqueueMails } from '../email/email.queue.js';
import { personName } from './design.dto.js';
import * as repo from './run.repository.js';
import * as clockRepo from './run-clock.repository.js';
import * as notifyRepo from './run-notify.repository.js';

// The notifications and e-mails of one transition, made by the `workflow.notify` job that the
// transition's transaction queued. The step's notification rules say who hears of which
// event (entered, completed, rejected, overdue), in the app (a `notifications` row) and/or by
// e-mail (the mail queue, `enqueueMails`); an escalation also tells the user or group it names.
// The job runs at least once: `notified_at` makes a second run do nothing.

type StepEvent = 'entered' | 'completed' | 'rejected' | 'overdue';
type Transition = NonNullable<Awaited<ReturnType<typeof notifyRepo.transitionForNotify>>>;

/** The page of a file in the web client (the files area's file detail). */
export const filePath = (fileId: number) => `/files/${fileId}`;

const DEFAULT_SUBJECT: Record<StepEvent, string> = {
  entered: '"{file}" is waiting in "{step}"',
  completed: '"{file}" passed "{step}"',
  rejected: '"{file}" was rejected at "{step}"',
  overdue: '"{file}" is overdue in "{step}"',
};

/** The step events a transition makes. */
export function eventsOf(
  t: Pick<Transition, 'kind' | 'fromStepId' | 'toStepId'>,
): Array<{ stepId: number; event: StepEvent }> {
  const from = t.fromStepId;
  const to = t.toStepId;
  const entered = to !== null && to !== from ? [{ stepId: to, event: 'entered' as const }] : [];
  switch (t.kind) {
    case 'started':
      return to !== null ? [{ stepId: to, event: 'entered' }] : [];
    case 'approved':
    case 'triggered':
      if (from === null || from === to) return [];
      return [{ stepId: from, event: 'completed' }, ...entered];
    case 'rejected':
      return from === null ? entered : [{ stepId: from, event: 'rejected' }, ...entered];
    case 'moved':
      return to !== null ? [{ stepId: to, event: 'entered' }] : [];
    case 'escalated':
      return from === null ? [] : [{ stepId: from, event: 'overdue' }];
    default:
      return [];
  }
}

function render(template: string, vars: Record<string, string>) {
  return template.replace(/\{(file|step|workflow|user|comment)\}/g, (_, k: string) => vars[k] ?? '');
}

async function recipientsOf(
  tx: Tx,
  rule: { recipient: string; userId: number | null; groupId: number | null },
  t: Transition,
  stepId: number,
): Promise<number[]> {
  switch (rule.recipient) {
    case 'assignees':
      return repo.stepUsers(tx, stepId);
    case 'initiator':
      return t.instance.startedById ? [t.instance.startedById] : [];
    case 'owner':
      return [t.instance.file.ownerId];
    case 'followers':
      return notifyRepo.followerIds(tx, t.instance.file.id);
    case 'user':
      return rule.userId ? [rule.userId] : [];
    case 'group':
      return rule.groupId ? repo.groupUsers(tx, rule.groupId) : [];
    default:
      return [];
  }
}

interface Message {
  userId: number;
  kind: string;
  title: string;
  body: string;
  inApp: boolean;
  email: boolean;
}

export async function notifyTransition(deps: Deps, transitionId: bigint): Promise<void> {
  await deps.db.$transaction(async (tx) => {
    if (!(await notifyRepo.claimNotify(tx, transitionId, deps.now()))) return;
    const t = await notifyRepo.transitionForNotify(tx, transitionId);
    if (!t) return;
    const stepNames = new Map<number, string>();
    if (t.fromStep) stepNames.set(t.fromStep.id, t.fromStep.name);
    if (t.toStep) stepNames.set(t.toStep.id, t.toStep.name);
    const vars = (stepId: number) => ({
      file: t.instance.file.name,
      step: stepNames.get(stepId) ?? '',
      workflow: t.instance.workflow.name,
      user: t.actedBy ? personName(t.actedBy) : 'Quire',
      comment: t.comment,
    });

    const messages: Message[] = [];
    for (const { stepId, event } of eventsOf(t)) {
      for (const rule of await notifyRepo.stepNotifications(tx, stepId, event)) {
        const v = vars(stepId);
        const title = render(rule.subject || DEFAULT_SUBJECT[event], v);
        const fallback = `${title}. Workflow: ${v.workflow}.${t.comment ? ` Comment from ${v.user}: ${t.comment}` : ''}`;
        const body = render(rule.body, v) || fallback;
        for (const userId of await recipientsOf(tx, rule, t, stepId))
          messages.push({
            userId,
            kind: `workflow.${event}`,
            title,
            body,
            inApp: rule.inApp,
            email: rule.email,
          });
      }
    }
    if (t.kind === 'escalated' && t.fromStepId !== null) {
      const v = vars(t.fromStepId);
      const title = render(DEFAULT_SUBJECT.overdue, v);
      const body = `${title}. It has been escalated to you: you can now decide on it. Workflow: ${v.workflow}.`;
      for (const trigger of await clockRepo.activeTriggers(tx, 'overdue', [t.fromStepId])) {
        const ids = [
          ...(trigger.escalateUserId ? [trigger.escalateUserId] : []),
          ...(trigger.escalateGroupId ? await repo.groupUsers(tx, trigger.escalateGroupId) : []),
        ];
        for (const userId of ids)
          messages.push({ userId, kind: 'workflow.escalated', title, body, inApp: true, email: true });
      }
    }
    if (messages.length === 0) return;

    // One in-app row and one e-mail per person, message and channel.
    const users = new Map(
      (await repo.userBrief(tx, [...new Set(messages.map((m) => m.userId))]))
        .filter((u) => u.status === 'active')
        .map((u) => [u.id, u]),
    );
    const seen = new Set<string>();
    const link = filePath(t.instance.file.id);
    const inApp = [];
    const mails = [];
    for (const m of messages) {
      const user = users.get(m.userId);
      if (!user) continue;
      if (m.inApp && !seen.has(`app:${m.userId}:${m.title}`)) {
        seen.add(`app:${m.userId}:${m.title}`);
        inApp.push({
          userId: m.userId,
          kind: m.kind,
          title: m.title,
          body: m.body,
          fileId: t.instance.file.id,
          link,
        });
      }
      if (m.email && user.email && !seen.has(`mail:${m.userId}:${m.title}`)) {
        seen.add(`mail:${m.userId}:${m.title}`);
        mails.push({
          kind: 'workflow',
          to: user.email,
          subject: m.title,
          text: `${m.body}\n\nOpen the file: ${deps.config.publicUrl}${link}\n`,
        });
      }
    }
    await enqueueMails(tx, mails);
    await notifyRepo.insertNotifications(tx, inApp);
  });
}
