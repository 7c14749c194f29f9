// Support for end-to-end tests of MCP servers as Claude Code users have them: the asking
// stdio fixture, what it received, and the session/new entry that starts it; a remote
// server that requires OAuth.
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { McpServer } from "@agentclientprotocol/sdk";
import type { E2E } from "../e2e/index.js";

/** `node <this>`: a stdio MCP server whose tools elicit (`ask_name`, `open_link`, and a hostile server's). */
export const ASKING_MCP_SERVER = fileURLToPath(
  new URL("../../fixtures/e2e-mcp/asking-mcp-server.mjs", import.meta.url),
);

/** Where the fixture logs every message it receives, inside the run's sandbox. */
export function mcpLogPath(e2e: E2E, name: string): string {
  return join(e2e.cwd, `${name}.mcp-log.jsonl`);
}

/** The asking server as a client passes it in `session/new`. */
export function askingServer(
  e2e: E2E,
  name = "asking",
  env: Record<string, string> = {},
): McpServer {
  return {
    name,
    command: process.execPath,
    args: [ASKING_MCP_SERVER],
    env: Object.entries({ MCP_LOG: mcpLogPath(e2e, name), ...env }).map(([n, value]) => ({
      name: n,
      value,
    })),
  };
}

/** Every JSON-RPC message the server named `name` received, in order. */
export function mcpReceived(e2e: E2E, name = "asking"): Array<Record<string, unknown>> {
  const path = mcpLogPath(e2e, name);
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The answers the server got to its own requests (its elicitations). */
export function elicitationAnswers(e2e: E2E, name = "asking"): unknown[] {
  return mcpReceived(e2e, name)
    .filter((m) => m.method === undefined && typeof m.id === "string")
    .map((m) => m.result ?? m.error);
}

/** The agent's messages of one `_meta.claudeCode.kind` (or kinds starting so), in order. */
function agentMessagesOfKind(e2e: E2E, sessionId: string, kind: (k: string) => boolean): string[] {
  return e2e.updates
    .of(sessionId, "agent_message_chunk")
    .filter((u) => kind((u._meta as { claudeCode?: { kind?: string } })?.claudeCode?.kind ?? ""))
    .map((u) => (u.content.type === "text" ? u.content.text : ""));
}

/** The agent's answers to `/mcp` (`_meta.claudeCode.kind: "mcpServer"`), in order. */
export function mcpNotices(e2e: E2E, sessionId: string): string[] {
  return agentMessagesOfKind(e2e, sessionId, (k) => k === "mcpServer");
}

/**
 * Notices of MCP servers that failed or need authentication, as a client without the
 * notices capability gets them (marked agent messages `mcp_server_…`), in order.
 */
export function mcpProblemNotices(e2e: E2E, sessionId: string): string[] {
  return agentMessagesOfKind(e2e, sessionId, (k) => k.startsWith("mcp_server_"));
}

export interface LockedMcpServer {
  /** Streamable HTTP endpoint; every request is refused 401 with OAuth metadata. */
  url: string;
  /** `METHOD path` of every request, in order. */
  readonly requests: string[];
  close(): Promise<void>;
}

/**
 * A remote MCP server on 127.0.0.1 that requires OAuth: the MCP endpoint answers 401
 * pointing at its protected-resource metadata, which names itself as the authorization
 * server (RFC 9728, RFC 8414 metadata). It authorizes no one.
 */
export async function startLockedMcpServer(): Promise<LockedMcpServer> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const json = (body: unknown) => {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    };
    if (req.url?.startsWith("/.well-known/oauth-protected-resource")) {
      return json({ resource: `${base}/mcp`, authorization_servers: [base] });
    }
    if (req.url?.startsWith("/.well-known/oauth-authorization-server")) {
      return json({
        issuer: base,
        authorization_endpoint: `${base}/authorize`,
        token_endpoint: `${base}/token`,
        registration_endpoint: `${base}/register`,
        response_types_supported: ["code"],
        code_challenge_methods_supported: ["S256"],
      });
    }
    res
      .writeHead(401, {
        "www-authenticate": `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource"`,
      })
      .end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
