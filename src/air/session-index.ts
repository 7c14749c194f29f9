import { randomUUID } from "node:crypto";
import type { AgentApp, ListSessionsResponse } from "@agentclientprotocol/sdk";
import {
  AIR_ARCHIVE_METHOD,
  AIR_BATCH_GET_METHOD,
  AIR_LIST_CHANGES_METHOD,
  AIR_LIST_SUBSCRIBE_METHOD,
  AIR_LIST_UNSUBSCRIBE_METHOD,
  AIR_RENAME_METHOD,
  AIR_UNARCHIVE_METHOD,
  airArchivedMeta,
  airBatchGetParams,
  airListOptions,
  airRenameParams,
  airRow,
  airSessionParams,
  airSubscribeParams,
  airUnsubscribeParams,
} from "../acp/air/session-index.js";
import { AIR_CAPABILITIES, airDeclares, isAirClient } from "../acp/air/extension.js";
import type { SessionNotificationOut } from "../acp/channel.js";
import type { AgentCore } from "../core/agent-core.js";
import type { ListParams } from "../core/saved-sessions.js";
import { log } from "../logger.js";
import { gated } from "./gated.js";

/** What AIR's extension needs of its connection (connection.ts). */
export interface AirHost {
  core(): AgentCore;
  /** Sends a notification of the connection (the list subscription's changes). */
  notify(method: string, params: Record<string, unknown>): Promise<void>;
  /** Sends a session update. */
  update(notification: SessionNotificationOut): Promise<void>;
  /** What the client declared in `initialize`. */
  capabilities(): { _meta?: unknown };
}

/**
 * JetBrains AIR's session index on one ACP v1 connection (acp/air/session-index.ts has the
 * wire shapes). A client that declared `sessionIndex` gets AIR's bounded `session/list` and
 * rows, and the `_session/*` methods; any other client gets the standard list and
 * "method not found" for those methods. An AIR client without the index marks a session done
 * with `session/delete` and may open it again later, so its delete archives instead.
 */
export class AirSessionIndex {
  private readonly subscriptions = new Map<string, { close(): void }>();

  constructor(private readonly host: AirHost) {}

  /** Whether the client declared the index. */
  private get indexed(): boolean {
    return airDeclares(this.host.capabilities(), AIR_CAPABILITIES.sessionIndex);
  }

  /** `session/list`: AIR's page and rows for an index client, ACP's for any other. */
  async list(params: ListParams): Promise<ListSessionsResponse> {
    const core = this.host.core();
    if (!this.indexed) return core.list(params);
    const { archived, ...options } = airListOptions(params._meta);
    const page = await core.listPage({ ...params, archived }, options);
    return { ...page, sessions: page.sessions.map(airRow) };
  }

  /** `session/delete`; an AIR client without the index archives (see above). */
  delete(sessionId: string): Promise<void> {
    const core = this.host.core();
    const archives = isAirClient(this.host.capabilities()) && !this.indexed;
    return archives ? core.setArchived(sessionId, true) : core.delete(sessionId);
  }

  /** The connection is gone: its subscriptions end (the core's feed closes them too). */
  close(): void {
    this.subscriptions.forEach((subscription) => subscription.close());
    this.subscriptions.clear();
  }

  /** The `_session/*` methods of the index, on the v1 app. */
  routes(app: AgentApp): AgentApp {
    const core = () => this.host.core();
    return app
      .onRequest(
        AIR_BATCH_GET_METHOD,
        airBatchGetParams,
        this.indexOnly(AIR_BATCH_GET_METHOD, async ({ sessionIds }) => ({
          sessions: (await core().rows(sessionIds)).map(airRow),
        })),
      )
      .onRequest(
        AIR_RENAME_METHOD,
        airRenameParams,
        this.indexOnly(AIR_RENAME_METHOD, async ({ sessionId, title }) => {
          await core().setTitle(sessionId, title);
          return {};
        }),
      )
      .onRequest(
        AIR_ARCHIVE_METHOD,
        airSessionParams,
        this.indexOnly(AIR_ARCHIVE_METHOD, (params) => this.setArchived(params, true)),
      )
      .onRequest(
        AIR_UNARCHIVE_METHOD,
        airSessionParams,
        this.indexOnly(AIR_UNARCHIVE_METHOD, (params) => this.setArchived(params, false)),
      )
      .onRequest(
        AIR_LIST_SUBSCRIBE_METHOD,
        airSubscribeParams,
        this.indexOnly(AIR_LIST_SUBSCRIBE_METHOD, ({ cwd }) => this.subscribe(cwd)),
      )
      .onRequest(
        AIR_LIST_UNSUBSCRIBE_METHOD,
        airUnsubscribeParams,
        this.indexOnly(AIR_LIST_UNSUBSCRIBE_METHOD, ({ subscriptionId }) => {
          this.subscriptions.get(subscriptionId)?.close();
          this.subscriptions.delete(subscriptionId);
          return Promise.resolve({});
        }),
      );
  }

  /** A handler of a method only a client that declared the index may call. */
  private indexOnly<P, R>(method: string, handler: (params: P) => Promise<R>) {
    return gated(method, () => this.indexed, handler);
  }

  /**
   * `_session/archive` and `_session/unarchive`, as `session/archive` does them (an open
   * session is closed first); a session open here hears its archive state as AIR reads it.
   */
  private async setArchived(
    params: { sessionId: string; _meta?: unknown },
    archived: boolean,
  ): Promise<Record<string, never>> {
    const core = this.host.core();
    const open = core.find(params.sessionId) !== undefined;
    await core.setArchived(params.sessionId, archived, params._meta);
    if (open) {
      await this.host.update({
        sessionId: params.sessionId,
        update: { sessionUpdate: "session_info_update", _meta: airArchivedMeta(archived) },
      });
    }
    return {};
  }

  private async subscribe(cwd: string): Promise<{ subscriptionId: string }> {
    const subscriptionId = randomUUID();
    const subscription = await this.host.core().subscribeList(cwd, ({ sessions, removed }) => {
      const changes = { subscriptionId, sessions: sessions.map(airRow), removed };
      this.host.notify(AIR_LIST_CHANGES_METHOD, changes).catch((error: unknown) => {
        log.warn("could not send a session list change", error);
      });
    });
    this.subscriptions.set(subscriptionId, subscription);
    return { subscriptionId };
  }
}
