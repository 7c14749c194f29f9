import type { PromptResponse } from "@agentclientprotocol/sdk";
import type { SessionClient } from "../acp/session-client.js";
import type { ClaudeQuery, OnMcpElicitation } from "../claude/query.js";
import type { McpServerStatus } from "../claude/types.js";
import { log } from "../logger.js";
import {
  describeServer,
  describeServers,
  MCP_USAGE,
  mcpServerNotice,
  type McpCommand,
} from "./command.js";
import { answerElicitation, elicitationId } from "./elicitation.js";
import { signIn, type SignInOutcome } from "./sign-in.js";
import { withLinkedSignal } from "../util/linked-signal.js";

/** How long after start servers may still be connecting before failures are reported. */
const START_SETTLE_MS = 30_000;
const START_POLL_MS = 250;

/** Marks the agent's answers to `/mcp`, so clients can tell them from Claude's words. */
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
    return withLinkedSignal(turn ? [signal, turn] : [signal], (linked) =>
      answerElicitation(
        this.context.client,
        request,
        asking ? { toolCallId: asking.id } : {},
        linked,
      ),
    );
  };

  /**
   * The server confirmed a URL elicitation's page was completed. An id no request could
   * have carried (see `elicitationId`) completes nothing, and is not passed on.
   */
  async elicitationComplete(id: string): Promise<void> {
    if (!elicitationId.safeParse(id).success) {
      log.warn("an MCP server completed an elicitation with an unusable id");
      return;
    }
    if (this.context.client.supportsUrlElicitation) {
      await this.context.client.completeElicitation(id);
    }
  }

  /**
   * Right after the session starts, once Claude Code has tried every server (or after
   * a while): failures are reported without waiting for a prompt.
   */
  async reportStartFailures(): Promise<void> {
    const deadline = Date.now() + START_SETTLE_MS;
    for (;;) {
      const query = this.context.query();
      if (!query) return;
      let servers: McpServerStatus[];
      try {
        servers = await query.mcpServerStatus();
      } catch {
        return; // the process ended meanwhile: its successor reports at its first turn
      }
      if (!servers.some((s) => s.status === "pending") || Date.now() >= deadline) {
        return this.observe(servers, servers);
      }
      await new Promise((resolve) => setTimeout(resolve, START_POLL_MS));
    }
  }

  /**
   * Claude Code's view of its servers (`system/init`, or the status at start): a server
   * that failed or needs authentication is reported, with Claude Code's reason, once
   * until it connects again.
   */
  async observe(
    servers: ReadonlyArray<{ name: string; status: string }>,
    details?: readonly McpServerStatus[],
  ): Promise<void> {
    const fresh: Array<{ name: string; status: string }> = [];
    for (const server of servers) {
      if (server.status !== "failed" && server.status !== "needs-auth") {
        this.reported.delete(server.name);
      } else if (!this.reported.has(server.name)) {
        // Marked before any await: a concurrent look at the same failure stays silent.
        this.reported.add(server.name);
        fresh.push(server);
      }
    }
    if (!fresh.length) return;
    const known = details ?? (await this.statusNow());
    for (const server of fresh) {
      const status = known.find((d) => d.name === server.name) ?? {
        name: server.name,
        status: server.status as McpServerStatus["status"],
      };
      await this.context.client.sendNotice(mcpServerNotice(status));
    }
  }

  private async statusNow(): Promise<McpServerStatus[]> {
    try {
      return (await this.context.query()?.mcpServerStatus()) ?? [];
    } catch (error) {
      log.warn("could not read the MCP servers' status", error);
      return [];
    }
  }

  /**
   * Runs `/mcp`: the answer is the agent's message. The turn ends at once, except a sign-in,
   * which waits for the user (the signal, the turn's cancellation, ends that wait).
   */
  async run(command: McpCommand, query: ClaudeQuery, signal: AbortSignal): Promise<PromptResponse> {
    const { text, cancelled } = await this.outcome(command, query, signal);
    await this.answer(text);
    return { stopReason: cancelled ? "cancelled" : "end_turn" };
  }

  private async outcome(
    command: McpCommand,
    query: ClaudeQuery,
    signal: AbortSignal,
  ): Promise<SignInOutcome> {
    if (command.action === "usage") return { text: MCP_USAGE };
    const servers = await query.mcpServerStatus();
    if (command.action === "status") return { text: describeServers(servers) };
    const { server: name } = command;
    if (!servers.some((s) => s.name === name)) {
      return { text: `No MCP server is named "${name}". ${describeServers(servers)}` };
    }
    if (command.action === "auth") return signIn(this.context.client, query, name, signal);
    return { text: await this.act(command.action, name, query) };
  }

  private async act(
    action: "reconnect" | "enable" | "disable",
    name: string,
    query: ClaudeQuery,
  ): Promise<string> {
    try {
      if (action === "reconnect") await query.reconnectMcpServer(name);
      else await query.toggleMcpServer(name, action === "enable");
    } catch (error) {
      return `Could not ${action} "${name}": ${error instanceof Error ? error.message : String(error)}`;
    }
    const now = (await query.mcpServerStatus()).find((s) => s.name === name);
    return now ? describeServer(now) : `"${name}" is gone.`;
  }

  private answer(text: string): Promise<void> {
    return this.context.client.sendAgentText(text, undefined, {
      claudeCode: { kind: MCP_NOTICE_KIND },
    });
  }
}
