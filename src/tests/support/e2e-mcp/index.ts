// Support for end-to-end tests of MCP servers as Claude Code users have them: the asking
// stdio fixture, what it received, and the session/new entry that starts it.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { McpServer } from "@agentclientprotocol/sdk";
import type { E2E } from "../e2e/index.js";

/** `node <this>`: a stdio MCP server whose tools `ask_name` and `open_link` elicit. */
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
