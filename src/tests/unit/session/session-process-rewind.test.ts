// A rewound session's Claude Code (session-process.ts): the next process resumes the
// conversation at the entry kept last, until a prompt continues the transcript from there.
import { describe, expect, it } from "vitest";
import type { ClaudeQuery, ClaudeQueryOptions } from "../../../claude/query.js";
import type { IdleCompaction } from "../../../session/lifecycle/idle-compaction.js";
import { SessionProcess } from "../../../session/lifecycle/session-process.js";
import { rewindSession } from "../../../session/turns/rewind-turns.js";
import type { TurnQueue } from "../../../session/turns/turn-queue.js";

function processOf(
  conversation: { id: string; resume?: string; resumeAt?: string },
  initialization: () => Promise<unknown> = () => Promise.resolve({}),
) {
  const started: Array<Partial<ClaudeQueryOptions>> = [];
  const process = new SessionProcess(
    {
      id: () => "s",
      queryOptions: (c) => ({ cwd: "/", ...c }) as ClaudeQueryOptions,
      startQuery: (options) => {
        started.push(options);
        return { close: () => undefined, initialization } as unknown as ClaudeQuery;
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

describe("a rewind that drops one turn", () => {
  const host = (process: SessionProcess) => ({
    process,
    turns: { cancel: () => undefined, drained: () => Promise.resolve() } as unknown as TurnQueue,
    idleCompaction: { runs: false } as IdleCompaction,
    mode: () => "default",
  });
  const plan = { cut: () => Promise.resolve({ upTo: "entry-5", dropsTurn: "prompt-3" }) };

  it("starts Claude Code at once, told which turn drops, for it to check", async () => {
    const { process, started } = processOf({ id: "c", resume: "c" });
    await rewindSession(host(process), plan);
    expect(started).toEqual([
      { cwd: "/", resume: "c", resumeSessionAt: "entry-5", resumeDropsTurn: "prompt-3" },
    ]);
  });

  it("refused, fails saying the conversation stays whole, and the next process resumes it whole", async () => {
    const refusal = new Error(
      "Claude Code returned an error result: Resume rejected by --resume-drops-turn: range contains a user entry",
    );
    const { process, started } = processOf({ id: "c", resume: "c" }, () => Promise.reject(refusal));
    await expect(rewindSession(host(process), plan)).rejects.toThrow(
      /refused to drop the turn, so the conversation stays whole/,
    );
    process.live("default");
    expect(started.at(-1)).toEqual({ cwd: "/", resume: "c" });
  });
});
