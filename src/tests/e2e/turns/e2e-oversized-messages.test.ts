// End-to-end: a message over the agent's size limit (32 MiB by default) is answered with a
// JSON-RPC error and skipped; the agent and every session keep serving. A client's answer over
// the limit is never answered: the agent's request fails instead.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { lastToolResults, lastUserText, type TurnSpec } from "../../../scripted-api/index.js";
import { shareAgents, startE2E, stopAllE2E, timed } from "../../support/e2e/index.js";

afterEach(stopAllE2E);
shareAgents({ sessions: true });

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

  it("a client's answer to a permission ask over the limit gets no error response: the ask ends as cancelled, nothing runs, the turn goes on", async () => {
    const e2e = await startE2E({
      scenario: [
        { content: [{ type: "tool_use", name: "Bash", input: { command: "touch ran.txt" } }] },
        { content: [{ type: "text", text: "After the ask." }] },
      ],
      env: { CLAUDE_AGENT_ACP_MAX_MESSAGE_BYTES: String(MiB) },
      // An allow that would run the command, were it read.
      permission: { answer: "select", optionId: "allow-once", meta: { pad: "a".repeat(2 * MiB) } },
    });
    const { sessionId } = await e2e.newSession();

    const { value: response, ms } = await timed(
      Promise.race([
        e2e.prompt(sessionId, "Touch ran.txt."),
        new Promise<"hung">((resolve) => setTimeout(() => resolve("hung"), 15_000)),
      ]),
    );

    expect(response).toMatchObject({ stopReason: "end_turn" });
    expect(ms).toBeLessThan(15_000);
    const asks = e2e.transcript.calls("session/request_permission", "from-agent");
    expect(asks).toHaveLength(1);
    // Nothing from the agent carries the ask's id after it (the client's ids are numbers too).
    const ask = asks[0]!;
    const reused = e2e.transcript.entries.filter(
      (e) =>
        e.seq > ask.seq &&
        e.direction === "from-agent" &&
        e.message?.method === undefined &&
        e.message?.id === ask.message?.id,
    );
    expect(reused).toEqual([]);
    expect(existsSync(join(e2e.cwd, "ran.txt"))).toBe(false);
    const results = e2e.api.mainRequests().flatMap((request) => lastToolResults(request));
    expect(results).toEqual([
      expect.objectContaining({ is_error: true, text: "Tool use aborted" }),
    ]);
    expect(e2e.log()).toMatch(/answer to the permission request for \S+ was over the limit/);
  });
});
