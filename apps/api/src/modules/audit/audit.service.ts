import { PassThrough, type Readable } from 'node:stream';
import type {
  TAuditActivityQuery,
  TAuditChainStatus,
  TAuditEvent,
  TAuditPage,
  ZAuditActivityQuery,
  ZAuditExportQuery,
} from '@quire/contract';
import type { z } from 'zod';
import { type Actor, audit } from '../../lib/audit.js';
import { auditKeyOf, KEYED_PREFIX, verifyChain } from '../../lib/audit-chain.js';
import type { Deps } from '../../lib/deps.js';
import { enqueue } from '../../lib/jobs/queue.js';
import { EXPORT_MAX_EVENTS, exportTooLarge, unknownUser } from './audit.errors.js';
import { activityWorkbook } from './audit.export.js';
import * as repo from './audit.repository.js';

// The audit trail: the list and its filters, the export, and the hash chain's verification
// (decision 015). Reading the trail is not itself an event; exporting it and verifying the
// chain are.

type ActivityQuery = z.infer<typeof ZAuditActivityQuery>;
type ExportQuery = z.infer<typeof ZAuditExportQuery>;

export type { TAuditActivityQuery };

const personName = (r: { first_name: string | null; last_name: string | null; username: string | null }) =>
  `${r.first_name ?? ''} ${r.last_name ?? ''}`.trim() || (r.username ?? '');

/** Details are objects; anything else stored there is shown under `value`. */
function asRecord(details: unknown): Record<string, unknown> | null {
  if (details === null || details === undefined) return null;
  if (typeof details === 'object' && !Array.isArray(details)) return details as Record<string, unknown>;
  return { value: details };
}

function toEvent(r: repo.ActivityRow): TAuditEvent {
  return {
    id: Number(r.id),
    seq: Number(r.seq),
    created_at: r.created_at.toISOString(),
    user: r.user_id === null ? null : { id: r.user_id, username: r.username ?? '', name: personName(r) },
    type: r.type,
    action: r.action,
    message: r.message,
    target_type: r.target_type,
    target_id: r.target_id,
    ip: r.ip,
    details: asRecord(r.details),
    hash: r.hash,
  };
}

function filterOf(q: ExportQuery): repo.ActivityFilter {
  return {
    userId: q.user_id,
    type: q.type,
    from: q.dateRange?.from ?? null,
    to: q.dateRange?.to ?? null,
    search: q.search || undefined,
  };
}

async function assertUserExists(deps: Deps, userId: number | undefined) {
  if (userId === undefined) return;
  if (!(await repo.userExists(deps.db, userId))) throw unknownUser();
}

export async function activity(deps: Deps, q: ActivityQuery): Promise<TAuditPage> {
  await assertUserExists(deps, q.user_id);
  const f = filterOf(q);
  const offset = (q.page - 1) * q.quantity;
  const [rows, total] = await Promise.all([
    repo.listActivity(deps.db, f, { limit: q.quantity, offset, beforeSeq: q.cursor }),
    repo.isUnfiltered(f) ? repo.chainHead(deps.db).then((h) => h?.seq ?? 0) : repo.countActivity(deps.db, f),
  ]);
  const exact = repo.isUnfiltered(f) || total <= repo.COUNT_CAP;
  const shown = Math.min(total, repo.COUNT_CAP);
  const last = rows.at(-1);
  return {
    items: rows.map(toEvent),
    page: q.page,
    quantity: q.quantity,
    total: exact ? total : shown,
    total_exact: exact,
    last_page: Math.max(1, Math.ceil((exact ? total : shown) / q.quantity)),
    next_cursor: rows.length === q.quantity && last && Number(last.seq) > 1 ? Number(last.seq) : null,
  };
}

export async function chainStatus(deps: Deps): Promise<TAuditChainStatus> {
  const [head, last, verifying] = await Promise.all([
    repo.chainHead(deps.db),
    repo.lastVerification(deps.db),
    repo.verificationPending(deps.db),
  ]);
  return {
    head,
    verification: last
      ? {
          ok: last.ok,
          checked: Number(last.checked),
          started_at: last.startedAt.toISOString(),
          finished_at: last.finishedAt.toISOString(),
          head_seq: Number(last.headSeq),
          problem: last.problem,
          problem_seq: last.problemSeq === null ? null : Number(last.problemSeq),
        }
      : null,
    verifying,
  };
}

/** Queues a walk of the whole chain (one at a time). */
export async function requestVerification(deps: Deps): Promise<TAuditChainStatus> {
  await deps.db.$transaction((tx) =>
    enqueue(tx, 'audit.verify', {}, { key: 'audit.verify', maxAttempts: 1 }),
  );
  return chainStatus(deps);
}

/**
 * Walks the whole chain (lib/audit-chain.ts), anchored at the head the last good walk saw, and
 * records the outcome and its audit event in one transaction. Used by the audit.verify job
 * and `pnpm audit:verify`.
 */
export async function runVerification(
  deps: Pick<Deps, 'db' | 'now' | 'secretKey'>,
  onProgress?: (checked: number) => void,
) {
  const startedAt = deps.now();
  const anchor = await repo.lastGoodVerification(deps.db);
  const report = await verifyChain(deps.db, {
    key: auditKeyOf(deps.secretKey),
    anchor: anchor ? { seq: Number(anchor.headSeq), hash: anchor.headHash } : null,
    onProgress,
  });
  const finishedAt = deps.now();
  await deps.db.$transaction(async (tx) => {
    await repo.recordVerification(tx, {
      startedAt,
      finishedAt,
      ok: report.ok,
      checked: report.checked,
      headSeq: report.head?.seq ?? 0,
      headHash: report.head?.hash ?? '',
      problem: report.problem?.message ?? null,
      problemSeq: report.problem?.seq ?? null,
    });
    await audit(
      tx,
      { userId: null },
      {
        type: 'audit',
        action: report.ok ? 'audit.verified' : 'audit.verify_failed',
        message: report.ok
          ? `The audit chain verified: ${report.checked} events, head #${report.head?.seq ?? 0}`
          : `The audit chain does not verify: ${report.problem?.message}`,
        details: {
          checked: report.checked,
          head_seq: report.head?.seq ?? 0,
          ...(report.problem ? { problem: report.problem.kind, problem_seq: report.problem.seq } : {}),
        },
      },
    );
  });
  return report;
}

/**
 * The filtered trail as a workbook stream. The export is an audit event of its own (written
 * before the first byte is sent); more than EXPORT_MAX_EVENTS matching events is a 400.
 */
export async function exportActivity(deps: Deps, actor: Actor, q: ExportQuery): Promise<Readable> {
  await assertUserExists(deps, q.user_id);
  const f = filterOf(q);
  const total = repo.isUnfiltered(f)
    ? ((await repo.chainHead(deps.db))?.seq ?? 0)
    : await repo.countActivity(deps.db, f);
  if (
    total > EXPORT_MAX_EVENTS ||
    (!repo.isUnfiltered(f) && total > repo.COUNT_CAP && !(await fitsExport(deps, f)))
  )
    throw exportTooLarge();
  await audit(deps.db, actor, {
    type: 'audit',
    action: 'audit.exported',
    message: `Exported the audit trail (${repo.isUnfiltered(f) || total <= repo.COUNT_CAP ? total : `over ${repo.COUNT_CAP}`} events)`,
    details: {
      user_id: q.user_id ?? null,
      type: q.type ?? null,
      from: f.from?.toISOString() ?? null,
      to: f.to?.toISOString() ?? null,
      search: q.search ?? null,
    },
  });
  const out = new PassThrough();
  const writer = activityWorkbook(out);
  (async () => {
    let beforeSeq: number | undefined;
    for (;;) {
      const rows = await repo.listActivity(deps.db, f, { limit: 2000, offset: 0, beforeSeq });
      for (const row of rows) writer.add(row);
      if (rows.length < 2000) break;
      beforeSeq = Number(rows.at(-1)?.seq);
    }
    await writer.finish();
  })().catch((err) => {
    deps.log.error({ err }, 'audit export failed');
    out.destroy(err as Error);
  });
  return out;
}

/** Whether at most EXPORT_MAX_EVENTS events match (a count past the list's cap). */
async function fitsExport(deps: Deps, f: repo.ActivityFilter): Promise<boolean> {
  const rows = await repo.listActivity(deps.db, f, { limit: 1, offset: EXPORT_MAX_EVENTS });
  return rows.length === 0;
}

/**
 * At start: a chain whose newest event is not keyed (events sealed before migration 0012, or
 * a restored pre-0012 backup) gets one keyed event, the switch-over point, so that from then
 * on the newest event is always keyed and a trail rewritten with plain hashes is found
 * (decision 015). Nothing on an empty chain or one already keyed.
 */
export async function keyChainOnStart(deps: Pick<Deps, 'db' | 'log'>): Promise<void> {
  try {
    const head = await repo.chainHead(deps.db);
    if (!head || head.hash.startsWith(KEYED_PREFIX)) return;
    await audit(
      deps.db,
      { userId: null },
      {
        type: 'audit',
        action: 'audit.chain_keyed',
        message: `The audit chain is sealed with the audit key from here on (events up to #${head.seq} have plain hashes)`,
        details: { plain_until_seq: head.seq },
      },
    );
  } catch (err) {
    deps.log.error({ err }, 'Could not mark the audit chain as keyed');
  }
}
