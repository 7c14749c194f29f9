import {
  methods,
  type AgentContext,
  type CompleteElicitationNotification,
  type CreateElicitationRequest,
  type CreateElicitationResponse,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SendRequestOptions,
  type SessionNotification,
  type StopReason,
} from "@agentclientprotocol/sdk";
import type {
  SessionUpdate as UnstableSessionUpdate,
  Usage,
} from "@agentclientprotocol/sdk/unstable";
import type { AirTaskUpdate } from "./air/async-tasks.js";
import type { AirSubagentUpdate } from "./air/subagents.js";
import { mergingUpdates } from "./chunk-merge.js";

/**
 * A `session/update` as the sessions build it: ACP v1's, stable or unstable schema, or of
 * JetBrains AIR's drafts of child sessions and background tasks (air/, for AIR alone).
 */
export interface SessionNotificationOut {
  sessionId: string;
  update: SessionNotification["update"] | UnstableSessionUpdate | AirSubagentUpdate | AirTaskUpdate;
}

/** How a turn ended: its stop reason (and tokens), or the error v1 answers a prompt with. */
export type TurnEnd = { stopReason: StopReason; usage?: Usage } | { error: Error };

/**
 * Where a session's messages go. The sessions speak ACP v1's shapes; a protocol adapter
 * carries them to its client: v1 as they are (`v1Channel`), v2 translated (acp/v2/).
 */
export interface ClientChannel {
  update(notification: SessionNotificationOut): Promise<void>;
  requestPermission(
    params: RequestPermissionRequest,
    options: SendRequestOptions,
  ): Promise<RequestPermissionResponse>;
  createElicitation(
    params: CreateElicitationRequest,
    options: SendRequestOptions,
  ): Promise<CreateElicitationResponse>;
  completeElicitation(params: CompleteElicitationNotification): Promise<void>;
  /**
   * Claude Code started a turn of its own (no prompt asked for it), and ended it. v1 has
   * no place for this (its updates simply arrive); v2 reports it as it reports a prompt's.
   */
  ownTurnStarted?(sessionId: string): Promise<void>;
  ownTurnEnded?(sessionId: string, end: TurnEnd): Promise<void>;
}

/** An ACP v1 connection's client: the messages go as they are. */
export function v1Channel(context: AgentContext): ClientChannel {
  return {
    update: (notification) =>
      // Unstable updates (subagents) go to clients that declared them; the stable SDK
      // types do not name them, the wire shape is the unstable schema's.
      context.notify<SessionNotificationOut>(methods.client.session.update, notification),
    requestPermission: (params, options) =>
      context.request(methods.client.session.requestPermission, params, options),
    createElicitation: (params, options) =>
      context.request(methods.client.elicitation.create, params, options),
    completeElicitation: (params) => context.notify(methods.client.elicitation.complete, params),
  };
}

/** A channel whose text chunks may wait for the end of the event loop's turn. */
export interface MergingChannel extends ClientChannel {
  /** Sends the text chunk held, before a response that must follow it (a prompt's end). */
  flush(): void;
}

/**
 * The channel, with the text chunks that continue each other within one turn of the
 * event loop sent as one update (chunk-merge.ts) before the ACP SDK handles them. Every
 * other message first sends the chunk held, so the client sees them in the order sent.
 */
export function mergingTextChannel(channel: ClientChannel): MergingChannel {
  const updates = mergingUpdates((notification: SessionNotificationOut) =>
    channel.update(notification),
  );
  const flush = (): void => void updates.flush().catch(() => undefined);
  return {
    update: (notification) => updates.send(notification),
    requestPermission: (params, options) => {
      flush();
      return channel.requestPermission(params, options);
    },
    createElicitation: (params, options) => {
      flush();
      return channel.createElicitation(params, options);
    },
    completeElicitation: (params) => {
      flush();
      return channel.completeElicitation(params);
    },
    ...(channel.ownTurnStarted && {
      ownTurnStarted: (sessionId: string) => {
        flush();
        return channel.ownTurnStarted!(sessionId);
      },
    }),
    ...(channel.ownTurnEnded && {
      ownTurnEnded: (sessionId: string, end: TurnEnd) => {
        flush();
        return channel.ownTurnEnded!(sessionId, end);
      },
    }),
    flush,
  };
}
