// End-to-end: a remote MCP server that requires OAuth, against the real Claude Code. The
// user is told it needs authentication, at once and in `/mcp`.
import { afterEach, describe, expect, it } from "vitest";
import { startE2E, stopAllE2E } from "./support/e2e/index.js";
import { mcpNotices, mcpProblemNotices, startLockedMcpServer } from "./support/e2e-mcp/index.js";

afterEach(stopAllE2E);

describe("a remote MCP server that requires OAuth", () => {
  it("is reported as needing authentication, at once and in /mcp", async () => {
    const locked = await startLockedMcpServer();
    try {
      const e2e = await startE2E();
      const { sessionId } = await e2e.newSession({
        mcpServers: [{ type: "http", name: "locked", url: locked.url, headers: [] }],
      });

      await e2e.updates.waitFor(sessionId, "agent_message_chunk");
      expect(mcpProblemNotices(e2e, sessionId)).toEqual([
        "MCP server locked needs authentication\n`/mcp auth locked` signs in to it.\n",
      ]);
      expect(await e2e.prompt(sessionId, "/mcp")).toMatchObject({ stopReason: "end_turn" });
      expect(mcpNotices(e2e, sessionId).at(-1)).toBe(
        "MCP servers:\n- **locked**: needs authentication (`/mcp auth locked`)",
      );
      // Claude Code found the authorization server through the server's metadata.
      expect(locked.requests).toContain("GET /.well-known/oauth-authorization-server");
    } finally {
      await stopAllE2E();
      await locked.close();
    }
  });
});
