import type * as v1 from "@agentclientprotocol/sdk";
import * as v2 from "@agentclientprotocol/sdk/experimental/v2/unstable";
import { log } from "../../logger.js";
import type { ClientChannel, SessionNotificationOut, TurnEnd } from "../channel.js";
import { ForegroundOrder, idleState, type ForegroundWork } from "./foreground.js";
import { toV2ToolCall, UpdateTranslator } from "./updates.js";

type Foreground = "idle" | "running" | "requires_action";

/** One opening of a session on this connection: its foreground state and open requests. */
export interface SessionHandle {
  state: Foreground;
  /** The last state update sent, for session/status (none yet: a session just opened). */
  last?: v2.StateUpdate;
  asks: number;
}

/** What a v2 permission request says when the v1 one has no `_meta.permission.title`. */
const FALLBACK_TITLE = "Permission required";

/**
 * The sessions' messages to a v2 client: each v1 update translated (updates.ts), permission
 * and elicitation requests in v2's shapes and their answers back in v1's, and each main
 * session's foreground state (`state_update`): the v2 app reports a prompt's turn running
 * and idle, the session a turn Claude Code started itself, each in turn (foreground.ts);
 * while a request waits for the user in a running turn, the session `requires_action`,
 * and `running` again once the last one is answered. A session closed here hears nothing
 * more until it is opened again.
 */
export class V2Channel implements ClientChannel {
  private readonly translator = new UpdateTranslator();
  private readonly foreground = new Map<string, SessionHandle>();
  private readonly closed = new Set<string>();
  private readonly order = new ForegroundOrder();
  /** Per session: the turn Claude Code started itself, while it runs. */
  private readonly ownTurns = new Map<string, { work: ForegroundWork; handle: SessionHandle }>();

  constructor(private readonly client: v2.AgentContext) {}

  /** The session's messages go out again (a resume replays before it is open). */
  allow(sessionId: string): void {
    this.closed.delete(sessionId);
  }

  /** A session opened on this connection: idle, and heard. */
  open(sessionId: string): void {
    this.allow(sessionId);
    this.forget(sessionId);
    this.foreground.set(sessionId, { state: "idle", asks: 0 });
  }

  /** This opening of the session: a report for an earlier one (closed since) is dropped. */
  handle(sessionId: string): SessionHandle | undefined {
    return this.foreground.get(sessionId);
  }

  /** Closed: its later messages (a cancelled turn's last updates) are dropped. */
  close(sessionId: string): void {
    this.closed.add(sessionId);
    this.foreground.delete(sessionId);
    this.forget(sessionId);
  }

  /** Nothing of an earlier opening of the session is carried over. */
  private forget(sessionId: string): void {
    this.translator.forget(sessionId);
    this.ownTurns.get(sessionId)?.work.abandon();
    this.ownTurns.delete(sessionId);
    this.order.forget(sessionId);
  }

  /**
   * A piece of the session's foreground work begins (a prompt's turn): `start` reports it
   * once the one before it has been reported ended.
   */
  begin(sessionId: string, start: () => Promise<void>): ForegroundWork {
    return this.order.begin(sessionId, start);
  }

  /** Claude Code started a turn of its own: the session runs, as for a prompt's turn. */
  async ownTurnStarted(sessionId: string): Promise<void> {
    const handle = this.foreground.get(sessionId);
    if (!handle || this.ownTurns.has(sessionId)) return;
    const work = this.begin(sessionId, () => this.state(sessionId, { state: "running" }, handle));
    this.ownTurns.set(sessionId, { work, handle });
    await work.shown;
  }

  /** Claude Code's own turn ended: idle, with its stop reason and tokens or its error. */
  async ownTurnEnded(sessionId: string, end: TurnEnd): Promise<void> {
    const own = this.ownTurns.get(sessionId);
    if (!own) return;
    this.ownTurns.delete(sessionId);
    await own.work.end(() => this.state(sessionId, idleState(end), own.handle));
  }

  /** The client cancelled one tool call (or its terminal): it ends `cancelled`. */
  cancelling(sessionId: string, toolCallId: string): void {
    this.translator.cancelling(sessionId, toolCallId);
  }

  /** The last state update of a session open here, as session/status reports it. */
  lastState(sessionId: string): v2.StateUpdate | undefined {
    return this.foreground.get(sessionId)?.last;
  }

  /** The session's foreground state as last reported, if it is open here. */
  stateOf(sessionId: string): Foreground | undefined {
    return this.foreground.get(sessionId)?.state;
  }

  /**
   * Reports the session's foreground state (idle ends a prompt's turn); with `handle`, only
   * while that opening of the session is the current one.
   */
  async state(sessionId: string, state: v2.StateUpdate, handle?: SessionHandle): Promise<void> {
    const entry = this.foreground.get(sessionId);
    if (!entry || (handle && handle !== entry)) return;
    if (state.state === "idle" || state.state === "running" || state.state === "requires_action") {
      entry.state = state.state;
    }
    entry.last = state;
    await this.send({ sessionId, update: { sessionUpdate: "state_update", ...state } });
  }

  /** The user message a prompt inserted, under the id the prompt's answer names. */
  async userMessage(sessionId: string, messageId: string, content: v2.ContentBlock[]) {
    await this.send({ sessionId, update: { sessionUpdate: "user_message", messageId, content } });
  }

  async update(notification: SessionNotificationOut): Promise<void> {
    if (this.closed.has(notification.sessionId)) return;
    for (const translated of this.translator.translate(notification)) await this.send(translated);
  }

  async requestPermission(
    params: v1.RequestPermissionRequest,
    options: v1.SendRequestOptions,
  ): Promise<v1.RequestPermissionResponse> {
    const { sessionId, toolCall, options: choices, _meta } = params;
    const presentation = permissionMeta(_meta);
    const request: v2.RequestPermissionRequest = {
      sessionId,
      title: presentation.title || toolCall.title || FALLBACK_TITLE,
      ...(presentation.description ? { description: presentation.description } : {}),
      subject: { type: "tool_call", toolCall: toV2ToolCall(toolCall).update },
      options: choices,
      ...(_meta ? { _meta } : {}),
    };
    const response = await this.whileAsking(sessionId, () =>
      this.client.request(v2.methods.client.session.requestPermission, request, options),
    );
    const { outcome } = response;
    // An outcome v1 does not know is never an approval.
    const known =
      outcome.outcome === "selected" && "optionId" in outcome
        ? { outcome: "selected" as const, optionId: outcome.optionId as string }
        : { outcome: "cancelled" as const };
    return { outcome: known, ...(response._meta ? { _meta: response._meta } : {}) };
  }

  async createElicitation(
    params: v1.CreateElicitationRequest,
    options: v1.SendRequestOptions,
  ): Promise<v1.CreateElicitationResponse> {
    const sessionId = "sessionId" in params ? params.sessionId : undefined;
    const ask = () =>
      this.client.request(
        v2.methods.client.elicitation.create,
        params as v2.CreateElicitationRequest,
        options,
      );
    const response = await (typeof sessionId === "string"
      ? this.whileAsking(sessionId, ask)
      : ask());
    if (response.action === "accept" || response.action === "decline") {
      return response;
    }
    return { action: "cancel" };
  }

  completeElicitation(params: v1.CompleteElicitationNotification): Promise<void> {
    return this.client.notify(v2.methods.client.elicitation.complete, params);
  }

  /** A request the user must answer: a running turn needs action meanwhile. */
  private async whileAsking<T>(sessionId: string, ask: () => Promise<T>): Promise<T> {
    const entry = this.foreground.get(sessionId);
    if (!entry) return ask();
    if (entry.asks++ === 0 && entry.state === "running") {
      await this.state(sessionId, { state: "requires_action" });
    }
    try {
      return await ask();
    } finally {
      if (
        --entry.asks === 0 &&
        entry.state === "requires_action" &&
        this.foreground.has(sessionId)
      ) {
        await this.state(sessionId, { state: "running" }).catch((error: unknown) =>
          log.debug("could not report the session running again", error),
        );
      }
    }
  }

  private async send(notification: { sessionId: string; update: v2.SessionUpdate }) {
    if (this.closed.has(notification.sessionId)) return;
    await this.client.notify(v2.methods.client.session.update, notification);
  }
}

/** `_meta.permission`'s prompt copy (the permission extension), when it is there. */
function permissionMeta(meta: Record<string, unknown> | null | undefined): {
  title?: string;
  description?: string;
} {
  const permission = meta?.permission;
  if (typeof permission !== "object" || permission === null) return {};
  const { title, description } = permission as Record<string, unknown>;
  return {
    ...(typeof title === "string" ? { title } : {}),
    ...(typeof description === "string" ? { description } : {}),
  };
}
