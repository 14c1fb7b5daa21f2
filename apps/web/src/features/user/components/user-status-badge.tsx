import type { TAdminUser } from '@quire/contract';

const LOOK: Record<TAdminUser['status'], { label: string; tone: string }> = {
  active: { label: 'Active', tone: 'success' },
  deactivated: { label: 'Deactivated', tone: 'warning' },
  deleted: { label: 'Deleted', tone: 'neutral' },
};

export function UserStatusBadge({ status }: { status: TAdminUser['status'] }) {
  const look = LOOK[status] ?? { label: status, tone: 'neutral' };
  return <span className={`badge badge--${look.tone}`}>{look.label}</span>;
}
