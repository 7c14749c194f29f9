// Where a fork at a message ends (the fork-at-message RFD): the message a client was shown,
// whole, with the tool results that answer it; nothing after.
import { describe, expect, it } from "vitest";
import { forkPoint, isPrompt, shownMessageCount } from "../../../claude/cuts/fork-point.js";
import { applyRewind } from "../../../claude/cuts/rewind-marks.js";
import type { ClaudeTranscriptMessage } from "../../../claude/transcripts.js";

const entry = (
  type: "user" | "assistant",
  uuid: string,
  message: unknown,
): ClaudeTranscriptMessage => ({
  type,
  uuid,
  session_id: "s",
  message,
  parent_tool_use_id: null,
  parent_agent_id: null,
});

const CONVERSATION = [
  entry("user", "u1", { role: "user", content: "Read the file." }),
  // One API message saved as one entry per block.
  entry("assistant", "a1-think", { id: "msg_1", content: [{ type: "thinking", thinking: "…" }] }),
  entry("assistant", "a1-text", { id: "msg_1", content: [{ type: "text", text: "Reading." }] }),
  entry("assistant", "a1-call", {
    id: "msg_1",
    content: [{ type: "tool_use", id: "toolu_1", name: "Read", input: {} }],
  }),
  entry("user", "r1", {
    role: "user",
    content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "hi" }],
  }),
  entry("assistant", "a2", { id: "msg_2", content: [{ type: "text", text: "It says hi." }] }),
  entry("user", "u2", { role: "user", content: [{ type: "text", text: "Thanks." }] }),
  entry("assistant", "a3", { id: "msg_3", content: [{ type: "text", text: "Welcome." }] }),
];

describe("a fork at a message", () => {
  it("ends at a user message the client names by its id", () => {
    expect(forkPoint(CONVERSATION, "u2")).toBe("u2");
    expect(forkPoint(CONVERSATION, "u1")).toBe("u1");
  });

  it("keeps one of Claude's messages whole (all its saved blocks), named by the API's id", () => {
    expect(forkPoint(CONVERSATION, "msg_2")).toBe("a2");
    expect(forkPoint(CONVERSATION, "msg_3")).toBe("a3");
  });

  it("keeps the results of the message's tool calls, never a call without its result", () => {
    expect(forkPoint(CONVERSATION, "msg_1")).toBe("r1");
  });

  it("names no point for an id the conversation does not hold", () => {
    expect(forkPoint(CONVERSATION, "msg_9")).toBeUndefined();
    expect(forkPoint([], "u1")).toBeUndefined();
  });
});

describe("the messages a client was shown", () => {
  it("count each prompt and each of Claude's messages once, tool results not at all", () => {
    expect(shownMessageCount(CONVERSATION)).toBe(5);
    expect(shownMessageCount(CONVERSATION.slice(0, 5))).toBe(2);
  });

  it("a prompt is a user message that is not tool results", () => {
    expect(CONVERSATION.filter(isPrompt).map((m) => m.uuid)).toEqual(["u1", "u2"]);
  });
});

describe("a rewind's cut (rewind-marks.ts)", () => {
  const mark = { upTo: "a2", end: "a3" };

  it("cuts the conversation after the entry kept last while the transcript ends where it did", () => {
    expect(
      applyRewind(CONVERSATION, mark)
        .map((m) => m.uuid)
        .at(-1),
    ).toBe("a2");
  });

  it("is shown by the transcript once it ends elsewhere: the messages are as they are", () => {
    const continued = [
      ...CONVERSATION.slice(0, 6),
      entry("user", "u3", { role: "user", content: "After the rewind." }),
    ];
    expect(applyRewind(continued, mark)).toEqual(continued);
    expect(applyRewind(CONVERSATION, undefined)).toEqual(CONVERSATION);
  });
});
