import { SessionNotFoundError } from "../errors.js";
import { KeyedLock } from "../util/keyed-lock.js";
import type { Session } from "./session.js";

/**
 * The open sessions by ACP session id. One id is one session, so one Claude Code process:
 * whatever opens, closes or deletes an id runs under `exclusive`, after the ones before it.
 */
export class SessionRegistry {
  private readonly sessions = new Map<string, Session>();
  private readonly lock = new KeyedLock();
  private closed = false;

  /** Runs `task` once no other open, close or delete of `sessionId` is running. */
  exclusive<T>(sessionId: string, task: () => Promise<T>): Promise<T> {
    return this.lock.run(sessionId, task);
  }

  /** Registers a started session; after `closeAll` (the client is gone) it is closed instead. */
  add(session: Session): void {
    if (this.closed) {
      session.close();
      throw new SessionNotFoundError(session.id);
    }
    this.sessions.get(session.id)?.close();
    this.sessions.set(session.id, session);
    // The registry it is open in now hears of its work (also one adopted from another).
    session.onStateChange = (id) => this.stateChanged(id);
  }

  /** The session, or a not-found error for the client. */
  require(sessionId: string): Session {
    const session = this.sessions.get(sessionId);
    if (!session) throw new SessionNotFoundError(sessionId);
    return session;
  }

  find(sessionId: string): Session | undefined {
    return this.sessions.get(sessionId);
  }

  /** `session/cancel`: the session's turn, or the subagent of a child session id. */
  cancel(sessionId: string): void {
    const session = this.sessions.get(sessionId);
    if (session) return session.cancel();
    for (const parent of this.sessions.values()) if (parent.cancelSubagent(sessionId)) return;
  }

  remove(sessionId: string): Session | undefined {
    const session = this.sessions.get(sessionId);
    this.sessions.delete(sessionId);
    return session;
  }

  /** Closes every session, and each one still opening as soon as it is started. */
  closeAll(): void {
    this.closed = true;
    for (const session of this.sessions.values()) session.close();
    this.sessions.clear();
  }

  /** Who hears that work started or ended in an open session (a listing's subscribers). */
  private readonly stateListeners = new Set<(sessionId: string) => void>();

  /** `listener` hears of each session whose work starts or ends, until the returned call. */
  onStateChange(listener: (sessionId: string) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  /** Work started or ended in an open session (Session.onStateChange). */
  stateChanged(sessionId: string): void {
    this.stateListeners.forEach((listener) => listener(sessionId));
  }

  /** The open sessions. */
  all(): Session[] {
    return [...this.sessions.values()];
  }

  get size(): number {
    return this.sessions.size;
  }
}
