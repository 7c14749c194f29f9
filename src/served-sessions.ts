import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { AgentCore } from "./core/agent-core.js";
import { InvalidParamsError } from "./errors.js";
import { log } from "./logger.js";
import type { Session } from "./session/session.js";
import type { ClientChannel } from "./acp/channel.js";
import { sessionClient, type SessionClient } from "./acp/session-client.js";
import { SessionRelay } from "./acp/session-relay.js";
import type { AgentClientCapabilities } from "./acp/unstable-capabilities.js";

/** How long a cancelled turn of a session nobody took back has to end before it is closed. */
const CANCEL_WAIT_MS = 30_000;

interface Kept {
  session: Session;
  relay: SessionRelay;
  timer: NodeJS.Timeout;
}

/**
 * A server's sessions whose connection dropped during a prompt's turn (serve/): the turn
 * goes on for the grace period, and a client that loads (or resumes) the session from any
 * connection of the server takes it back. When the turn ends first, the session closes:
 * its transcript holds the whole turn, and a load replays it. When the grace period ends
 * first, the turn is cancelled, as a client's `session/cancel` does, and the session closes
 * once it has ended; either way it stays loadable.
 */
export class LingeringSessions {
  private readonly kept = new Map<string, Kept>();

  constructor(private readonly graceMs: number) {}

  keep(session: Session, relay: SessionRelay): void {
    relay.detach();
    const timer = setTimeout(() => void this.expire(session.id), this.graceMs);
    const kept: Kept = { session, relay, timer };
    this.kept.set(session.id, kept);
    log.info(`session ${session.id}: its connection dropped; its turn goes on`);
    void relay.idle().then(() => {
      if (this.kept.get(session.id) !== kept) return;
      log.info(`session ${session.id}: its turn ended with no client; it closes`);
      this.drop(session.id)?.session.close();
    });
  }

  /** The session, if it is kept here and runs in `cwd`; no longer kept from now on. */
  take(sessionId: string, cwd: string): Kept | undefined {
    const kept = this.kept.get(sessionId);
    if (!kept) return undefined;
    if (kept.session.cwd !== cwd) {
      throw new InvalidParamsError("The session is running in another folder.", { sessionId });
    }
    return this.drop(sessionId);
  }

  private drop(sessionId: string): Kept | undefined {
    const kept = this.kept.get(sessionId);
    if (!kept) return undefined;
    clearTimeout(kept.timer);
    this.kept.delete(sessionId);
    return kept;
  }

  private async expire(sessionId: string): Promise<void> {
    const kept = this.drop(sessionId);
    if (!kept) return;
    log.info(`session ${sessionId}: nobody took it back in time; its turn is cancelled`);
    kept.session.cancel();
    let waited: NodeJS.Timeout | undefined;
    await Promise.race([
      kept.relay.idle(),
      new Promise((resolve) => (waited = setTimeout(resolve, CANCEL_WAIT_MS))),
    ]);
    clearTimeout(waited);
    kept.session.close();
  }

  /** The server stops: every session kept closes. */
  closeAll(): void {
    for (const id of [...this.kept.keys()]) this.drop(id)?.session.close();
  }
}

/**
 * One served connection's sessions, each with a relay (session-relay.ts) for its client
 * channel, so that a session whose prompt is running when the connection drops can be
 * kept (LingeringSessions) and taken back by another connection.
 */
export class ServedSessions {
  private readonly relays = new Map<string, SessionRelay>();

  constructor(private readonly lingering: LingeringSessions) {}

  /** The client of a new session of this connection (core/dependencies.ts's factory). */
  client(
    channel: ClientChannel,
    sessionId: string,
    capabilities: AgentClientCapabilities,
  ): SessionClient {
    const relay = new SessionRelay(channel);
    this.relays.set(sessionId, relay);
    return sessionClient(relay, sessionId, capabilities);
  }

  /** A prompt's turn on this connection: its text is part of the history, and it is tracked. */
  prompted(sessionId: string, blocks: readonly ContentBlock[], messageId: string): void {
    this.relays.get(sessionId)?.prompted(sessionId, blocks, messageId);
  }

  track(sessionId: string, turn: Promise<unknown>): void {
    this.relays.get(sessionId)?.track(turn);
  }

  /**
   * The connection dropped: the sessions running a prompt's turn leave it, kept for
   * another connection; the core closes the rest.
   */
  disconnected(core: AgentCore): void {
    for (const [id, relay] of this.relays) {
      if (!relay.prompting || !relay.keepsHistory) continue;
      const session = core.release(id);
      if (session) this.lingering.keep(session, relay);
    }
    this.relays.clear();
  }

  /**
   * `session/load` (`replay`) or `session/resume` of a session kept from a dropped
   * connection: this connection takes it, with its history first when replaying.
   * Undefined when none is kept under the id: the session opens from its transcript.
   */
  async takeBack(
    core: AgentCore,
    params: { sessionId: string; cwd: string },
    channel: ClientChannel,
    replay: boolean,
  ): Promise<Session | undefined> {
    const kept = this.lingering.take(params.sessionId, params.cwd);
    if (!kept) return undefined;
    log.info(`session ${params.sessionId}: taken back by a new connection`);
    core.adopt(kept.session);
    this.relays.set(params.sessionId, kept.relay);
    await kept.relay.attach(channel, replay);
    return kept.session;
  }
}

/**
 * The signal a prompt's turn is cancelled by: the client's `$/cancel_request`, not the
 * connection closing (which aborts every request it had open).
 */
export function cancelledByClient(request: AbortSignal, connection: AbortSignal): AbortSignal {
  const cancel = new AbortController();
  request.addEventListener(
    "abort",
    () => {
      if (!connection.aborted) cancel.abort(request.reason);
    },
    { once: true },
  );
  return cancel.signal;
}
