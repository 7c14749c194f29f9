// End-to-end: a message over the agent's size limit (32 MiB by default) is answered with a
// JSON-RPC error and skipped; the agent and every session keep serving.
import { afterEach, describe, expect, it } from "vitest";
import { lastUserText, type TurnSpec } from "../scripted-api/index.js";
import { startE2E, stopAllE2E } from "./support/e2e/index.js";

afterEach(stopAllE2E);

const echo: TurnSpec = (request) => ({
  content: [{ type: "text", text: `reply to: ${lastUserText(request)}` }],
});

const MiB = 1024 * 1024;

describe("a message over the size limit", () => {
  it("a 33 MiB prompt gets -32600 with its id, the agent stays up, and the next prompt on the session works", async () => {
    const e2e = await startE2E({ scenario: [echo] });
    const { sessionId } = await e2e.newSession();
    const id = "raw-oversized-prompt";
    const from = e2e.transcript.entries.length;
    const big = {
      jsonrpc: "2.0",
      id,
      method: "session/prompt",
      params: { sessionId, prompt: [{ type: "text", text: "a".repeat(33 * MiB) }] },
    };

    await e2e.sendRaw(`${JSON.stringify(big)}\n`);
    const answer = await e2e.transcript.waitFor(
      (entry) => entry.direction === "from-agent" && entry.message?.id === id,
      { from, timeoutMs: 30_000, what: "the answer to the oversized prompt" },
    );

    expect(answer.message?.error).toMatchObject({
      code: -32600,
      message: expect.stringMatching(/over the agent's limit of 33554432 bytes/) as string,
    });
    expect(e2e.api.requests.filter((r) => JSON.stringify(r.body).includes("aaaa"))).toEqual([]);
    expect(await e2e.prompt(sessionId, "still there?")).toMatchObject({ stopReason: "end_turn" });
    const replies = e2e.updates
      .of(sessionId, "agent_message_chunk")
      .map((u) => (u.content.type === "text" ? u.content.text : ""))
      .join("");
    expect(replies).toContain("reply to: still there?");
    expect(e2e.agent.hasExited()).toBe(false);
  });

  it("follows CLAUDE_AGENT_ACP_MAX_MESSAGE_BYTES: with a 1 MiB limit a 2 MiB prompt gets the error", async () => {
    const e2e = await startE2E({ env: { CLAUDE_AGENT_ACP_MAX_MESSAGE_BYTES: String(MiB) } });
    const { sessionId } = await e2e.newSession();
    const response = await e2e.rawRequest("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "a".repeat(2 * MiB) }],
    });
    expect(response.error).toMatchObject({
      code: -32600,
      data: { maxMessageBytes: MiB },
    });
    expect(await e2e.prompt(sessionId, "small")).toMatchObject({ stopReason: "end_turn" });
  });
});
