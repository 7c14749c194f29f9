import type { StartClaudeQuery } from "../../claude/query.js";

/** How long an open waits for the previous process of its id to exit before going on. */
const EXIT_WAIT_MS = 5_000;

/**
 * The Claude Code processes of each session id, until they have exited: reopening an id
 * waits for its previous process to be gone, so one id never runs two at once.
 */
export class ClaudeProcesses {
  private readonly exits = new Map<string, Set<Promise<void>>>();

  /** Starts queries as `start` does, counting their processes as `sessionId`'s. */
  starter(sessionId: string, start: StartClaudeQuery): StartClaudeQuery {
    return (options) => {
      const query = start(options);
      const exited = query.exited;
      if (!exited) return query;
      const exits = this.exits.get(sessionId) ?? new Set();
      this.exits.set(sessionId, exits);
      exits.add(exited);
      void exited.then(() => {
        exits.delete(exited);
        if (exits.size === 0 && this.exits.get(sessionId) === exits) this.exits.delete(sessionId);
      });
      return query;
    };
  }

  /** Settles once every closed process of `sessionId` has exited (or after EXIT_WAIT_MS). */
  async exited(sessionId: string): Promise<void> {
    const exits = [...(this.exits.get(sessionId) ?? [])];
    if (exits.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((done) => {
      timer = setTimeout(done, EXIT_WAIT_MS);
    });
    await Promise.race([Promise.all(exits), late]);
    clearTimeout(timer);
  }
}
