import { expect } from "vitest";

/** Whether a process with this pid is still there (a zombie counts until it is reaped). */
export function alive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits until the process is gone (5 s at most). */
export function gone(pid: number | undefined): Promise<void> {
  return expect.poll(() => alive(pid), { timeout: 5_000 }).toBe(false);
}
