import type { ToolCall } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { ToolCallTracker } from "../../../session/stream/tool-calls.js";

const toolCall = (id: string): ToolCall => ({ toolCallId: id, title: "ls" });

describe("the tool_call announcement marker (permission-extension.md, Request lifecycle)", () => {
  it("concurrent announcements of one tool call send one tool_call", async () => {
    const tracker = new ToolCallTracker();
    const call = tracker.upsert("t1", "Bash", {}, null);
    const sent: string[] = [];
    const send = (tc: ToolCall) => {
      sent.push(tc.toolCallId);
      return Promise.resolve();
    };
    await Promise.all([
      tracker.ensureAnnounced(call, () => toolCall("t1"), send),
      tracker.ensureAnnounced(call, () => toolCall("t1"), send),
    ]);
    expect(sent).toEqual(["t1"]);
  });

  it("a failed announcement removes its marker so the streamed path can retry it", async () => {
    const tracker = new ToolCallTracker();
    const call = tracker.upsert("t2", "Bash", {}, null);
    await expect(
      tracker.ensureAnnounced(
        call,
        () => toolCall("t2"),
        () => Promise.reject(new Error("closed")),
      ),
    ).rejects.toThrow("closed");
    expect(call.announced).toBeUndefined();
    const sent: string[] = [];
    await tracker.ensureAnnounced(
      call,
      () => toolCall("t2"),
      (tc) => {
        sent.push(tc.toolCallId);
        return Promise.resolve();
      },
    );
    expect(sent).toEqual(["t2"]);
  });

  it("only announced calls that have not finished count as open", async () => {
    const tracker = new ToolCallTracker();
    const announced = tracker.upsert("a", "Bash", {}, null);
    tracker.upsert("silent", "TaskCreate", {}, null);
    await tracker.ensureAnnounced(
      announced,
      () => toolCall("a"),
      () => Promise.resolve(),
    );
    expect(tracker.open().map((c) => c.id)).toEqual(["a"]);
    announced.status = "completed";
    expect(tracker.open()).toEqual([]);
  });
});
