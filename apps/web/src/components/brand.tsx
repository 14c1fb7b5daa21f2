import type { TBranding } from '@quire/contract';

/**
 * The company's logo and name where Quire's mark would be (the sign-in card, the sidebar); the
 * plain Quire mark when no logo is set or the branding has not arrived.
 */
export function Brand({ branding, center = false }: { branding: TBranding | undefined; center?: boolean }) {
  const name = branding?.company_name || 'Quire';
  return (
    <div className={center ? 'brand brand--center' : 'brand'}>
      {branding?.logo_url ? (
        <img className="brand__logo" src={branding.logo_url} alt={`${name} logo`} />
      ) : (
        <span className="brand__mark" aria-hidden="true">
          Q
        </span>
      )}
      <span className="brand__name">{name}</span>
    </div>
  );
}
