import type { AvailableCommand, ContentBlock } from "@agentclientprotocol/sdk";
import type { Notice } from "../acp/session-client.js";
import type { McpServerStatus } from "../claude/types.js";
import { cleanSingleLine } from "../util/text.js";

/**
 * `/mcp` as the agent runs it: Claude Code's own command prints only plain text in SDK
 * mode and refuses reconnect/enable/disable there, so the agent answers it through the
 * control API instead.
 */
export const MCP_COMMAND: AvailableCommand = {
  name: "mcp",
  description: "MCP servers: their status, or reconnect, enable, disable or sign in to one",
  input: { hint: "[reconnect|enable|disable|auth <server>]" },
};

const SERVER_ACTIONS = ["reconnect", "enable", "disable", "auth"] as const;
type ServerAction = (typeof SERVER_ACTIONS)[number];

/** Claude Code's own `/mcp` menu says "Authenticate": the long word works too. */
const ALIASES: Record<string, ServerAction> = { authenticate: "auth" };

export type McpCommand =
  { action: "status" } | { action: ServerAction; server: string } | { action: "usage" };

/** The prompt as an `/mcp` command, or undefined when it is anything else. */
export function parseMcpCommand(blocks: readonly ContentBlock[]): McpCommand | undefined {
  if (blocks.length !== 1 || blocks[0]!.type !== "text") return undefined;
  const match = /^\/mcp(?:\s+(.*))?$/s.exec(blocks[0]!.text.trim());
  if (!match) return undefined;
  const [action, ...rest] = (match[1] ?? "").trim().split(/\s+/).filter(Boolean);
  if (!action) return { action: "status" };
  const server = rest.join(" ");
  const known = ALIASES[action] ?? SERVER_ACTIONS.find((a) => a === action);
  return known && server ? { action: known, server } : { action: "usage" };
}

export const MCP_USAGE =
  "Usage: `/mcp` lists the MCP servers; `/mcp reconnect <server>`, `/mcp enable <server>` and `/mcp disable <server>` act on one; `/mcp auth <server>` signs in to one that needs authentication.";

/** How the user signs in to a server that needs authentication. */
export function signInHint(server: string): string {
  return `\`/mcp auth ${cleanSingleLine(server)}\` signs in to it.`;
}

/** Where the user sees every server's state. */
const MCP_STATUS_HINT = "`/mcp` shows every server.";

/**
 * An MCP server that failed to start (with Claude Code's reason) or needs authentication:
 * a warning, since the session goes on without its tools.
 */
export function mcpServerNotice(server: {
  name: string;
  status: string;
  error?: string | undefined;
}): Notice {
  const needsAuth = server.status === "needs-auth";
  return {
    kind: needsAuth ? "mcp_server_needs_auth" : "mcp_server_failed",
    severity: "warning",
    title: `MCP server ${server.name} ${needsAuth ? "needs authentication" : "failed"}`,
    description: [server.error, needsAuth ? signInHint(server.name) : MCP_STATUS_HINT]
      .filter(Boolean)
      .join("\n"),
  };
}

/** One server's state in words: what the user needs to act on it. */
export function describeServer(server: McpServerStatus): string {
  const name = `**${cleanSingleLine(server.name)}**`;
  switch (server.status) {
    case "connected": {
      const tools = server.tools?.length ?? 0;
      return `${name}: connected, ${tools} ${tools === 1 ? "tool" : "tools"}`;
    }
    case "failed":
      return `${name}: failed${server.error ? `: ${cleanSingleLine(server.error)}` : ""}`;
    case "needs-auth":
      return `${name}: needs authentication (\`/mcp auth ${cleanSingleLine(server.name)}\`)`;
    case "pending":
      return `${name}: connecting`;
    case "disabled":
      return `${name}: disabled`;
    default:
      return `${name}: ${cleanSingleLine(String(server.status))}`;
  }
}

/** The `/mcp` listing: every server Claude Code knows, with its state. */
export function describeServers(servers: readonly McpServerStatus[]): string {
  if (!servers.length) return "No MCP servers are configured.";
  return ["MCP servers:", ...servers.map((s) => `- ${describeServer(s)}`)].join("\n");
}
