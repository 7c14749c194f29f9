// Text chunks that continue each other, written in one turn of the event loop, go to the
// client as one; everything keeps its order, and nothing waits past that turn. This holds
// on the wire (the transport) and before the ACP SDK (the v1 channel).
import type { AnyMessage } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import {
  mergingTextChannel,
  type ClientChannel,
  type SessionNotificationOut,
} from "../../../acp/channel.js";
import { mergingChunks } from "../../../acp/chunk-merge.js";

function chunk(
  text: string,
  more: { sessionId?: string; kind?: string; messageId?: string; _meta?: unknown } = {},
): AnyMessage {
  return {
    jsonrpc: "2.0",
    method: "session/update",
    params: {
      sessionId: more.sessionId ?? "s1",
      update: {
        sessionUpdate: more.kind ?? "agent_message_chunk",
        content: { type: "text", text },
        ...(more.messageId ? { messageId: more.messageId } : {}),
        ...(more._meta ? { _meta: more._meta } : {}),
      },
    },
  };
}

const toolCall: AnyMessage = {
  jsonrpc: "2.0",
  method: "session/update",
  params: { sessionId: "s1", update: { sessionUpdate: "tool_call", toolCallId: "t1", title: "x" } },
};

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** What reaches the wire, as a short text per message. */
function wire() {
  const sent: string[] = [];
  const write = mergingChunks((message) => {
    const params = (message as { params: { sessionId: string; update: Record<string, unknown> } })
      .params;
    const content = params.update.content as { text?: string } | undefined;
    sent.push(`${params.sessionId}:${String(params.update.sessionUpdate)}:${content?.text ?? ""}`);
    return Promise.resolve();
  });
  return { sent, write };
}

describe("text chunks on the way to the client", () => {
  it("those of one session, kind and message written in one turn of the event loop go as one", async () => {
    const { sent, write } = wire();
    for (const piece of ["Hel", "lo", ", world"]) void write(chunk(piece, { messageId: "m1" }));
    expect(sent).toEqual([]);
    await nextTurn();
    expect(sent).toEqual(["s1:agent_message_chunk:Hello, world"]);
  });

  it("anything else sends the chunk held first: the wire keeps the order they were written in", async () => {
    const { sent, write } = wire();
    void write(chunk("Let me look."));
    void write(toolCall);
    void write(chunk("Found it."));
    await nextTurn();
    expect(sent).toEqual([
      "s1:agent_message_chunk:Let me look.",
      "s1:tool_call:",
      "s1:agent_message_chunk:Found it.",
    ]);
  });

  it("another session, kind, message or _meta starts a new chunk", async () => {
    const { sent, write } = wire();
    void write(chunk("a"));
    void write(chunk("b", { sessionId: "s2" }));
    void write(chunk("c", { sessionId: "s2", kind: "agent_thought_chunk" }));
    void write(chunk("d", { sessionId: "s2", kind: "agent_thought_chunk", messageId: "m2" }));
    void write(
      chunk("e", {
        sessionId: "s2",
        kind: "agent_thought_chunk",
        messageId: "m2",
        _meta: { claudeCode: { parentToolUseId: "t9" } },
      }),
    );
    await nextTurn();
    expect(sent).toEqual([
      "s1:agent_message_chunk:a",
      "s2:agent_message_chunk:b",
      "s2:agent_thought_chunk:c",
      "s2:agent_thought_chunk:d",
      "s2:agent_thought_chunk:e",
    ]);
  });

  it("only bare text merges: a user's chunk, an image, or text with annotations goes as it is", async () => {
    const { sent, write } = wire();
    void write(chunk("you", { kind: "user_message_chunk" }));
    void write(chunk("you too", { kind: "user_message_chunk" }));
    const annotated = chunk("noted") as { params: { update: { content: object } } };
    annotated.params.update.content = { type: "text", text: "noted", annotations: {} };
    void write(annotated as unknown as AnyMessage);
    void write(chunk("plain"));
    await nextTurn();
    expect(sent).toEqual([
      "s1:user_message_chunk:you",
      "s1:user_message_chunk:you too",
      "s1:agent_message_chunk:noted",
      "s1:agent_message_chunk:plain",
    ]);
  });

  it("a notification with its own _meta goes as it is: the merged one could keep only one", async () => {
    const { sent, write } = wire();
    for (const [piece, meta] of [
      ["x", { a: 1 }],
      ["y", { b: 2 }],
    ] as const) {
      const withMeta = chunk(piece) as { params: Record<string, unknown> };
      withMeta.params._meta = meta;
      void write(withMeta as unknown as AnyMessage);
    }
    await nextTurn();
    expect(sent).toEqual(["s1:agent_message_chunk:x", "s1:agent_message_chunk:y"]);
  });

  it("a chunk written in a later turn of the event loop goes on its own", async () => {
    const { sent, write } = wire();
    void write(chunk("one"));
    await nextTurn();
    void write(chunk("two"));
    await nextTurn();
    expect(sent).toEqual(["s1:agent_message_chunk:one", "s1:agent_message_chunk:two"]);
  });
});

/** A channel that records what reaches the ACP SDK, as a short text per call. */
function recordingChannel() {
  const sent: string[] = [];
  const channel: ClientChannel = {
    update: (n) => {
      const content = (n.update as { content?: { text?: string } }).content;
      sent.push(`${n.sessionId}:${n.update.sessionUpdate}:${content?.text ?? ""}`);
      return Promise.resolve();
    },
    requestPermission: () => {
      sent.push("requestPermission");
      return Promise.resolve({ outcome: { outcome: "cancelled" } });
    },
    createElicitation: () => {
      sent.push("createElicitation");
      return Promise.resolve({ action: "cancel" });
    },
    completeElicitation: () => {
      sent.push("completeElicitation");
      return Promise.resolve();
    },
    ownTurnStarted: () => {
      sent.push("ownTurnStarted");
      return Promise.resolve();
    },
    ownTurnEnded: () => {
      sent.push("ownTurnEnded");
      return Promise.resolve();
    },
  };
  return { sent, merged: mergingTextChannel(channel) };
}

const text = (t: string): SessionNotificationOut => ({
  sessionId: "s1",
  update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: t } },
});

describe("text chunks before the ACP SDK sends them (the v1 channel)", () => {
  it("those sent in one turn of the event loop reach the SDK as one update", async () => {
    const { sent, merged } = recordingChannel();
    for (const piece of ["Hel", "lo"]) void merged.update(text(piece));
    expect(sent).toEqual([]);
    await nextTurn();
    expect(sent).toEqual(["s1:agent_message_chunk:Hello"]);
  });

  it("a request, an elicitation's end or a turn of Claude's own sends the chunk held first", () => {
    const { sent, merged } = recordingChannel();
    const toolCallUpdate = { toolCallId: "t1", title: "x" };
    void merged.update(text("a"));
    void merged.requestPermission({ sessionId: "s1", toolCall: toolCallUpdate, options: [] }, {});
    void merged.update(text("b"));
    void merged.createElicitation(
      {
        sessionId: "s1",
        mode: "form",
        message: "?",
        requestedSchema: { type: "object", properties: {} },
      },
      {},
    );
    void merged.update(text("c"));
    void merged.completeElicitation({ elicitationId: "e1" });
    void merged.update(text("d"));
    void merged.ownTurnStarted!("s1");
    void merged.update(text("e"));
    void merged.ownTurnEnded!("s1", { stopReason: "end_turn" });
    expect(sent).toEqual([
      "s1:agent_message_chunk:a",
      "requestPermission",
      "s1:agent_message_chunk:b",
      "createElicitation",
      "s1:agent_message_chunk:c",
      "completeElicitation",
      "s1:agent_message_chunk:d",
      "ownTurnStarted",
      "s1:agent_message_chunk:e",
      "ownTurnEnded",
    ]);
  });

  it("flush sends the chunk held at once, for a response that must follow it", () => {
    const { sent, merged } = recordingChannel();
    void merged.update(text("the end"));
    merged.flush();
    expect(sent).toEqual(["s1:agent_message_chunk:the end"]);
  });
});
