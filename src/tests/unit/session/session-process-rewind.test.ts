// A rewound session's Claude Code (session-process.ts): the next process resumes the
// conversation at the entry kept last, until a prompt continues the transcript from there.
import { describe, expect, it } from "vitest";
import type { ClaudeQuery, ClaudeQueryOptions } from "../../../claude/query.js";
import { SessionProcess } from "../../../session/lifecycle/session-process.js";

function processOf(conversation: { id: string; resume?: string; resumeAt?: string }) {
  const started: Array<Partial<ClaudeQueryOptions>> = [];
  const process = new SessionProcess(
    {
      id: () => "s",
      queryOptions: (c) => ({ cwd: "/", ...c }) as ClaudeQueryOptions,
      startQuery: (options) => {
        started.push(options);
        return { close: () => undefined } as unknown as ClaudeQuery;
      },
      started: () => undefined,
      backgroundBusy: () => false,
    },
    conversation,
    undefined,
  );
  return { process, started };
}

describe("a rewound conversation's process", () => {
  it("resumes at the entry kept last, and plainly once a prompt continued it", () => {
    const { process, started } = processOf({ id: "c", resume: "c" });
    process.live("default");
    process.rewind("entry-7");
    process.live("default");
    process.promptSent();
    process.restart();
    process.live("default");
    expect(started).toEqual([
      { cwd: "/", resume: "c" },
      { cwd: "/", resume: "c", resumeSessionAt: "entry-7" },
      { cwd: "/", resume: "c" },
    ]);
  });

  it("opened from a transcript that does not show its rewind yet, resumes at the cut", () => {
    const { process, started } = processOf({ id: "c", resume: "c", resumeAt: "entry-3" });
    process.live("default");
    expect(started).toEqual([{ cwd: "/", resume: "c", resumeSessionAt: "entry-3" }]);
  });
});
