// The figures the benches print from their samples.

/** The sample at fraction `p` (0 to 1) of the sorted samples (the nearest rank below); NaN for none. */
export function percentile(xs: readonly number[], p: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
}

export const median = (xs: readonly number[]) => percentile(xs, 0.5);
