import type { SessionClient } from "../acp/session-client.js";
import type { OnMcpElicitation } from "../claude/query.js";
import { answerElicitation } from "./elicitation.js";

export interface SessionMcpContext {
  client: SessionClient;
  /** The running turn's signal: cancelling the turn withdraws an open elicitation. */
  turnSignal: () => AbortSignal | undefined;
  /** Tool calls still running, to tie an elicitation to the MCP tool call that asked. */
  openToolCalls: () => ReadonlyArray<{ id: string; name: string }>;
}

/** Claude Code's tool-name prefix for a server (`mcp__<server>__<tool>`), as it normalizes names. */
function toolPrefix(server: string): string {
  return `mcp__${server.replace(/[^a-zA-Z0-9_-]/g, "_")}__`;
}

/** What a session does about MCP servers beyond passing them to Claude Code: their elicitations. */
export class SessionMcp {
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
}
