import type * as v1 from "@agentclientprotocol/sdk";
import * as v2 from "@agentclientprotocol/sdk/experimental/v2/unstable";
import type { OpenParams } from "../../core/opening.js";
import { InvalidParamsError } from "../../errors.js";
import { AGENT_CAPABILITIES_V2 } from "./capabilities.js";

/**
 * v2 request params as the core takes them (v1's shapes), and what v2 asks that v1 does
 * not: a replay cursor, a typed config value.
 */

/**
 * The environment of new, resume and fork: MCP servers carry a `type` in v2 (`stdio`
 * too) and may leave out their empty lists; a transport this agent does not advertise
 * is refused with -32602, as the SDK checks it.
 */
export function openParams(params: {
  cwd: string;
  mcpServers?: v2.McpServer[];
  additionalDirectories?: string[];
  systemPrompt?: v2.SystemPrompt | null;
  _meta?: Record<string, unknown> | null;
}): OpenParams {
  v2.assertSupportedMcpServers(params.mcpServers, AGENT_CAPABILITIES_V2.session?.mcp);
  return {
    cwd: params.cwd,
    mcpServers: (params.mcpServers ?? []).map(toV1McpServer),
    additionalDirectories: params.additionalDirectories ?? [],
    ...(params.systemPrompt ? { systemPrompt: params.systemPrompt } : {}),
    ...(params._meta ? { _meta: params._meta } : {}),
  };
}

function toV1McpServer(server: v2.McpServer): v1.McpServer {
  if (server.type === "http" && "url" in server) {
    const { name, url, headers } = server as v2.McpServerHttp;
    return { type: "http", name, url, headers: headers ?? [] };
  }
  const { name, command, args, env } = server as v2.McpServerStdio;
  return { name, command, args: args ?? [], env: env ?? [] };
}

/** `replayFrom`: absent, or from the start; any other cursor is refused (-32602). */
export function replays(replayFrom: v2.ReplayFrom | null | undefined): boolean {
  if (replayFrom == null) return false;
  if (replayFrom.type === "start") return true;
  throw new InvalidParamsError(`Unsupported replay cursor "${replayFrom.type}".`, {
    replayFrom: replayFrom.type,
  });
}

/** A config value: an option value id or a boolean, as its `type` says. */
export function configValue(params: v2.SetSessionConfigOptionRequest): string | boolean {
  if (params.type === "id" && typeof params.value === "string") return params.value;
  if (params.type === "boolean" && typeof params.value === "boolean") return params.value;
  throw new InvalidParamsError(`Unsupported config value type "${params.type}".`, {
    configId: params.configId,
    type: params.type,
  });
}

/** The prompt's blocks: v2's known types have v1's shapes; others are refused downstream. */
export function promptBlocks(prompt: v2.ContentBlock[]): v1.ContentBlock[] {
  return prompt as v1.ContentBlock[];
}
