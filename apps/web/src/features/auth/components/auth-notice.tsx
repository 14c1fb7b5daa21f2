import type { ReactNode } from 'react';
import { AuthCard } from './auth-card';

/**
 * A signed-out page that only tells something: its title, the notice (an error is announced
 * at once, the rest politely), more words if any, then the ways on (`actions`).
 */
export function AuthNotice({
  title,
  tone,
  notice,
  children,
  actions,
}: {
  title: string;
  tone: 'success' | 'info' | 'error';
  notice: ReactNode;
  children?: ReactNode;
  actions: ReactNode;
}) {
  return (
    <AuthCard title={title}>
      <div className={`alert alert--${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
        {notice}
      </div>
      {children}
      {actions}
    </AuthCard>
  );
}
