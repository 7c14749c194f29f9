// Compaction (`/compact`, or Claude Code's own when the context fills) is shown: a
// compaction_update for clients that declare session.compaction, otherwise a tool call
// titled as Claude Code's terminal shows it; the context size falls to what is left.
import { type ClientCapabilities, type SessionNotification } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { result, sdkMessage, streamEvent } from "../../support/fake-claude.js";
import { fakeSession } from "../../support/fake-session.js";

async function setup(clientCapabilities: ClientCapabilities = {}) {
  const session = await fakeSession({ clientCapabilities });
  // A first turn makes the context window known: 12,000 tokens in use.
  await session.prompt(
    "Hi",
    streamEvent({
      type: "message_start",
      message: { id: "a", content: [], usage: { input_tokens: 12_000 } },
    }),
    streamEvent({ type: "message_delta", delta: {}, usage: { output_tokens: 159 } }),
    result({ modelUsage: { m: { contextWindow: 200_000 } } }),
  );
  return session;
}

const of = (updates: SessionNotification[], kind: string) =>
  updates.map((n) => n.update).filter((u) => u.sessionUpdate === kind);
const used = (updates: SessionNotification[]) =>
  of(updates, "usage_update").map((u) => (u.sessionUpdate === "usage_update" ? u.used : 0));

/** What Claude Code 2.1.332 emits for `/compact`, in its order. */
const compactMessages = () => [
  sdkMessage({ type: "system", subtype: "status", status: "compacting" }),
  sdkMessage({ type: "system", subtype: "status", status: null, compact_result: "success" }),
  sdkMessage({
    type: "system",
    subtype: "compact_boundary",
    compact_metadata: { trigger: "manual", pre_tokens: 12_159, post_tokens: 2_536 },
  }),
  sdkMessage({
    type: "user",
    message: { role: "user", content: "This session is being continued... Summary:\nOK" },
    parent_tool_use_id: null,
  }),
  sdkMessage({
    type: "user",
    message: { role: "user", content: "<local-command-stdout>Compacted </local-command-stdout>" },
    parent_tool_use_id: null,
    isReplay: true,
  }),
  result({ modelUsage: { m: { contextWindow: 200_000 } } }),
];

describe("compaction", () => {
  it("a client that declares session.compaction gets compaction_update in progress, then completed with the token counts", async () => {
    const { updates, prompt } = await setup({ session: { compaction: {} } });
    expect(await prompt("/compact", ...compactMessages())).toMatchObject({
      stopReason: "end_turn",
    });
    const [started, done] = of(updates, "compaction_update");
    expect(started).toMatchObject({ status: "in_progress" });
    expect(done).toMatchObject({
      compactionId: (started as { compactionId: string }).compactionId,
      status: "completed",
      summary: [{ type: "text", text: "Compacted conversation: 12,159 → 2,536 tokens" }],
      _meta: {
        claudeCode: { kind: "compaction", trigger: "manual", preTokens: 12_159, postTokens: 2_536 },
      },
    });
    expect(of(updates, "tool_call")).toEqual([]);
  });

  it("a client without the capability gets a completed tool call 'Compacted conversation' with the token counts", async () => {
    const { updates, prompt } = await setup();
    await prompt("/compact", ...compactMessages());
    expect(of(updates, "compaction_update")).toEqual([]);
    const [call] = of(updates, "tool_call");
    expect(call).toMatchObject({
      kind: "think",
      title: "Compacting conversation",
      status: "in_progress",
    });
    const [done] = of(updates, "tool_call_update");
    expect(done).toMatchObject({
      toolCallId: (call as { toolCallId: string }).toolCallId,
      title: "Compacted conversation",
      status: "completed",
      content: [
        {
          type: "content",
          content: { type: "text", text: "Compacted conversation: 12,159 → 2,536 tokens" },
        },
      ],
    });
  });

  it("usage_update is sent again with the size after compaction", async () => {
    const { updates, prompt } = await setup();
    expect(used(updates)).toEqual([12_159]);
    await prompt("/compact", ...compactMessages());
    expect(used(updates).slice(1)).toEqual([2_536, 2_536]);
  });

  it("the summary Claude Code feeds back and the command's replayed output are not shown as messages", async () => {
    const { updates, prompt } = await setup();
    await prompt("/compact", ...compactMessages());
    const shown = JSON.stringify([
      ...of(updates, "agent_message_chunk"),
      ...of(updates, "user_message_chunk"),
    ]);
    expect(shown).not.toContain("Compacted");
    expect(shown).not.toContain("Summary");
  });

  it("an automatic compaction that fails is shown as failed with Claude Code's error", async () => {
    const { updates, query } = await setup({ session: { compaction: {} } });
    query.emit(
      sdkMessage({ type: "system", subtype: "status", status: "compacting" }),
      sdkMessage({
        type: "system",
        subtype: "status",
        status: null,
        compact_result: "failed",
        compact_error: "Not enough messages to compact.",
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(of(updates, "compaction_update")).toMatchObject([
      { status: "in_progress" },
      { status: "failed", error: "Not enough messages to compact." },
    ]);
  });
});
