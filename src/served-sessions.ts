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

/** A session leaving one connection for another, with its relay. */
interface Handed {
  session: Session;
  relay: SessionRelay;
}

interface Kept extends Handed {
  timer: NodeJS.Timeout;
}

/**
 * The sessions of a server's connections (serve/), for a client that loads (or resumes) one
 * from another connection: one Claude Code process per session on the server, whichever
 * connection shows it.
 *
 * - A session whose connection dropped during a prompt's turn is kept: the turn goes on for
 *   the grace period. When it ends first, the session closes (its transcript holds the
 *   whole turn, and a load replays it); when the grace period ends first, the turn is
 *   cancelled, as `session/cancel` does, and the session closes once it has ended. Either
 *   way it stays loadable.
 * - A session another connection holds is handed over: that connection hears no more of
 *   it. The server cannot always tell a connection that is gone from one that is slow (a
 *   network that failed without a word, a Streamable HTTP client between its requests), and
 *   two Claude Code processes on one conversation would each write it.
 */
export class ServerSessions {
  private readonly kept = new Map<string, Kept>();
  private readonly holders = new Map<string, ServedSessions>();

  constructor(private readonly graceMs: number) {}

  /** The session is open on this connection from now on. */
  held(sessionId: string, holder: ServedSessions): void {
    this.holders.set(sessionId, holder);
  }

  /** The connection is gone: it holds nothing any more. */
  leftBy(holder: ServedSessions): void {
    for (const [id, held] of this.holders) if (held === holder) this.holders.delete(id);
  }

  keep({ session, relay }: Handed): void {
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

  /**
   * The session for `taker`, if it is kept here or open on another connection, and runs in
   * `cwd`; from then on the taker's. Undefined: the taker opens it from its transcript.
   */
  take(sessionId: string, cwd: string, taker: ServedSessions): Handed | undefined {
    const kept = this.kept.get(sessionId);
    const holder = this.holders.get(sessionId);
    if (!kept && (!holder || holder === taker)) return undefined;
    const session = kept?.session ?? holder?.open(sessionId);
    if (session && session.cwd !== cwd) {
      throw new InvalidParamsError("The session is open in another folder.", { sessionId });
    }
    if (kept) return this.drop(sessionId);
    this.holders.delete(sessionId);
    return holder!.handOver(sessionId);
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
 * channel, so that a session can outlive the connection (kept by ServerSessions) and move
 * to another one.
 */
export class ServedSessions {
  private readonly relays = new Map<string, SessionRelay>();

  constructor(
    private readonly server: ServerSessions,
    private readonly core: () => AgentCore,
  ) {}

  /** The client of a new session of this connection (core/dependencies.ts's factory). */
  client(
    channel: ClientChannel,
    sessionId: string,
    capabilities: AgentClientCapabilities,
  ): SessionClient {
    const relay = new SessionRelay(channel);
    this.relays.set(sessionId, relay);
    this.server.held(sessionId, this);
    return sessionClient(relay, sessionId, capabilities);
  }

  /** A prompt's turn on this connection: its text is part of the history. */
  prompted(sessionId: string, blocks: readonly ContentBlock[], messageId: string): void {
    this.relays.get(sessionId)?.prompted(sessionId, blocks, messageId);
  }

  /** A prompt's turn, running until `turn` settles. */
  track(sessionId: string, turn: Promise<unknown>): void {
    this.relays.get(sessionId)?.track(turn);
  }

  /** The session, if it is open on this connection. */
  open(sessionId: string): Session | undefined {
    return this.relays.has(sessionId) ? this.core().find(sessionId) : undefined;
  }

  /**
   * Another connection takes the session: it leaves this one, which hears no more of it.
   * One whose history was too long to keep closes instead, and is opened there anew.
   */
  handOver(sessionId: string): Handed | undefined {
    const relay = this.relays.get(sessionId);
    this.relays.delete(sessionId);
    const session = this.core().release(sessionId);
    if (!relay || !session) return undefined;
    relay.detach();
    if (relay.keepsHistory) return { session, relay };
    session.close();
    return undefined;
  }

  /**
   * The connection dropped: the sessions running a prompt's turn leave it, kept for
   * another connection; the core closes the rest.
   */
  disconnected(): void {
    this.server.leftBy(this);
    for (const [id, relay] of this.relays) {
      if (!relay.prompting || !relay.keepsHistory) continue;
      const session = this.core().release(id);
      if (session) this.server.keep({ session, relay });
    }
    this.relays.clear();
  }

  /**
   * `session/load` (`replay`) or `session/resume` of a session kept from a dropped
   * connection or open on another: this connection takes it, with its history first when
   * replaying. Undefined when there is none: the session opens from its transcript.
   */
  async take(
    params: { sessionId: string; cwd: string },
    channel: ClientChannel,
    replay: boolean,
  ): Promise<Session | undefined> {
    const handed = this.server.take(params.sessionId, params.cwd, this);
    if (!handed) return undefined;
    log.info(`session ${params.sessionId}: taken over by a connection`);
    this.core().adopt(handed.session);
    this.relays.set(params.sessionId, handed.relay);
    this.server.held(params.sessionId, this);
    await handed.relay.attach(channel, replay);
    return handed.session;
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
