// End-to-end: what Claude Code tells the user apart from Claude's reply, with the real
// Claude Code. A retried API request is a warning notice for clients that declare
// `session.notices`, and otherwise an agent message of its own marked as a notice.
import { afterEach, describe, expect, it } from "vitest";
import type { ClientCapabilities } from "@agentclientprotocol/sdk";
import { shareAgents, startE2E, stopAllE2E } from "../../support/e2e/index.js";

afterEach(stopAllE2E);
shareAgents({ sessions: true });

/** Current Zed's handshake (client-signals.md), plus the notices signal. */
const ZED_WITH_NOTICES: ClientCapabilities = {
  fs: { readTextFile: true, writeTextFile: true },
  terminal: true,
  auth: { terminal: true },
  session: { configOptions: { boolean: {} }, notices: {} },
  _meta: { terminal_output: true, "terminal-auth": true },
};

/** Two overloaded answers, then the reply. */
const OVERLOADED_TWICE = [
  { fault: { type: "http" as const, status: 529, retryAfterSeconds: 0, repeat: 2 } },
  { content: [{ type: "text" as const, text: "Made it." }] },
];

describe("an API request Claude Code retries", () => {
  it("is a warning notice with the attempt and delay, before the turn ends end_turn", async () => {
    const e2e = await startE2E({
      scenario: OVERLOADED_TWICE,
      env: { CLAUDE_CODE_MAX_RETRIES: "3" },
      clientCapabilities: ZED_WITH_NOTICES,
    });
    const { sessionId } = await e2e.newSession();

    expect(await e2e.prompt(sessionId, "Try.")).toMatchObject({ stopReason: "end_turn" });

    const notices = e2e.updates.of(sessionId, "notice");
    expect(notices.length).toBeGreaterThanOrEqual(2);
    const [first] = notices;
    expect(first).toMatchObject({
      severity: "warning",
      _meta: { claudeCode: { kind: "api_retry" } },
    });
    expect(first?.title).toMatch(/^Retrying in \d+s \(attempt 1\/3\)$/);
    expect(first?.description).toContain("529");
    expect(e2e.updates.of(sessionId, "agent_message_chunk").map((u) => u.content)).toEqual([
      { type: "text", text: "Made it." },
    ]);
  });

  it("without the notices signal is an agent message of its own, marked _meta.claudeCode.kind", async () => {
    const e2e = await startE2E({
      scenario: OVERLOADED_TWICE,
      env: { CLAUDE_CODE_MAX_RETRIES: "3" },
      clientCapabilities: { ...ZED_WITH_NOTICES, session: { configOptions: { boolean: {} } } },
    });
    const { sessionId } = await e2e.newSession();

    expect(await e2e.prompt(sessionId, "Try.")).toMatchObject({ stopReason: "end_turn" });

    expect(e2e.updates.of(sessionId, "notice")).toEqual([]);
    const [retry, ...rest] = e2e.updates.of(sessionId, "agent_message_chunk");
    expect(retry?._meta).toEqual({ claudeCode: { kind: "api_retry", severity: "warning" } });
    expect(retry?.messageId).toMatch(/^notice-/);
    expect(retry?.content.type === "text" && retry.content.text).toMatch(
      /^Retrying in \d+s \(attempt 1\/3\)\n/,
    );
    expect(rest.at(-1)?.content).toEqual({ type: "text", text: "Made it." });
  });
});
