// AIR's typed failure report (issue 52): for a client that declared `sessionFailure`, a turn that
// fails ends `end_turn` with `_meta.jetbrains.air.sessionFailure` (its category, the actions
// that end it here, Claude Code's sentence cleaned), and a Claude Code that cannot start is
// reported at once, under the id its prompt then reports again. A sign-in stays auth_required;
// every other client gets the JSON-RPC error it always got.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  methods,
  type InitializeRequest,
  type SessionNotification,
} from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { initializeResponse } from "../../../acp/capabilities.js";
import { AIR, ZED } from "../../support/client-handshakes.js";
import {
  assistant,
  authenticationFailure,
  fakeClaudeStartedByTest,
  result,
} from "../../support/fake-claude.js";
import { connectInProcess } from "../../support/in-process.js";

/** AIR's handshake, declaring the failure report beside what it declares already. */
const AIR_FAILURES: InitializeRequest = {
  ...AIR,
  clientCapabilities: {
    ...AIR.clientCapabilities,
    _meta: {
      jetbrains: { air: { version: 1, capabilities: ["sessionIndex", "sessionFailure"] } },
    },
  },
};

let cleanup: Array<() => void> = [];
afterEach(() => {
  cleanup.forEach((fn) => fn());
  cleanup = [];
});

/** A client of this handshake; each fake Claude Code starts when the test resolves its start. */
async function connect(handshake: InitializeRequest) {
  const claude = fakeClaudeStartedByTest();
  const { startQuery, starts } = claude;
  const harness = await connectInProcess({
    startQuery,
    clientCapabilities: handshake.clientCapabilities ?? {},
  });
  cleanup.push(() => harness.close());
  const cwd = mkdtempSync(join(tmpdir(), "acp-air-failure-"));
  const { sessionId } = await harness.agent.request(methods.agent.session.new, {
    cwd,
    mcpServers: [],
  });
  const prompt = (text: string) =>
    harness.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text }],
    });
  return { ...harness, claude, starts, sessionId, prompt };
}

/** A turn that Claude Code ends with the API error it reported. */
async function failedTurn(handshake: InitializeRequest, error: string, sentence: string) {
  const harness = await connect(handshake);
  harness.starts[0]!.resolve({ commands: [], models: [] });
  const answer = harness.prompt("Hello?");
  const query = harness.claude.started[0]!;
  await query.waitForSent(1);
  query.emit(assistant("m1", [{ type: "text", text: sentence }], { error }));
  query.emit(result({ isError: true, text: sentence }));
  return { ...harness, answer };
}

const failureOf = (answer: { _meta?: unknown } | undefined) =>
  (answer?._meta as { jetbrains?: { air?: { sessionFailure?: Record<string, unknown> } } })
    ?.jetbrains?.air?.sessionFailure;

describe("AIR's sessionFailure", () => {
  it("is advertised to AIR, and to no other client", () => {
    expect(
      (initializeResponse(AIR_FAILURES)._meta as { jetbrains: { air: { capabilities: string[] } } })
        .jetbrains.air.capabilities,
    ).toContain("sessionFailure");
    expect(JSON.stringify(initializeResponse(ZED))).not.toContain("sessionFailure");
  });

  it("a turn the API failed ends end_turn with the typed report: its category, the actions that end it here, Claude Code's sentence cleaned", async () => {
    const { answer } = await failedTurn(
      AIR_FAILURES,
      "server_error",
      "API Error: 529 \u001b[31mOverloaded\u202e\nTry again later.",
    );
    const response = await answer;
    expect(response.stopReason).toBe("end_turn");
    expect(failureOf(response)).toEqual({
      id: expect.any(String) as unknown,
      revision: 1,
      category: "service",
      severity: "error",
      title: "API Error: 529 Overloaded",
      details: "Try again later.",
      actions: ["retry"],
    });
    expect(response._meta).toMatchObject({ jetbrains: { air: { version: 1 } } });
  });

  it("the account's failures (billing, a usage limit) are limits no retry ends", async () => {
    const { answer } = await failedTurn(
      AIR_FAILURES,
      "billing_error",
      "Your credit balance is too low",
    );
    expect(failureOf(await answer)).toMatchObject({ category: "limit", actions: [] });
  });

  it("a sign-in the agent needs stays auth_required (-32000), which starts AIR's login", async () => {
    const harness = await connect(AIR_FAILURES);
    harness.starts[0]!.resolve({ commands: [], models: [] });
    const answer = harness.prompt("Hello?");
    const query = harness.claude.started[0]!;
    await query.waitForSent(1);
    authenticationFailure("Invalid API key · Please run /login").forEach((m) => query.emit(m));
    await expect(answer).rejects.toMatchObject({ code: -32000 });
  });

  it("Zed, and AIR without declaring it, get the JSON-RPC error as before, with no AIR key", async () => {
    const withoutFailures: InitializeRequest = {
      ...AIR,
      clientCapabilities: {
        ...AIR.clientCapabilities,
        _meta: { jetbrains: { air: { version: 1, capabilities: ["sessionIndex"] } } },
      },
    };
    for (const handshake of [ZED, withoutFailures]) {
      const { answer } = await failedTurn(handshake, "server_error", "API Error: 529 Overloaded");
      await expect(answer).rejects.toMatchObject({ code: -32603 });
    }
  });

  it("a Claude Code that cannot start is reported at once; the prompt then reports it again under its id; a retry starts it anew", async () => {
    const { starts, claude, updates, sessionId, prompt } = await connect(AIR_FAILURES);
    starts[0]!.reject(new Error("Claude Code process exited with code 1: settings are invalid"));
    const reported = () =>
      updates
        .filter((n: SessionNotification) => n.sessionId === sessionId)
        .map((n) => n.update)
        .filter((u) => u.sessionUpdate === "session_info_update");
    await expect.poll(() => reported().length).toBe(1);
    const early = failureOf(reported()[0])!;
    expect(early).toMatchObject({
      revision: 1,
      category: "service",
      severity: "error",
      actions: ["retry", "new_session"],
    });
    expect(early.title).toContain("settings are invalid");
    expect(updates.some((n) => n.update.sessionUpdate === "agent_message_chunk")).toBe(false);

    const failed = await prompt("Hello?");
    expect(failed.stopReason).toBe("end_turn");
    expect(failureOf(failed)).toMatchObject({ id: early.id, revision: 2 });

    const retry = prompt("Again.");
    await expect.poll(() => claude.started.length).toBe(2);
    await claude.started[1]!.waitForSent(1);
    starts[1]!.resolve({ commands: [], models: [] });
    claude.started[1]!.emit(result());
    const answered = await retry;
    expect(answered.stopReason).toBe("end_turn");
    expect(failureOf(answered)).toBeUndefined();
  });
});
