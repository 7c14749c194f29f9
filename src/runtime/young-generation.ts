/**
 * The V8 flag that keeps the young generation (the semispaces where new objects live) at its
 * starting size of 1 MB per semispace instead of letting it grow to 16 MB. The agent keeps few
 * short-lived objects alive across a scavenge, so a small young generation costs little CPU,
 * and its growth was most of what 10 sessions added to the agent's RSS (see bench/README.md).
 * V8 reads the growth factor each time it would grow the space, so, unlike
 * `--max-semi-space-size`, it takes effect when set at run time.
 */
export const YOUNG_GENERATION_FLAG = "--semi-space-growth-factor=1";

/**
 * The flags to set at startup: none when node was started with its own semispace settings
 * (on its command line or in NODE_OPTIONS), which then win.
 */
export function youngGenerationFlags(
  execArgv: readonly string[],
  nodeOptions: string | undefined,
): string[] {
  const chosen = [...execArgv, ...(nodeOptions ?? "").split(/\s+/)].some((arg) =>
    /^--(?:(?:max|min)[-_])?semi[-_]space/.test(arg),
  );
  return chosen ? [] : [YOUNG_GENERATION_FLAG];
}
