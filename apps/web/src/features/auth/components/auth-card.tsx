import type { TBranding } from '@quire/contract';
import type { ReactNode } from 'react';
import { Brand } from '../../../components/brand';

/** The centred card of the signed-out pages (sign in, 2FA, password reset, registration). */
export function AuthCard({
  title,
  lead,
  children,
  wide = false,
  branding,
}: {
  title: string;
  lead?: ReactNode;
  children: ReactNode;
  wide?: boolean;
  /** The company's logo and background (the sign-in page shows them). */
  branding?: TBranding | undefined;
}) {
  const background = branding?.background_url;
  return (
    <main
      className={`centered-page auth-page${background ? ' auth-page--branded' : ''}`}
      style={background ? { backgroundImage: `url("${background}")` } : undefined}
    >
      <title>{`${title} · Quire`}</title>
      <div className={`card card--narrow${wide ? ' card--wide' : ''}`}>
        <Brand branding={branding} center />
        <h1 className="auth-page__title">{title}</h1>
        {lead ? <p className="muted auth-page__lead">{lead}</p> : null}
        {children}
      </div>
    </main>
  );
}
