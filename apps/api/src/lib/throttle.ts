/**
 * At most `limit` events per key in each `windowMs` window, in memory. Used where a flood
 * must not turn into unbounded writes (audit rows for anonymous refusals).
 */
export type Throttle = ReturnType<typeof createThrottle>;

export function createThrottle(limit: number, windowMs: number, maxKeys = 10_000) {
  let windowStart = Date.now();
  const counts = new Map<string, number>();
  return {
    allow(key: string, now = Date.now()): boolean {
      if (now - windowStart >= windowMs || counts.size >= maxKeys) {
        counts.clear();
        windowStart = now;
      }
      const n = (counts.get(key) ?? 0) + 1;
      counts.set(key, n);
      return n <= limit;
    },
  };
}
