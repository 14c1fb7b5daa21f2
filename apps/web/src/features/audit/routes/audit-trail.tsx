import { AUDIT_TYPE_LABELS, AUDIT_TYPES, type TAuditActivityQuery } from '@quire/contract';
import { useSearchParams } from 'react-router';
import { QueryTable, Timestamp } from '../../../components/data-table';
import { DateRangePicker } from '../../../components/date-range-picker';
import { PageHeader } from '../../../components/page-header';
import { pagingOf } from '../../../components/pagination';
import { PendingButton } from '../../../components/pending-button';
import { formatDateTime } from '../../../lib/format';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { useChainStatus, useVerifyChain } from '../api/chain-status';
import { useExportActivity } from '../api/export-activity';
import { useAuditActivity } from '../api/get-activity';
import { useAuditUsers } from '../api/get-users';

/** The person's own day bounds, so "12 March" means their 12 March. */
function dayBounds(from: string | null, to: string | null): string | undefined {
  if (!from && !to) return undefined;
  const start = from ? new Date(`${from}T00:00:00`).toISOString() : '';
  const end = to ? new Date(new Date(`${to}T00:00:00`).getTime() + 86_400_000).toISOString() : '';
  return `${start},${end}`;
}

function ChainStatus() {
  const status = useChainStatus();
  const verify = useVerifyChain();
  useFailureToast(verify.error, verify.failureCount, 'Failed to verify the audit trail');
  const v = status.data?.verification;
  const tone = !v ? 'info' : v.ok ? 'success' : 'error';
  return (
    <section
      className={`card chain-status chain-status--${tone}`}
      aria-label="Tamper check"
      aria-live="polite"
    >
      <div>
        <h2>Tamper check</h2>
        {!v ? (
          <p>The chain of events has not been verified yet.</p>
        ) : v.ok ? (
          <p>
            <strong>The chain verifies:</strong> {v.checked.toLocaleString()} events unchanged, checked{' '}
            {formatDateTime(v.finished_at)}.
          </p>
        ) : (
          <p role="alert">
            <strong>The chain does not verify.</strong> {v.problem}
          </p>
        )}
        {status.data?.head ? (
          <p className="muted">
            Newest event #{status.data.head.seq}
            {v && status.data.head.seq > v.head_seq
              ? ` (${status.data.head.seq - v.head_seq} since the last check)`
              : ''}
          </p>
        ) : null}
      </div>
      <PendingButton
        type="button"
        variant="ghost"
        pending={verify.isPending || Boolean(status.data?.verifying)}
        pendingLabel="Verifying…"
        onClick={() => verify.mutate()}
      >
        Verify now
      </PendingButton>
    </section>
  );
}

/** The audit trail: every event, filtered by person, type, days and text; the chain's state; export. */
export function AuditTrailPage() {
  const [params, setParams] = useSearchParams();
  const set = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) v ? next.set(k, v) : next.delete(k);
    if (!('page' in changes)) next.delete('page');
    setParams(next, { replace: true });
  };
  const from = params.get('from');
  const to = params.get('to');
  const filters: Omit<TAuditActivityQuery, 'page' | 'quantity' | 'cursor'> = {
    ...(params.get('user') ? { user_id: Number(params.get('user')) } : {}),
    ...(params.get('type') ? { type: params.get('type') as TAuditActivityQuery['type'] } : {}),
    ...(dayBounds(from, to) ? { dateRange: dayBounds(from, to) } : {}),
    ...(params.get('search') ? { search: params.get('search') as string } : {}),
  };
  const page = Number(params.get('page') ?? 1) || 1;
  const query = useAuditActivity({ ...filters, page });
  const users = useAuditUsers();
  const exporting = useExportActivity();
  useFailureToast(query.error, query.errorUpdatedAt, 'Failed to load the audit trail');
  useFailureToast(exporting.error, exporting.failureCount, 'Failed to export the audit trail');
  const data = query.data;

  return (
    <>
      <PageHeader title="Audit trail">
        Every sign-in, refusal and change: who, what, when, from where.
      </PageHeader>
      <ChainStatus />
      <section className="card audit-filters" aria-label="Filters">
        <label className="field">
          <span>Person</span>
          <select
            className="control"
            value={params.get('user') ?? ''}
            onChange={(e) => set({ user: e.target.value })}
          >
            <option value="">Anyone</option>
            {(users.data ?? []).map((u) => (
              <option key={u.id} value={u.id}>
                {u.name} ({u.username})
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Type</span>
          <select
            className="control"
            value={params.get('type') ?? ''}
            onChange={(e) => set({ type: e.target.value })}
          >
            <option value="">Any type</option>
            {AUDIT_TYPES.map((t) => (
              <option key={t} value={t}>
                {AUDIT_TYPE_LABELS[t]}
              </option>
            ))}
          </select>
        </label>
        <DateRangePicker
          label="Days"
          value={from && to ? { from, to } : null}
          onChange={(r) => set({ from: r?.from ?? null, to: r?.to ?? null })}
        />
        <label className="field">
          <span>Search</span>
          <input
            className="control"
            type="search"
            defaultValue={params.get('search') ?? ''}
            placeholder="Words in the event"
            onKeyDown={(e) => {
              if (e.key === 'Enter') set({ search: e.currentTarget.value.trim() });
            }}
            onBlur={(e) => set({ search: e.currentTarget.value.trim() })}
          />
        </label>
        <PendingButton
          type="button"
          variant="ghost"
          pending={exporting.isPending}
          pendingLabel="Exporting…"
          onClick={() => exporting.mutate(filters)}
        >
          Export .xlsx
        </PendingButton>
      </section>
      <QueryTable
        query={query}
        loadingText="Loading the audit trail…"
        failedText="The audit trail could not be loaded"
        rows={data?.items}
        empty={<p className="muted">No events match these filters.</p>}
        caption="Audit events"
        columns={['When', 'Who', 'What', 'Object', 'From']}
        busy={query.isPlaceholderData}
        pagination={pagingOf(data, 'events', (p) => set({ page: String(p) }), query.isPlaceholderData)}
        cells={(e) => (
          <>
            <td>
              <Timestamp iso={e.created_at} />
            </td>
            <td>
              {e.user ? e.user.name || e.user.username : <span className="muted">System or anonymous</span>}
            </td>
            <td>
              <span className="audit-action">{e.action}</span> {e.message}
            </td>
            <td>{e.target_type ? `${e.target_type} ${e.target_id ?? ''}` : ''}</td>
            <td>{e.ip ?? ''}</td>
          </>
        )}
      />
    </>
  );
}
