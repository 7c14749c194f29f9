// Whether a build output is older than what it is built from (scripts/build-if-stale.ts).

/** Stale: an output is missing or older than the newest input. */
export function isStale(
  inputs: readonly number[],
  outputs: ReadonlyArray<number | undefined>,
): boolean {
  const newest = Math.max(0, ...inputs);
  return outputs.some((time) => time === undefined || time < newest);
}
