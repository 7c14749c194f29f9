// The idle close: a session's Claude Code is given back after the idle time, but never while
// a config change is talking to it.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { IdleClose } from "../../../session/lifecycle/idle-close.js";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("the idle close", () => {
  it("closes once the session has been idle for the idle time, and not at all for 0", () => {
    const close = vi.fn();
    new IdleClose(300, close).schedule();
    vi.advanceTimersByTime(299);
    expect(close).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(close).toHaveBeenCalledOnce();
    const never = vi.fn();
    new IdleClose(0, never).schedule();
    vi.advanceTimersByTime(10_000);
    expect(never).not.toHaveBeenCalled();
  });

  it("does not close while a config change talks to the process, and waits the whole idle time again after it", async () => {
    const close = vi.fn();
    const idle = new IdleClose(300, close);
    idle.schedule();
    vi.advanceTimersByTime(200);
    let answer!: () => void;
    const change = idle.around(() => new Promise<void>((resolve) => (answer = resolve)));
    vi.advanceTimersByTime(1_000);
    expect(close).not.toHaveBeenCalled();
    answer();
    await change;
    vi.advanceTimersByTime(299);
    expect(close).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(close).toHaveBeenCalledOnce();
  });

  it("a config change while a turn runs (no wait running) starts no wait", async () => {
    const close = vi.fn();
    const idle = new IdleClose(300, close);
    await idle.around(() => Promise.resolve());
    vi.advanceTimersByTime(1_000);
    expect(close).not.toHaveBeenCalled();
  });
});
