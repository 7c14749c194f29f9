// Thoughts a client can read, and only those: recent models send signature-only thinking
// blocks (their display omitted) and thinking that streams whitespace on its own; a client
// must never get an empty or whitespace-only agent_thought_chunk, and a thought's words,
// paragraph breaks included, arrive whole.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { methods, type SessionNotification } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { assistant, fakeClaude, result, streamEvent } from "../../support/fake-claude.js";
import { connectInProcess } from "../../support/in-process.js";

const cwd = mkdtempSync(join(tmpdir(), "thoughts-"));
let cleanup: Array<() => void> = [];
afterEach(() => {
  cleanup.forEach((fn) => fn());
  cleanup = [];
});

async function prompting() {
  const claude = fakeClaude();
  const harness = await connectInProcess({ startQuery: claude.startQuery });
  cleanup.push(() => harness.close());
  const sessionId = await harness.newSession(cwd);
  const query = claude.started.at(-1)!;
  const prompt = harness.agent.request(methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text: "think" }],
  });
  await query.waitForSent(1);
  return { ...harness, query, prompt };
}

/** A thinking block's partial events: its start, one delta per piece, its signature, its end. */
const streamedThinking = (messageId: string, index: number, ...pieces: string[]) => [
  ...(index === 0
    ? [streamEvent({ type: "message_start", message: { id: messageId, content: [], usage: {} } })]
    : []),
  streamEvent({
    type: "content_block_start",
    index,
    content_block: { type: "thinking", thinking: "", signature: "" },
  }),
  ...pieces.map((thinking) =>
    streamEvent({
      type: "content_block_delta",
      index,
      delta: { type: "thinking_delta", thinking },
    }),
  ),
  streamEvent({
    type: "content_block_delta",
    index,
    delta: { type: "signature_delta", signature: "c2ln" },
  }),
  streamEvent({ type: "content_block_stop", index }),
];

const thoughts = (updates: SessionNotification[]) =>
  updates
    .map((n) => n.update)
    .filter((u) => u.sessionUpdate === "agent_thought_chunk")
    .map((u) => (u.content.type === "text" ? u.content.text : ""));

describe("thoughts", () => {
  it("whitespace streamed alone goes out with the thought's next words: no whitespace-only chunk, the paragraph break kept", async () => {
    const { query, updates, prompt } = await prompting();
    query.emit(
      ...streamedThinking("msg_t1", 0, "", " ", "First paragraph.", "\n\n", "Second one.", "\n"),
      result(),
    );
    await prompt;
    const sent = thoughts(updates);
    expect(sent.every((text) => text.trim() !== "")).toBe(true);
    expect(sent.join("")).toBe(" First paragraph.\n\nSecond one.");
  });

  it("a signature-only thinking block (its display omitted) sends no thought at all, streamed or complete", async () => {
    const { query, updates, prompt } = await prompting();
    query.emit(
      ...streamedThinking("msg_t2", 0),
      assistant("msg_t3", [{ type: "thinking", thinking: "", signature: "c2ln" }]),
      assistant("msg_t4", [{ type: "thinking", thinking: " \n ", signature: "c2ln" }]),
      result(),
    );
    await prompt;
    expect(thoughts(updates)).toEqual([]);
  });

  it("held whitespace does not cross into the next block's thought", async () => {
    const { query, updates, prompt } = await prompting();
    query.emit(
      ...streamedThinking("msg_t5", 0, "One.", "\n\n"),
      ...streamedThinking("msg_t5", 1, "Two."),
      result(),
    );
    await prompt;
    expect(thoughts(updates).join("")).toBe("One.Two.");
  });
});
