// The warm-up of the permission builders: a Bash request built and answered in process,
// so that the first real request of a process does not run them cold. It has no client
// and no session: it can send nothing and apply nothing.
import { afterEach, describe, expect, it, vi } from "vitest";
import { warmUpPermissions, warmUpPermissionsSoon } from "../../../permissions/warm-up.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("the permission warm-up", () => {
  it("builds a Bash request and answers it with its first option, an allow", () => {
    expect(warmUpPermissions()).toMatchObject({ behavior: "allow" });
  });

  it("is scheduled once per process, however many gates are made", () => {
    vi.useFakeTimers();
    warmUpPermissionsSoon();
    warmUpPermissionsSoon();
    expect(vi.getTimerCount()).toBe(1);
    vi.runAllTimers();
    expect(vi.getTimerCount()).toBe(0);
    warmUpPermissionsSoon();
    expect(vi.getTimerCount()).toBe(0);
  });
});
