import { type ReactNode, useEffect, useState } from 'react';

export const ALERT_TIMEOUT_MS = 5_000;

interface AlertBannerProps {
  kind?: 'error' | 'warning' | 'success' | 'info';
  children: ReactNode;
}

/**
 * An inline banner that hides itself after 5 s (spec §4, §9). Give it a new `key` to show a
 * new message (and restart the 5 s).
 */
export function AlertBanner({ kind = 'error', children }: AlertBannerProps) {
  const [visible, setVisible] = useState(true);
  useEffect(() => {
    const timer = setTimeout(() => setVisible(false), ALERT_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, []);
  if (!visible) return null;
  return (
    <div
      className={`alert alert--${kind}`}
      role={kind === 'error' || kind === 'warning' ? 'alert' : 'status'}
    >
      {children}
    </div>
  );
}
