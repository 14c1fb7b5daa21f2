import type { TFieldValueInput } from '@quire/contract';
import { accessTypeFromDb } from '../../lib/access-types.js';
import { audit } from '../../lib/audit.js';
import type { Deps } from '../../lib/deps.js';
import { AppError } from '../../lib/errors.js';
import type { AuthContext } from '../../lib/session.js';
import { leaveUnindexedFor, moveFile, submitMetas } from '../file/index-files.service.js';
import { initiate } from '../workflow/run.service.js';
import * as repo from './intake.repository.js';
import { type ArrivalFacts, firstMatch } from './rule-match.js';
import { INTAKE_ACTOR } from './take-arrival.service.js';

// Filing a taken arrival by the rules (the intake.file job): the first enabled rule, in order,
// whose conditions hold moves the file to its category, indexes it with its values and tags,
// and starts its workflow (or leaves it unindexed for a person or a group, when the rule says
// so); with no rule, the source's own filing holds (indexed into its category, or left
// unindexed for its owner or its group). Each step is the file area's or the workflow
// area's own call, made as the source's owner, so their checks and audit events apply; a
// step that is refused is written on the arrival (`reason`) and the others still happen.
//
// Rules with words need the file's text. The extraction job (search.extract, queued by the
// upload with the file) reads it; until it has finished, filing waits (the job is deferred,
// spending no attempt) for at most TEXT_WAIT_MS after the arrival, then goes on with no text.

/** How long filing waits for the text a rule with words needs. */
const TEXT_WAIT_MS = 60 * 60_000;

/** The source owner, as the file and workflow areas' calls see a caller. */
function ownerAuth(owner: NonNullable<Awaited<ReturnType<typeof repo.activeUser>>>, now: Date): AuthContext {
  return {
    sessionId: 'intake',
    userId: owner.id,
    username: owner.username,
    accessType: accessTypeFromDb(owner.accessType),
    role: owner.loginRole,
    twoFactorPending: false,
    expiresAt: new Date(now.getTime() + 60_000),
  };
}

const problem = (what: string, err: unknown) => {
  if (err instanceof AppError) return `${what}: ${err.message}`;
  throw err;
};

/** The rules as the matcher takes them. */
function ruleConditions(r: repo.RuleRow) {
  return {
    ...r,
    senderContains: r.senderContains,
    nameGlob: r.nameGlob,
    values: (Array.isArray(r.values) ? r.values : []) as TFieldValueInput[],
  };
}

/**
 * Files arrival `arrivalId` by the rules, once: 'wait' while a rule needs text that is not
 * there yet, else 'done' (also when there is nothing to do: filed already, failed, or gone).
 */
export async function fileArrival(deps: Deps, arrivalId: number): Promise<'done' | 'wait'> {
  const arrival = await repo.findArrival(deps.db, arrivalId);
  if (arrival?.status !== 'taken' || arrival.ruledAt || !arrival.fileId) return 'done';
  const source = await repo.findSource(deps.db, arrival.sourceId);
  if (!source) return 'done';
  const now = deps.now();
  type LeaveFor = { userId: number; name: string } | { groupId: number; name: string };
  const finish = async (rule: { id: number; name: string } | null, problems: string[], leave?: LeaveFor) => {
    await deps.db.$transaction(async (tx) => {
      if (leave && arrival.fileId && !(await leaveUnindexedFor(tx, arrival.fileId, leave)))
        problems.push(`Not left for ${leave.name}: it is indexed already, or gone`);
      const left = leave ? `, left unindexed for ${leave.name}` : '';
      await repo.updateArrival(tx, arrival.id, {
        ruleId: rule?.id ?? null,
        ruleName: rule?.name ?? null,
        ruledAt: now,
        reason: problems.length ? problems.join('; ').slice(0, 2000) : null,
      });
      const how = rule ? `by rule "${rule.name}"` : `as source "${source.name}" says (no rule matched)`;
      await audit(tx, INTAKE_ACTOR, {
        type: 'intake',
        action: 'intake.arrival_filed',
        message: `Filed "${arrival.fileName}" ${how}${left}${problems.length ? `, with problems: ${problems.join('; ')}` : ''}`,
        targetType: 'file',
        targetId: arrival.fileId ?? undefined,
        details: {
          arrival_id: arrival.id,
          source_id: source.id,
          source_name: source.name,
          rule_id: rule?.id ?? null,
          rule_name: rule?.name ?? null,
          ...(leave
            ? { unindexed_for: 'userId' in leave ? { user_id: leave.userId } : { group_id: leave.groupId } }
            : {}),
          problems,
        },
      });
    });
    return 'done' as const;
  };

  const file = await repo.fileState(deps.db, arrival.fileId);
  if (!file) return finish(null, ['The file is gone']);
  const rules = (await repo.listRules(deps.db, { enabled: true })).map(ruleConditions);
  const facts: ArrivalFacts = {
    sourceId: source.id,
    fileName: arrival.fileName,
    sender: arrival.sender,
    text: null,
  };
  let match = firstMatch(rules, facts);
  const problems: string[] = [];
  if (match === 'needs_text') {
    const text = await repo.fileText(deps.db, file.id);
    const finished = text?.status === 'done' || text?.status === 'failed' || text?.status === 'unsupported';
    if (!finished && now.getTime() - arrival.createdAt.getTime() < TEXT_WAIT_MS) return 'wait';
    if (!finished) problems.push('Its text was not read in time; rules with words were tried on no text');
    match = firstMatch(rules, { ...facts, text: text?.text ?? '' });
  }
  const rule = match === 'needs_text' ? null : match;

  const owner = await repo.activeUser(deps.db, source.ownerId);
  if (!owner) return finish(rule, [...problems, `Its owner, ${source.owner.username}, is no longer active`]);
  const auth = ownerAuth(owner, now);

  let categoryId = file.categoryId;
  if (rule?.categoryId && rule.categoryId !== file.categoryId) {
    try {
      await moveFile(deps, auth, INTAKE_ACTOR, { file_id: file.id, folder_id: rule.categoryId });
      categoryId = rule.categoryId;
    } catch (err) {
      problems.push(problem(`Not moved to "${rule.category?.name}"`, err));
    }
  }
  // A rule may leave the file unindexed for a person (active) or a group rather than index it.
  let leave: LeaveFor | undefined;
  if (rule?.unindexedGroup)
    leave = { groupId: rule.unindexedGroup.id, name: `group "${rule.unindexedGroup.name}"` };
  else if (rule?.unindexedUser) {
    if (await repo.activeUser(deps.db, rule.unindexedUser.id))
      leave = { userId: rule.unindexedUser.id, name: rule.unindexedUser.username };
    else problems.push(`Not left for ${rule.unindexedUser.username}, who is no longer active`);
  }
  const index =
    (rule !== null && !rule.unindexedGroup && !rule.unindexedUser) || (!rule && source.fileAs === 'indexed');
  if (index && file.indexStatus === 'unindexed' && categoryId !== null) {
    // Values and tags belong to the rule's category; in the source's they may not apply.
    const own = !rule?.categoryId || categoryId === rule.categoryId;
    try {
      await submitMetas(deps, auth, INTAKE_ACTOR, {
        file_id: file.id,
        values: rule && own ? rule.values : [],
        ...(rule && own && rule.tagIds.length ? { tag_ids: rule.tagIds } : {}),
      });
    } catch (err) {
      problems.push(problem('Left unindexed', err));
    }
  }
  if (rule?.workflowId) {
    try {
      await initiate(deps, auth, INTAKE_ACTOR, { workflow_id: rule.workflowId, file_ids: [file.id] });
    } catch (err) {
      // Started already (by the category's own trigger, or by this job's earlier run): fine.
      if (!(err instanceof AppError && err.code === 'workflow.already_running'))
        problems.push(problem(`Workflow "${rule.workflow?.name}" not started`, err));
    }
  }
  return finish(rule, problems, leave);
}
