// Order statistics over repeated samples.

export interface Summary {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  min: number;
  max: number;
  mean: number;
}

/** Linear interpolation between closest ranks (the "R-7" rule, as numpy's default). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  const a = sorted[lo]!;
  const b = sorted[hi]!;
  return a + (b - a) * (rank - lo);
}

export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    min: sorted[0] ?? NaN,
    max: sorted.at(-1) ?? NaN,
    mean: sorted.reduce((s, x) => s + x, 0) / (sorted.length || 1),
  };
}

export function median(samples: readonly number[]): number {
  return percentile(
    [...samples].sort((a, b) => a - b),
    50,
  );
}

/** Each sample over the baseline measured beside it (same pair, run or round). */
export function pairRatios(samples: readonly number[], baselines: readonly number[]): number[] {
  return samples.map((x, i) => x / baselines[i]!);
}
