import type { ReactNode } from 'react';

/** The centred card of the signed-out pages (sign in, 2FA, password reset, registration). */
export function AuthCard({
  title,
  lead,
  children,
  wide = false,
}: {
  title: string;
  lead?: ReactNode;
  children: ReactNode;
  wide?: boolean;
}) {
  return (
    <main className="centered-page auth-page">
      <title>{`${title} · Quire`}</title>
      <div className={`card card--narrow${wide ? ' card--wide' : ''}`}>
        <div className="brand brand--center">
          <span className="brand__mark" aria-hidden="true">
            Q
          </span>
          <span className="brand__name">Quire</span>
        </div>
        <h1 className="auth-page__title">{title}</h1>
        {lead ? <p className="muted auth-page__lead">{lead}</p> : null}
        {children}
      </div>
    </main>
  );
}
