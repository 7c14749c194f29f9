/**
 * Waiting on a live log: each log owns a `Changes`, calls `notify()` when it grows, and
 * `until(check)` resolves with the first value `check` returns (re-evaluated on each change).
 */
export class Changes {
  private readonly listeners = new Set<(stopped?: Error) => void>();
  private stopped: Error | undefined;

  notify(): void {
    for (const listener of [...this.listeners]) listener();
  }

  /** Fails every pending and future wait, so a stopped harness never leaves a test hanging. */
  stop(reason = "the end-to-end harness was stopped"): void {
    this.stopped = new Error(reason);
    for (const listener of [...this.listeners]) listener(this.stopped);
  }

  until<T>(check: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
    const now = check();
    if (now !== undefined) return Promise.resolve(now);
    if (this.stopped) return Promise.reject(this.stopped);
    return new Promise<T>((resolve, reject) => {
      const done = (): void => {
        clearTimeout(timer);
        this.listeners.delete(listener);
      };
      const listener = (stopped?: Error): void => {
        if (stopped) {
          done();
          reject(new Error(`${stopped.message} while waiting for ${what}`));
          return;
        }
        const value = check();
        if (value === undefined) return;
        done();
        resolve(value);
      };
      const timer = setTimeout(() => {
        this.listeners.delete(listener);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      this.listeners.add(listener);
    });
  }
}

export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` every `intervalMs` until it returns a value or `timeoutMs` passes (then undefined). */
export async function poll<T>(
  check: () => Promise<T | undefined>,
  timeoutMs: number,
  intervalMs = 100,
): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined || Date.now() >= deadline) return value;
    await sleep(intervalMs);
  }
}

/** Milliseconds since the harness started: one time base for the transcript, updates and permissions. */
export type Clock = () => number;

export function startClock(): Clock {
  const startedAt = performance.now();
  return () => Math.round(performance.now() - startedAt);
}

/** Awaits `promise` and says how long it took, in ms. */
export async function timed<T>(promise: Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await promise;
  return { value, ms: performance.now() - start };
}
