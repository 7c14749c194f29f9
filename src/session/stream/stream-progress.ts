import { setImmediate as nextTask } from "node:timers/promises";
import { log } from "../../logger.js";

/**
 * How long a permission ask waits at most for the stream to show what came before it. The
 * stream is normally a few messages behind (milliseconds); a client that reads slowly can
 * hold it longer, and then the ask goes ahead rather than keep Claude Code waiting.
 */
export const CATCH_UP_BOUND_MS = 2_000;

/**
 * How far the session has shown Claude Code's messages. Claude Code asks permission for a
 * tool with a control message the SDK hands over at once, while the messages written
 * before it (the end of Claude's sentence, the tool use itself) wait in the SDK's queue
 * until the consumer reads them. An ask waits here until they are shown, so the client
 * sees them in the order Claude Code wrote them, never a sentence cut by a tool call.
 */
export class StreamProgress {
  /** Messages being shown now (one per process being read, at most). */
  private showing = 0;
  private waiters: Array<() => void> = [];

  /** The consumer read a message and starts showing it. */
  started(): void {
    this.showing++;
  }

  /** The consumer finished showing a message. */
  finished(): void {
    this.showing--;
    const waiters = this.waiters;
    this.waiters = [];
    waiters.forEach((wake) => wake());
  }

  /**
   * Resolves once `reached()` holds (the stream has shown the tool use), or the consumer
   * waits for Claude Code with nothing queued (the tool use is not streamed: nothing
   * written before the ask is still unshown), or the signal aborts, or after the bound.
   */
  async caughtUp(
    reached: () => boolean,
    signal: AbortSignal,
    boundMs = CATCH_UP_BOUND_MS,
  ): Promise<void> {
    const deadline = Date.now() + boundMs;
    for (;;) {
      // A message already queued reaches the consumer within the current task: after it,
      // an idle consumer means an empty queue.
      await nextTask();
      const left = deadline - Date.now();
      if (reached() || this.showing === 0 || signal.aborted) return;
      if (left <= 0) {
        log.debug(`a permission ask went ahead of the stream after ${boundMs} ms`);
        return;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, left);
        signal.addEventListener("abort", done, { once: true });
        this.waiters.push(done);
        function done(): void {
          clearTimeout(timer);
          signal.removeEventListener("abort", done);
          resolve();
        }
      });
    }
  }
}
