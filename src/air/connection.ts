import type { AgentApp, ListSessionsResponse, PromptResponse } from "@agentclientprotocol/sdk";
import type { ListParams } from "../core/saved-sessions.js";
import { asyncTaskStopRoute } from "./async-tasks.js";
import { AirFileChangeReports } from "./file-changes.js";
import { airGoalRoute } from "./goal.js";
import { AirSessionIndex, type AirHost } from "./session-index.js";

/**
 * JetBrains AIR's extension on one ACP v1 connection (README.md): what a client gets beyond
 * ACP once it declared it in `initialize`. Any other client gets ACP alone.
 */
export class AirConnection {
  private capabilities: { _meta?: unknown } = {};
  private readonly index: AirSessionIndex;
  private readonly fileReports: AirFileChangeReports;

  constructor(private readonly host: AirHost) {
    this.index = new AirSessionIndex(host);
    this.fileReports = new AirFileChangeReports(host);
  }

  /** `initialize`: what this client declared. */
  negotiate(capabilities: { _meta?: unknown }): void {
    this.capabilities = capabilities;
    this.index.negotiate(capabilities);
  }

  /** `session/list` (session-index.ts). */
  list(params: ListParams): Promise<ListSessionsResponse> {
    return this.index.list(params);
  }

  /** `session/delete` (session-index.ts). */
  delete(sessionId: string): Promise<void> {
    return this.index.delete(sessionId);
  }

  /** A `session/prompt`'s turn: a file change report it asked for follows it (file-changes.ts). */
  prompt<T extends { result: PromptResponse; userMessageId?: string }>(
    params: { sessionId: string; _meta?: unknown },
    run: () => Promise<T>,
  ): Promise<T> {
    return this.fileReports.around(this.capabilities, params, run);
  }

  /** AIR's methods on the v1 app: the session index's, the goal's, a background task's stop. */
  routes(app: AgentApp): AgentApp {
    const host = { ...this.host, capabilities: () => this.capabilities };
    return asyncTaskStopRoute(airGoalRoute(this.index.routes(app), host), host);
  }

  /** The connection is gone. */
  close(): void {
    this.index.close();
  }
}
