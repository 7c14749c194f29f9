// How ACP v1's session updates, as the sessions build them, become ACP v2's (acp/v2/):
// pure translation, table by table.
import { describe, expect, it } from "vitest";
import { gitPatch } from "../../../acp/v2/git-patch.js";
import {
  toV2Commands,
  toV2ConfigOptions,
  toV2Content,
  UpdateTranslator,
} from "../../../acp/v2/updates.js";

describe("gitPatch", () => {
  it("a new file is all added lines under /dev/null", () => {
    expect(gitPatch("/p/new.txt", null, "a\nb\n")).toBe(
      [
        "diff --git a/p/new.txt b/p/new.txt",
        "new file mode 100644",
        "--- /dev/null",
        "+++ b/p/new.txt",
        "@@ -0,0 +1,2 @@",
        "+a",
        "+b",
        "",
      ].join("\n"),
    );
  });

  it("a change keeps three lines of context and counts both sides", () => {
    const before = ["1", "2", "3", "4", "5", "6", "7", "8"].join("\n");
    const after = ["1", "2", "3", "4", "five", "6", "7", "8"].join("\n");
    expect(gitPatch("/p/f", before, after).split("\n").slice(3)).toEqual([
      "@@ -2,7 +2,7 @@",
      " 2",
      " 3",
      " 4",
      "-5",
      "+five",
      " 6",
      " 7",
      " 8",
      "",
    ]);
  });

  it("two changes far apart are two hunks; no change is no hunk", () => {
    const lines = Array.from({ length: 20 }, (_, i) => `l${i}`);
    const changed = lines.map((l, i) => (i === 1 || i === 18 ? `${l}!` : l));
    const patch = gitPatch("/p/f", lines.join("\n"), changed.join("\n"));
    expect(patch.match(/^@@/gm)).toHaveLength(2);
    expect(gitPatch("/p/f", "same\n", "same\n")).toBe(
      "diff --git a/p/f b/p/f\n--- a/p/f\n+++ b/p/f\n",
    );
  });
});

describe("UpdateTranslator", () => {
  const text = (t: string) => ({ type: "text" as const, text: t });

  it("chunks without a message id get one: the same for a run of one kind, a new one after anything else", () => {
    const translator = new UpdateTranslator();
    const send = (update: object) =>
      translator.translate({ sessionId: "s", update: update as never }).map((n) => n.update);
    const [a] = send({ sessionUpdate: "user_message_chunk", content: text("a") });
    const [b] = send({ sessionUpdate: "user_message_chunk", content: text("b") });
    send({ sessionUpdate: "tool_call", toolCallId: "t", title: "T" });
    const [c] = send({ sessionUpdate: "user_message_chunk", content: text("c") });
    const [d] = send({ sessionUpdate: "agent_message_chunk", content: text("d"), messageId: "m" });
    const id = (u: unknown) => (u as { messageId: string }).messageId;
    expect(id(a)).toBe(id(b));
    expect(id(c)).not.toBe(id(a));
    expect(id(d)).toBe("m");
  });

  it("tool_call is the tool_call_update that creates it: pending, named, nulls left out; current_mode_update is dropped", () => {
    const translator = new UpdateTranslator();
    const [created] = translator.translate({
      sessionId: "s",
      update: {
        sessionUpdate: "tool_call",
        toolCallId: "t",
        title: "Read a",
        kind: "read",
        locations: null,
        _meta: { claudeCode: { toolName: "Read" } },
      } as never,
    });
    expect(created?.update).toEqual({
      sessionUpdate: "tool_call_update",
      toolCallId: "t",
      title: "Read a",
      kind: "read",
      status: "pending",
      name: "Read",
      _meta: { claudeCode: { toolName: "Read" } },
    });
    expect(
      translator.translate({
        sessionId: "s",
        update: { sessionUpdate: "current_mode_update", currentModeId: "plan" },
      }),
    ).toEqual([]);
  });

  it("a subagent's state on its parent is also the child's own state_update, after it", () => {
    const out = new UpdateTranslator().translate({
      sessionId: "parent",
      update: {
        sessionUpdate: "subagent_update",
        sessionId: "parent/child",
        state: { state: "idle", stopReason: "end_turn" },
      } as never,
    });
    expect(out).toEqual([
      {
        sessionId: "parent",
        update: {
          sessionUpdate: "subagent_update",
          sessionId: "parent/child",
          state: { state: "idle", stopReason: "end_turn" },
        },
      },
      {
        sessionId: "parent/child",
        update: { sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" },
      },
    ]);
  });
});

describe("shapes v2 renamed", () => {
  it("config options are named by configId, select groups by groupId", () => {
    expect(
      toV2ConfigOptions([
        {
          id: "model",
          name: "Model",
          type: "select",
          currentValue: "a",
          options: [{ group: "g", name: "G", options: [{ value: "a", name: "A" }] }],
        },
        { id: "fast_mode", name: "Fast", type: "boolean", currentValue: false },
      ]),
    ).toEqual([
      {
        configId: "model",
        name: "Model",
        type: "select",
        currentValue: "a",
        options: [{ groupId: "g", name: "G", options: [{ value: "a", name: "A" }] }],
      },
      { configId: "fast_mode", name: "Fast", type: "boolean", currentValue: false },
    ]);
  });

  it("commands carry type command, their input type text", () => {
    expect(
      toV2Commands([
        { name: "review", description: "Review", input: { hint: "what" } },
        { name: "compact", description: "Compact" },
      ]),
    ).toEqual([
      {
        type: "command",
        name: "review",
        description: "Review",
        input: { type: "text", hint: "what" },
      },
      { type: "command", name: "compact", description: "Compact" },
    ]);
  });

  it("a diff of a new file is an add; of an existing one a modify", () => {
    expect(toV2Content({ type: "diff", path: "/p/a", oldText: null, newText: "x" })).toMatchObject({
      type: "diff",
      changes: [{ operation: "add", path: "/p/a", fileType: "text" }],
      patch: { format: "git_patch" },
    });
    expect(toV2Content({ type: "diff", path: "/p/a", oldText: "w", newText: "x" })).toMatchObject({
      changes: [{ operation: "modify", path: "/p/a" }],
    });
  });
});
