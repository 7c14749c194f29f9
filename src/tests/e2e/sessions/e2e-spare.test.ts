import { afterEach, describe, expect, it } from "vitest";
import { poll, startE2E, stopAllE2E, type E2E } from "../../support/e2e/index.js";

afterEach(stopAllE2E);

const READY = "spare: a prewarmed Claude Code process is ready";
const CLAIMED = "spare: the session claims the prewarmed process";
const MISMATCH = "spare: the prewarmed process does not match this session";

/** Waits until the agent's log shows `line` at least `times` times. */
async function logged(e2e: E2E, line: string, times = 1): Promise<void> {
  const seen = await poll(
    () => Promise.resolve(e2e.log().split(line).length - 1 >= times ? true : undefined),
    20_000,
  );
  expect(seen, `agent log shows "${line}" ${times}x`).toBe(true);
}

describe("a prewarmed Claude process keeps session/new fast", () => {
  it("a new session claims the ready spare, takes Claude's conversation id, and works", async () => {
    const e2e = await startE2E({
      scenario: [{ content: [{ type: "text", text: "Hello from the spare." }] }],
      env: { CLAUDE_AGENT_ACP_PREWARM: "1" },
    });
    await logged(e2e, READY);
    const { sessionId } = await e2e.newSession();
    expect(e2e.log()).toContain(CLAIMED);
    expect(await e2e.prompt(sessionId, "Say hello.")).toMatchObject({ stopReason: "end_turn" });
    const chunks = e2e.updates.of(sessionId, "agent_message_chunk");
    expect(chunks.map((u) => (u.content.type === "text" ? u.content.text : "")).join("")).toBe(
      "Hello from the spare.",
    );
    // The ACP id is Claude's id of the conversation: the saved session lists under it.
    const listed = await e2e.client.request("session/list", { cwd: e2e.cwd });
    expect(
      (listed as { sessions: Array<{ sessionId: string }> }).sessions.map((s) => s.sessionId),
    ).toContain(sessionId);
    // The spare is replaced after each claim.
    await logged(e2e, READY, 2);
  });

  it("a spare that does not match the session's options is not used", async () => {
    const e2e = await startE2E({
      scenario: [{ content: [{ type: "text", text: "Cold start." }] }],
      env: { CLAUDE_AGENT_ACP_PREWARM: "1" },
    });
    await logged(e2e, READY);
    // Session MCP servers are fixed when a process starts: a spare started without them must not serve.
    const { sessionId } = await e2e.newSession({
      cwd: e2e.cwd,
      // An http server nobody listens on: it fails to connect at once.
      mcpServers: [{ type: "http", name: "unused", url: "http://127.0.0.1:9/mcp", headers: [] }],
    });
    expect(e2e.log()).toContain(MISMATCH);
    expect(e2e.log()).not.toContain(CLAIMED);
    expect(await e2e.prompt(sessionId, "Hi.")).toMatchObject({ stopReason: "end_turn" });
  });
});
