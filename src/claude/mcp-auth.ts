import type { Query } from "@anthropic-ai/claude-agent-sdk";
import { z } from "zod";
import type { McpSignIn } from "./query.js";

/** The SDK's `mcp_authenticate` control request: server name, then an optional redirect URI. */
type McpAuthenticate = (serverName: string) => Promise<unknown>;

/** What Claude Code answers `mcp_authenticate` (only what the agent uses). */
const answer = z.looseObject({ authUrl: z.string().optional() });

/**
 * Starts Claude Code's OAuth sign-in to one MCP server. The SDK's Query sends
 * `mcp_authenticate` at run time but its type declarations do not name the method yet:
 * it is looked up, and a Query without it signs in to nothing. No redirect URI is passed,
 * so Claude Code serves the authorization's redirect itself (on localhost) and reconnects
 * the server once it holds a token.
 */
export async function authenticateMcpServer(q: Query, name: string): Promise<McpSignIn> {
  if (!("mcpAuthenticate" in q) || typeof q.mcpAuthenticate !== "function") {
    throw new Error("this Claude Agent SDK cannot sign in to MCP servers");
  }
  const authenticate = q.mcpAuthenticate as McpAuthenticate;
  const parsed = answer.safeParse(await authenticate.call(q, name));
  if (!parsed.success) throw new Error("Claude Code answered the sign-in request unreadably");
  return parsed.data.authUrl ? { authorizationUrl: parsed.data.authUrl } : {};
}
