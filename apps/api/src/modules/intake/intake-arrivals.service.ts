import type { TIntakeArrival } from '@quire/contract';
import { type Actor, audit } from '../../lib/audit.js';
import type { Deps } from '../../lib/deps.js';
import { type PageQuery, pageMeta } from '../../lib/paging.js';
import { arrivalNotFound, cannotRetry, notFailed } from './intake.errors.js';
import * as repo from './intake.repository.js';
import { SOURCE_KINDS } from './source-kinds.js';

// What arrived: listed last first with the rule that filed each; a failed arrival taken again.

export function toArrival(row: repo.ArrivalRow): TIntakeArrival {
  return {
    id: row.id,
    source: row.source,
    status: row.status,
    reason: row.reason,
    file_name: row.fileName,
    size: row.size === null ? null : Number(row.size),
    file: row.file && !row.file.deletedAt ? { id: row.file.id, name: row.file.name } : null,
    rule: row.ruleName === null ? null : { id: row.ruleId, name: row.ruleName },
    ruled: row.ruledAt !== null,
    sender: row.sender,
    subject: row.subject,
    created_at: row.createdAt.toISOString(),
  };
}

export async function listArrivals(
  deps: Deps,
  q: PageQuery & { status?: 'taken' | 'failed'; source_id?: number },
) {
  const { rows, total } = await repo.listArrivals(deps.db, q);
  return { ...pageMeta(q, total), items: rows.map(toArrival) };
}

/**
 * Takes a failed arrival again: its source brings the content back (a folder's file returns
 * from failed/ into the folder) and the arrival is deleted with it, releasing its key, so the
 * source's next looks take it afresh. 409 when it cannot (the file was removed from failed/).
 */
export async function retryArrival(deps: Deps, actor: Actor, id: number) {
  const arrival = await repo.findArrival(deps.db, id);
  if (!arrival) throw arrivalNotFound();
  if (arrival.status !== 'failed') throw notFailed();
  const source = await repo.findSource(deps.db, arrival.sourceId);
  const kind = source ? SOURCE_KINDS[source.kind] : undefined;
  if (!source || !kind) throw cannotRetry('its source cannot be looked at here');
  await deps.db.$transaction(async (tx) => {
    const removed = await repo.deleteArrival(tx, arrival.id);
    if (!removed.count) throw arrivalNotFound();
    await audit(tx, actor, {
      type: 'intake',
      action: 'intake.arrival_retried',
      message: `Asked ${source.kind} "${source.name}" to take "${arrival.fileName}" again (it failed: ${arrival.reason ?? 'no reason given'})`,
      targetType: 'intake_arrival',
      targetId: arrival.id,
      details: { source_id: source.id, external_key: arrival.externalKey, reason: arrival.reason },
    });
    // Last, so a refusal here rolls the deletion back.
    try {
      await kind.retry(deps, source, arrival.externalKey);
    } catch (err) {
      throw cannotRetry(err instanceof Error ? err.message : String(err));
    }
  });
  return { id };
}
