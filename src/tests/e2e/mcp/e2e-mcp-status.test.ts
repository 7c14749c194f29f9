// End-to-end: MCP servers' state as the user sees it, against the real Claude Code. A
// server that fails to start is reported (a notice; for this client, without the notices
// capability, an agent message marked `_meta.claudeCode.kind: "mcp_server_failed"`); `/mcp` lists every server with its state, and
// `/mcp reconnect|enable|disable` act through Claude Code's control API (its own command
// refuses them in SDK mode). None of it reaches the model.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type E2E, shareAgents, startE2E, stopAllE2E } from "../../support/e2e/index.js";
import { askingServer, mcpNotices, mcpProblemNotices } from "../../support/e2e-mcp/index.js";
import { STDIO_MCP_SERVER } from "../../support/e2e-turns/index.js";

afterEach(stopAllE2E);
shareAgents({ sessions: true });

const ECHO = { name: "echo", command: process.execPath, args: [STDIO_MCP_SERVER], env: [] };

/** Runs a `/mcp` command and returns the agent's answer. */
async function mcp(e2e: E2E, sessionId: string, command: string): Promise<string | undefined> {
  expect(await e2e.prompt(sessionId, command)).toMatchObject({ stopReason: "end_turn" });
  return mcpNotices(e2e, sessionId).at(-1);
}

describe("MCP servers' state", () => {
  it("a server that fails to start is reported at once with Claude Code's reason; /mcp lists it, and reconnects it once it is fixed", async () => {
    const e2e = await startE2E();
    const config = join(e2e.cwd, "broken-server-config");
    const { sessionId } = await e2e.newSession({
      mcpServers: [askingServer(e2e, "broken", { MCP_FAIL_UNLESS: config }), ECHO],
    });

    // Reported without waiting for a prompt, and only once (the first turn sees it too).
    await e2e.updates.waitFor(sessionId, "agent_message_chunk");
    expect(await e2e.prompt(sessionId, "Hello.")).toMatchObject({ stopReason: "end_turn" });
    expect(mcpProblemNotices(e2e, sessionId)).toEqual([
      "MCP server broken failed\nConnection closed\n`/mcp` shows every server.\n",
    ]);

    const modelRequests = e2e.api.requests.length;
    expect(await mcp(e2e, sessionId, "/mcp")).toBe(
      "MCP servers:\n- **broken**: failed: Connection closed\n- **echo**: connected, 2 tools",
    );
    writeFileSync(config, "{}");
    expect(await mcp(e2e, sessionId, "/mcp reconnect broken")).toBe(
      "**broken**: connected, 2 tools",
    );
    expect(e2e.api.requests.length).toBe(modelRequests);
  });

  it("/mcp disable and /mcp enable switch a server off and on; the commands list offers /mcp with its arguments", async () => {
    const e2e = await startE2E();
    const { sessionId } = await e2e.newSession({ mcpServers: [ECHO] });

    expect(await mcp(e2e, sessionId, "/mcp disable echo")).toBe("**echo**: disabled");
    expect(await mcp(e2e, sessionId, "/mcp enable echo")).toBe("**echo**: connected, 2 tools");
    expect(await mcp(e2e, sessionId, "/mcp restart echo")).toContain("Usage: `/mcp`");
    expect(await mcp(e2e, sessionId, "/mcp reconnect nobody")).toContain(
      'No MCP server is named "nobody".',
    );
    expect(e2e.api.requests).toHaveLength(0);

    const commands = e2e.updates.of(sessionId, "available_commands_update").at(-1);
    expect(commands?.availableCommands.filter((c) => c.name === "mcp")).toEqual([
      {
        name: "mcp",
        description: "MCP servers: their status, or reconnect, enable, disable or sign in to one",
        input: { hint: "[reconnect|enable|disable|auth <server>]" },
      },
    ]);
  });
});
