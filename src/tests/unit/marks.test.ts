// The cold path's debug marks (runtime/marks.ts), which the bench reads from the log.
import { afterEach, describe, expect, it, vi } from "vitest";
import { setLogLevel } from "../../logger.js";
import { mark, markFirst } from "../../runtime/marks.js";

function loggedLines(run: () => void): string[] {
  const lines: string[] = [];
  const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    run();
  } finally {
    spy.mockRestore();
  }
  return lines;
}

afterEach(() => setLogLevel("info"));

describe("marks", () => {
  it("are on the epoch clock, so that another process can place them on its own", () => {
    setLogLevel("debug");
    const before = Date.now();
    const [line] = loggedLines(() => mark("test-epoch"));
    const at = Number(/mark test-epoch at ([\d.]+) ms/.exec(line ?? "")?.[1]);
    expect(at).toBeGreaterThanOrEqual(before - 1);
    expect(at).toBeLessThanOrEqual(Date.now() + 1);
  });

  it("a milestone met many times is logged its first time only", () => {
    setLogLevel("debug");
    const lines = loggedLines(() => {
      markFirst("test-first");
      markFirst("test-first");
      markFirst("test-other");
    });
    expect(lines.filter((l) => l.includes("mark test-first at"))).toHaveLength(1);
    expect(lines.filter((l) => l.includes("mark test-other at"))).toHaveLength(1);
  });

  it("log nothing at the default level", () => {
    setLogLevel("info");
    expect(loggedLines(() => mark("test-quiet"))).toEqual([]);
  });
});
