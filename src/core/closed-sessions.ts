import { SessionNotFoundError } from "../errors.js";
import type { SessionRegistry } from "../session/registry.js";

/**
 * Which session ids were closed on this connection (session/close, an archive, a delete),
 * so that closing one twice is harmless while an id never seen is not found.
 */
export class ClosedSessions {
  private readonly closed = new Set<string>();

  constructor(private readonly sessions: SessionRegistry) {}

  /** `session/close`: an open session, or one closed already. */
  close(sessionId: string): Promise<void> {
    return this.sessions.exclusive(sessionId, () => {
      if (!this.sessions.find(sessionId) && !this.closed.has(sessionId)) {
        throw new SessionNotFoundError(sessionId);
      }
      this.closeNow(sessionId);
      return Promise.resolve();
    });
  }

  /** Closes the session if it is open; either way it is known as closed here. */
  closeNow(sessionId: string): void {
    this.sessions.remove(sessionId)?.close();
    this.closed.add(sessionId);
  }

  /** The session is gone (deleted): closing it later is harmless too. */
  gone(sessionId: string): void {
    this.closed.add(sessionId);
  }

  /** The session is open again. */
  opened(sessionId: string): void {
    this.closed.delete(sessionId);
  }
}
