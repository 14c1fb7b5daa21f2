import type { ReactNode } from 'react';

/**
 * The box a preview is shown in. It scrolls when the preview is larger than the page, so it
 * takes focus: keys must reach it to scroll it (WCAG 2.1.1; axe scrollable-region-focusable).
 */
export function PreviewRegion({ className, children }: { className?: string; children: ReactNode }) {
  const classes = className ? `file-preview ${className}` : 'file-preview';
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region keys must reach (see above)
    <section className={classes} aria-label="Preview" tabIndex={0}>
      {children}
    </section>
  );
}
