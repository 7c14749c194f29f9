// A signal that follows several, for the length of one operation. AbortSignal.any would
// do, but node keeps each signal it makes among a long-lived source's dependants for as
// long as that source lives (nodejs/node#55351, #64476), and its weak references keep
// the operation's objects through every young-generation collection: one per permission
// ask over a turn, one per request over the terminal client's life. This one detaches
// from its sources once the operation settles.

/**
 * Runs `operation` with a signal that aborts, with its reason, when any of `sources` does.
 * The operation's own promise is returned, so its caller sees it settle no later.
 */
export function withLinkedSignal<T>(
  sources: readonly AbortSignal[],
  operation: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  if (sources.length === 1) return operation(sources[0]!);
  const controller = new AbortController();
  const follow = (event: Event): void => controller.abort((event.target as AbortSignal).reason);
  const release = (): void => {
    for (const source of sources) source.removeEventListener("abort", follow);
  };
  const aborted = sources.find((source) => source.aborted);
  if (aborted) controller.abort(aborted.reason);
  else for (const source of sources) source.addEventListener("abort", follow, { once: true });
  let settles: Promise<T>;
  try {
    settles = operation(controller.signal);
  } catch (error) {
    release();
    throw error;
  }
  settles.then(release, release);
  return settles;
}
