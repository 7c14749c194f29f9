// End-to-end: a remote MCP server that requires OAuth, against the real Claude Code. The
// user is told it needs authentication, at once and in `/mcp`; `/mcp auth <server>` signs
// in through URL elicitation (the test plays the authorization server and the user's
// browser), and the server's tool is usable in the same session.
import { methods, type CreateElicitationRequest } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { lastToolResults } from "../../../scripted-api/index.js";
import { poll, shareAgents, startE2E, stopAllE2E } from "../../support/e2e/index.js";
import {
  mcpNotices,
  mcpProblemNotices,
  startLockedMcpServer,
} from "../../support/e2e-mcp/index.js";
import {
  OAUTH_TOOL,
  OAUTH_TOOL_ANSWER,
  startOAuthMcpServer,
} from "../../support/e2e-mcp/oauth-mcp-server.js";

afterEach(stopAllE2E);
shareAgents({ sessions: true });

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

  it("is signed in to with /mcp auth through URL elicitation, and its tool works in the same session", async () => {
    const remote = await startOAuthMcpServer();
    const elicitations: CreateElicitationRequest[] = [];
    const completed: string[] = [];
    const browser: Array<Promise<number>> = [];
    try {
      const e2e = await startE2E({
        scenario: [
          {
            content: [
              {
                type: "tool_use",
                id: "toolu_whoami",
                name: `mcp__remote__${OAUTH_TOOL}`,
                input: {},
              },
            ],
          },
          { content: [{ type: "text", text: "Done." }] },
        ],
        permission: { answer: "select", optionId: "allow-once" },
        clientCapabilities: { elicitation: { url: {} } },
        extendClient: (app) =>
          app
            .onRequest(methods.client.elicitation.create, ({ params }) => {
              elicitations.push(params);
              // The client opens the page in the user's browser, who approves.
              if ("url" in params && typeof params.url === "string")
                browser.push(remote.visit(params.url));
              return Promise.resolve({ action: "accept" });
            })
            .onNotification(methods.client.elicitation.complete, ({ params }) => {
              completed.push(params.elicitationId);
            }),
      });
      const { sessionId } = await e2e.newSession({
        mcpServers: [{ type: "http", name: "remote", url: remote.url, headers: [] }],
      });
      await e2e.updates.waitFor(sessionId, "agent_message_chunk");

      expect(await e2e.prompt(sessionId, "/mcp auth remote")).toEqual({
        stopReason: "end_turn",
      });

      expect(elicitations).toEqual([
        expect.objectContaining({
          sessionId,
          mode: "url",
          message: 'Sign in to MCP server "remote"',
        }),
      ]);
      const { url, elicitationId } = elicitations[0] as { url: string; elicitationId: string };
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/authorize\?/);
      // Claude Code's own callback received the redirect from the authorization server.
      expect(await Promise.all(browser)).toEqual([200]);
      expect(completed).toEqual([elicitationId]);
      expect(mcpNotices(e2e, sessionId).at(-1)).toBe("**remote**: connected, 1 tool");
      expect(remote.requests).toContain("POST /register");
      expect(remote.requests).toContain("POST /token");

      // Same session, same Claude Code process: the model calls the server's tool.
      expect(await e2e.prompt(sessionId, "Who am I?")).toMatchObject({ stopReason: "end_turn" });
      const result = e2e.api
        .mainRequests()
        .flatMap((r) => lastToolResults(r))
        .find((r) => r.tool_use_id === "toolu_whoami");
      expect(result?.text).toBe(OAUTH_TOOL_ANSWER);
      expect(remote.mcpMethods).toContain("tools/call");
    } finally {
      await stopAllE2E();
      await remote.close();
    }
  });

  it("gives a client without URL elicitation the page as text; signing in there connects the server", async () => {
    const remote = await startOAuthMcpServer();
    try {
      const e2e = await startE2E();
      const { sessionId } = await e2e.newSession({
        mcpServers: [{ type: "http", name: "remote", url: remote.url, headers: [] }],
      });
      await e2e.updates.waitFor(sessionId, "agent_message_chunk");

      expect(await e2e.prompt(sessionId, "/mcp auth remote")).toEqual({
        stopReason: "end_turn",
      });
      const answer = mcpNotices(e2e, sessionId).at(-1) ?? "";
      const page = /open this page: (\S+)/.exec(answer)?.[1];
      expect(page).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/authorize\?/);

      // The user opens it by hand after the turn ended; Claude Code still waits for it.
      expect(await remote.visit(page!)).toBe(200);
      const listing = await poll(
        async () => {
          await e2e.prompt(sessionId, "/mcp");
          const now = mcpNotices(e2e, sessionId).at(-1);
          return now?.includes("connected") ? now : undefined;
        },
        20_000,
        250,
      );
      expect(listing).toBe("MCP servers:\n- **remote**: connected, 1 tool");
    } finally {
      await stopAllE2E();
      await remote.close();
    }
  });
});
