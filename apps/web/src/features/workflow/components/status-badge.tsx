import { RUN_STATUS_WORDS } from '../lib/words';

/** A workflow's draft/active, or a run's state, as a coloured badge. */
export function StatusBadge({ status }: { status: 'draft' | 'active' | keyof typeof RUN_STATUS_WORDS }) {
  const tone =
    status === 'active' || status === 'completed'
      ? 'badge--success'
      : status === 'running'
        ? ''
        : status === 'rejected' || status === 'cancelled'
          ? 'badge--error'
          : 'badge--neutral';
  const label = status === 'draft' ? 'Draft' : status === 'active' ? 'Active' : RUN_STATUS_WORDS[status];
  return <span className={`badge ${tone}`.trim()}>{label}</span>;
}
