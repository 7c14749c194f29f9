// End-to-end: Anthropic API faults under the real Claude Code (CLAUDE_CODE_MAX_RETRIES=0, the
// harness default). A fault ends the prompt with a JSON-RPC error, never a hang, and the same
// session serves the next prompt.
import { methods } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { lastUserText, type HttpFault } from "../../scripted-api/index.js";
import { type E2E, shareAgents, startE2E, stopAllE2E, timed } from "../support/e2e/index.js";
import { chunkText, promptError, textOf } from "../support/e2e-turns/index.js";

afterEach(stopAllE2E);
shareAgents({ sessions: true });

const RECOVERED = { content: [{ type: "text" as const, text: "Back to normal." }] };

/** The next prompt on the same session is served normally. */
async function expectNextPromptWorks(e2e: E2E, sessionId: string): Promise<void> {
  expect(await e2e.prompt(sessionId, "Try again.")).toMatchObject({ stopReason: "end_turn" });
  expect(lastUserText(e2e.api.lastMainRequest()!)).toContain("Try again.");
  expect(chunkText(e2e, sessionId, "agent_message_chunk")).toContain("Back to normal.");
}

/** Claude Code's made-up error message never reaches the client as Claude's words. */
function expectNoErrorText(e2e: E2E, sessionId: string): void {
  expect(chunkText(e2e, sessionId, "agent_message_chunk")).not.toContain("API Error");
}

/** The session's state in session/list (`_meta.claudeCode.state`). */
async function listedState(e2e: E2E, sessionId: string): Promise<string | undefined> {
  const { sessions } = await e2e.client.request(methods.agent.session.list, { cwd: e2e.cwd });
  const row = sessions.find((s) => s.sessionId === sessionId);
  return (row?._meta?.claudeCode as { state?: string } | undefined)?.state;
}

describe("HTTP errors from the API", () => {
  // `data.error` is Claude Code's classification of the failure, `kind` the agent's
  // (account-errors.ts), `status` the HTTP status Claude Code's sentence names.
  const cases: Array<{ fault: HttpFault; says: string | RegExp; data: Record<string, unknown> }> = [
    {
      fault: { type: "http", status: 529 },
      says: "529 Overloaded",
      data: { error: "server_error", kind: "overloaded", status: 529 },
    },
    {
      fault: { type: "http", status: 500, message: "Scripted internal failure" },
      says: "500 Scripted internal failure",
      data: { error: "server_error", kind: "server_error", status: 500 },
    },
    {
      fault: { type: "http", status: 429, retryAfterSeconds: 0 },
      says: /429.*Number of request tokens has exceeded your per-minute rate limit/,
      data: { error: "rate_limit", kind: "rate_limit", status: 429 },
    },
  ];
  for (const { fault, says, data } of cases) {
    it(`ends the prompt with a JSON-RPC error carrying Anthropic's message on ${fault.status}, the listing says the session failed, and the next prompt works`, async () => {
      const e2e = await startE2E({ scenario: [{ fault }, RECOVERED] });
      const { sessionId } = await e2e.newSession();

      const error = await promptError(e2e, e2e.prompt(sessionId, "Hello?"));

      expect(error.code).toBe(-32603);
      expect(error.message).toMatch(says);
      expect(error.data).toEqual(data);
      expect(e2e.api.mainRequests()).toHaveLength(1); // no retries
      expectNoErrorText(e2e, sessionId);
      expect(await listedState(e2e, sessionId)).toBe("failed");
      await expectNextPromptWorks(e2e, sessionId);
      expect(await listedState(e2e, sessionId)).toBe("idle");
    });
  }

  it("ends the prompt with authRequired (-32000) on 401, and the next prompt works once the key is accepted", async () => {
    const e2e = await startE2E({ scenario: [{ fault: { type: "http", status: 401 } }, RECOVERED] });
    const { sessionId } = await e2e.newSession();

    const { value: error, ms } = await timed(promptError(e2e, e2e.prompt(sessionId, "Hello?")));

    expect(error.code).toBe(-32000);
    expect(error.message).toMatch(/Invalid API key/);
    expect(ms).toBeLessThan(10_000);
    expectNoErrorText(e2e, sessionId);
    await expectNextPromptWorks(e2e, sessionId);
  });
});

describe("no API key", () => {
  it("ends every prompt with authRequired (-32000) without calling the model, never a hang", async () => {
    const e2e = await startE2E({ env: { ANTHROPIC_API_KEY: undefined } });
    const { sessionId } = await e2e.newSession();

    const { value: error, ms } = await timed(promptError(e2e, e2e.prompt(sessionId, "Hello?")));

    expect(error.code).toBe(-32000);
    expect(error.message).toMatch(/Not logged in/);
    expect(ms).toBeLessThan(10_000);
    expect(await promptError(e2e, e2e.prompt(sessionId, "Still there?"))).toMatchObject({
      code: -32000,
    });
    expect(e2e.api.requests.filter((r) => r.path === "/v1/messages")).toEqual([]);
  });
});

describe("a stream cut mid-message", () => {
  it("is retried once by Claude Code: the prompt ends end_turn with the retried answer", async () => {
    const e2e = await startE2E({
      scenario: [
        {
          content: [{ type: "text", text: "Words that never finish", chunks: 4 }],
          fault: { type: "cut" },
        },
        RECOVERED,
      ],
    });
    const { sessionId } = await e2e.newSession();

    expect(await e2e.prompt(sessionId, "Hello?")).toMatchObject({ stopReason: "end_turn" });

    const [cut, retry] = e2e.api.mainRequests();
    expect(lastUserText(retry!)).toBe(lastUserText(cut!)); // the same request again
    const chunks = e2e.updates.of(sessionId, "agent_message_chunk");
    const shown = chunks.map((c) => textOf(c.content)).join("");
    // Streamed deltas cannot be taken back: the cut message's first delta, when Claude Code
    // emitted it before the connection dropped, stays in front, under its own message id.
    expect(["Back to normal.", "Words Back to normal."]).toContain(shown);
    if (shown.startsWith("Words ")) {
      expect(chunks[0]?.messageId).not.toBe(chunks.at(-1)?.messageId);
    }
  });

  it("ends the prompt with a JSON-RPC error when the retry is cut too, and the next prompt works", async () => {
    const e2e = await startE2E({
      scenario: [
        {
          content: [{ type: "text", text: "Words that never finish", chunks: 4 }],
          fault: { type: "cut", repeat: 2 },
        },
        RECOVERED,
      ],
    });
    const { sessionId } = await e2e.newSession();

    const error = await promptError(e2e, e2e.prompt(sessionId, "Hello?"));

    expect(error.code).toBe(-32603);
    expect(error.message).toMatch(/Connection to the API was lost/);
    expect(e2e.api.mainRequests()).toHaveLength(2);
    await expectNextPromptWorks(e2e, sessionId);
  });
});
