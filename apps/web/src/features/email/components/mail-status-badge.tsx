import type { TMailJob } from '@quire/contract';

const LOOK: Record<TMailJob['status'], { label: string; tone: string }> = {
  queued: { label: 'Queued', tone: 'neutral' },
  sending: { label: 'Sending', tone: 'warning' },
  sent: { label: 'Sent', tone: 'success' },
  failed: { label: 'Failed', tone: 'error' },
};

export function MailStatusBadge({ status }: { status: TMailJob['status'] }) {
  const look = LOOK[status] ?? { label: status, tone: 'neutral' };
  return <span className={`badge badge--${look.tone}`}>{look.label}</span>;
}
