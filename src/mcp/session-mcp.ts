import type { PromptResponse } from "@agentclientprotocol/sdk";
import type { SessionClient } from "../acp/session-client.js";
import type { ClaudeQuery, OnMcpElicitation } from "../claude/query.js";
import type { McpServerStatus } from "../claude/types.js";
import { log } from "../logger.js";
import { describeServer, describeServers, MCP_USAGE, type McpCommand } from "./command.js";
import { answerElicitation } from "./elicitation.js";

/** Marks the agent's own messages about MCP servers, so clients can tell them from Claude's. */
export const MCP_NOTICE_KIND = "mcpServer";

export interface SessionMcpContext {
  client: SessionClient;
  /** The running turn's signal: cancelling the turn withdraws an open elicitation. */
  turnSignal: () => AbortSignal | undefined;
  /** Tool calls still running, to tie an elicitation to the MCP tool call that asked. */
  openToolCalls: () => ReadonlyArray<{ id: string; name: string }>;
  /** The live Claude Code process, if any. */
  query: () => ClaudeQuery | undefined;
}

/** Claude Code's tool-name prefix for a server (`mcp__<server>__<tool>`), as it normalizes names. */
function toolPrefix(server: string): string {
  return `mcp__${server.replace(/[^a-zA-Z0-9_-]/g, "_")}__`;
}

/**
 * What a session does about MCP servers beyond passing them to Claude Code: their
 * elicitations, the `/mcp` command, and telling the user when one fails.
 */
export class SessionMcp {
  /** Servers whose failure was reported, so each failure is told once. */
  private readonly reported = new Set<string>();

  constructor(private readonly context: SessionMcpContext) {}

  readonly onElicitation: OnMcpElicitation = (request, signal) => {
    const turn = this.context.turnSignal();
    const prefix = toolPrefix(request.serverName);
    const asking = this.context
      .openToolCalls()
      .filter((call) => call.name.startsWith(prefix))
      .at(-1);
    return answerElicitation(
      this.context.client,
      request,
      asking ? { toolCallId: asking.id } : {},
      turn ? AbortSignal.any([signal, turn]) : signal,
    );
  };

  /** The server confirmed a URL elicitation's page was completed. */
  async elicitationComplete(elicitationId: string): Promise<void> {
    if (this.context.client.supportsUrlElicitation) {
      await this.context.client.completeElicitation(elicitationId);
    }
  }

  /**
   * Claude Code's view of its servers (`system/init`): a server that failed is reported,
   * with Claude Code's reason, once until it connects again.
   */
  async observe(servers: ReadonlyArray<{ name: string; status: string }>): Promise<void> {
    for (const server of servers) {
      if (server.status !== "failed" && server.status !== "needs-auth") {
        this.reported.delete(server.name);
      }
    }
    const fresh = servers.filter(
      (s) => (s.status === "failed" || s.status === "needs-auth") && !this.reported.has(s.name),
    );
    if (!fresh.length) return;
    let details: McpServerStatus[] = [];
    try {
      details = (await this.context.query()?.mcpServerStatus()) ?? [];
    } catch (error) {
      log.warn("could not read the MCP servers' status", error);
    }
    for (const server of fresh) {
      this.reported.add(server.name);
      const status = details.find((d) => d.name === server.name) ?? {
        name: server.name,
        status: server.status as McpServerStatus["status"],
      };
      await this.notice(`MCP server ${describeServer(status)}. \`/mcp\` shows every server.`);
    }
  }

  /** Runs `/mcp`: the answer is the agent's message, the turn ends at once. */
  async run(command: McpCommand, query: ClaudeQuery): Promise<PromptResponse> {
    await this.notice(await this.outcome(command, query));
    return { stopReason: "end_turn" };
  }

  private async outcome(command: McpCommand, query: ClaudeQuery): Promise<string> {
    if (command.action === "usage") return MCP_USAGE;
    const servers = await query.mcpServerStatus();
    if (command.action === "status") return describeServers(servers);
    const { server: name } = command;
    if (!servers.some((s) => s.name === name)) {
      return `No MCP server is named "${name}". ${describeServers(servers)}`;
    }
    try {
      if (command.action === "reconnect") await query.reconnectMcpServer(name);
      else await query.toggleMcpServer(name, command.action === "enable");
    } catch (error) {
      return `Could not ${command.action} "${name}": ${error instanceof Error ? error.message : String(error)}`;
    }
    const now = (await query.mcpServerStatus()).find((s) => s.name === name);
    return now ? describeServer(now) : `"${name}" is gone.`;
  }

  private notice(text: string): Promise<void> {
    return this.context.client.sendAgentText(text, undefined, {
      claudeCode: { kind: MCP_NOTICE_KIND },
    });
  }
}
