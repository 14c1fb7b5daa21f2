import type { ReactNode } from 'react';

/**
 * A card named by its heading, with what it is in (a status badge) or its tools on the
 * heading's row.
 */
export function CardSection({
  headingId,
  title,
  aside,
  children,
}: {
  /** The h2's id, which names the card. */
  headingId: string;
  title: string;
  /** Beside the heading; nothing when null. */
  aside: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="card" aria-labelledby={headingId}>
      <div className="section-header">
        <h2 id={headingId}>{title}</h2>
        {aside}
      </div>
      {children}
    </section>
  );
}
