import { type AccessType, AREA_LABELS, type Area, accessTypeLabel, canAccess } from '@quire/contract';

const AREAS: Area[] = ['fileControl', 'settings', 'licence'];

function level(accessType: AccessType, area: Area): string | null {
  if (canAccess(accessType, area, 'write')) return 'Full access';
  if (canAccess(accessType, area, 'read')) return 'Read only';
  return null;
}

/** What a person's access type lets them do (spec §6), in words. */
export function AccessSummary({ accessType }: { accessType: AccessType }) {
  const areas = AREAS.map((area) => ({ area, level: level(accessType, area) })).filter((a) => a.level);
  return (
    <section className="card" aria-labelledby="access-heading">
      <h2 id="access-heading">Your access</h2>
      <p className="muted">
        Access type: <strong>{accessTypeLabel(accessType)}</strong>
      </p>
      {areas.length > 0 ? (
        <ul className="access-list">
          {areas.map(({ area, level: l }) => (
            <li key={area}>
              <span>{AREA_LABELS[area]}</span>
              <span className="badge">{l}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">Your access type has no administration areas.</p>
      )}
    </section>
  );
}
