import type { McpServer } from "@agentclientprotocol/sdk";
import type { McpServerConfig } from "../../claude/types.js";
import { InvalidParamsError } from "../../errors.js";

const headersOf = (headers: ReadonlyArray<{ name: string; value: string }>) =>
  Object.fromEntries(headers.map(({ name, value }) => [name, value]));

/** The client's MCP servers, keyed by name as Claude Code takes them. */
export function mcpServersToClaude(servers: readonly McpServer[]): Record<string, McpServerConfig> {
  const result: Record<string, McpServerConfig> = {};
  for (const server of servers) {
    if (!server.name.trim()) throw new InvalidParamsError("An MCP server has an empty name.");
    if (server.name in result) {
      throw new InvalidParamsError(`Two MCP servers are named "${server.name}".`);
    }
    if ("type" in server && server.type === "http") {
      result[server.name] = { type: "http", url: server.url, headers: headersOf(server.headers) };
    } else if ("type" in server && server.type === "sse") {
      result[server.name] = { type: "sse", url: server.url, headers: headersOf(server.headers) };
    } else {
      result[server.name] = {
        type: "stdio",
        command: server.command,
        args: server.args,
        env: headersOf(server.env),
      };
    }
  }
  return result;
}
