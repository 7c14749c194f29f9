// Claude Code's messages for the user that are not Claude's reply become notices, with a
// severity that follows their meaning.
import { methods, type SessionNotification } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { result, sdkMessage } from "../../support/fake-claude.js";
import { fakeSession } from "../../support/fake-session.js";

const setup = () => fakeSession({ clientCapabilities: { session: { notices: {} } } });

const tick = (ms = 20) => new Promise((resolve) => setTimeout(resolve, ms));
const notices = (updates: SessionNotification[]) =>
  updates.map((n) => n.update).filter((u) => u.sessionUpdate === "notice");
const init = (mcpServers: Array<{ name: string; status: string }>) =>
  sdkMessage({ type: "system", subtype: "init", mcp_servers: mcpServers, capabilities: [] });

describe("notices", () => {
  it("an MCP server that failed to start is a warning, once however often init repeats it", async () => {
    const { query, updates } = await setup();
    query.emit(
      init([
        { name: "db", status: "failed" },
        { name: "ok", status: "connected" },
      ]),
    );
    query.emit(init([{ name: "db", status: "failed" }]));
    await tick();
    expect(notices(updates)).toEqual([
      {
        sessionUpdate: "notice",
        severity: "warning",
        title: "MCP server db failed",
        description: "`/mcp` shows every server.",
        _meta: { claudeCode: { kind: "mcp_server_failed", severity: "warning" } },
      },
    ]);
  });

  it("an informational message keeps its level: its first line is the title, the rest the description", async () => {
    const { query, updates } = await setup();
    query.emit(
      sdkMessage({
        type: "system",
        subtype: "informational",
        level: "warning",
        content: "Fast mode is off\nThe model fell back to the standard speed.",
      }),
    );
    await tick();
    expect(notices(updates)).toMatchObject([
      {
        severity: "warning",
        title: "Fast mode is off",
        description: "The model fell back to the standard speed.",
        _meta: { claudeCode: { kind: "informational" } },
      },
    ]);
  });

  it("a failed hook is a warning naming the hook; a successful one says nothing", async () => {
    const { query, updates } = await setup();
    const hook = (outcome: string) =>
      sdkMessage({
        type: "system",
        subtype: "hook_response",
        hook_id: "h",
        hook_name: "lint",
        hook_event: "PostToolUse",
        output: "",
        stdout: "",
        stderr: "lint: 3 problems",
        outcome,
      });
    query.emit(hook("success"), hook("error"));
    await tick();
    expect(notices(updates)).toMatchObject([
      {
        severity: "warning",
        title: "PostToolUse hook lint failed",
        description: "lint: 3 problems",
      },
    ]);
  });

  it("a turn Claude Code started itself that fails is an error notice (no prompt carries it)", async () => {
    const { query, updates, agent, sessionId } = await setup();
    query.emit(
      result({
        isError: true,
        text: "API Error: 500 Internal server error",
        extra: { origin: { kind: "task-notification" } },
      }),
    );
    await tick();
    expect(notices(updates)).toMatchObject([
      { severity: "error", title: "API Error: 500 Internal server error" },
    ]);
    // The session goes on: the next prompt runs.
    const prompt = agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "again" }],
    });
    await query.waitForSent(1);
    query.emit(result());
    expect(await prompt).toMatchObject({ stopReason: "end_turn" });
  });
});
