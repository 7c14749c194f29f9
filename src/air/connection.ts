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
  private readonly host: AirHost;
  private readonly index: AirSessionIndex;
  private readonly fileReports: AirFileChangeReports;

  constructor(host: Omit<AirHost, "capabilities">) {
    this.host = { ...host, capabilities: () => this.capabilities };
    this.index = new AirSessionIndex(this.host);
    this.fileReports = new AirFileChangeReports(this.host);
  }

  /** `initialize`: what this client declared. */
  negotiate(capabilities: { _meta?: unknown }): void {
    this.capabilities = capabilities;
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
    return asyncTaskStopRoute(airGoalRoute(this.index.routes(app), this.host), this.host);
  }

  /** The connection is gone. */
  close(): void {
    this.index.close();
  }
}
