import type * as v2 from "@agentclientprotocol/sdk/experimental/v2/unstable";
import { log } from "../../logger.js";
import { deferred } from "../../util/deferred.js";
import type { TurnEnd } from "../channel.js";
import { toRequestError } from "../errors.js";

/** One piece of a session's foreground work: a prompt's turn, or a turn of Claude's own. */
export interface ForegroundWork {
  /** Settles once its start has been reported. */
  readonly shown: Promise<void>;
  /** Reports its end (after its start); the next piece's start is reported after that. */
  end(report: () => Promise<void>): Promise<void>;
  /** Its end will not be reported (the session was closed here): the next one goes on. */
  abandon(): void;
}

/**
 * The order of each session's foreground work on v2: a piece's start (`running`) is
 * reported after the end (`idle`) of the one before it, so the client never hears a turn
 * start before the previous one's end, whichever of them a prompt asked for.
 */
export class ForegroundOrder {
  /** Per session: settles once the last piece begun has had its end reported. */
  private readonly last = new Map<string, Promise<void>>();

  /** A piece begins: `start` reports it, at once or after the end of the one before. */
  begin(sessionId: string, start: () => Promise<void>): ForegroundWork {
    const before = this.last.get(sessionId);
    const ended = deferred<void>();
    this.last.set(sessionId, ended.promise);
    // At once when nothing comes before: what it sends goes out before anything else can.
    const shown = (before ? before.then(start) : start()).catch((error: unknown) =>
      log.warn("could not report a turn's start", error),
    );
    let over = false;
    const finish = () => {
      if (over) return;
      over = true;
      ended.resolve();
      if (this.last.get(sessionId) === ended.promise) this.last.delete(sessionId);
    };
    return {
      shown,
      end: async (report) => {
        try {
          await shown;
          await report();
        } finally {
          finish();
        }
      },
      abandon: finish,
    };
  }

  /** The session was closed or opened again: what came before does not hold it up. */
  forget(sessionId: string): void {
    this.last.delete(sessionId);
  }
}

/** The idle update ending a turn: its stop reason and tokens, or the error v1 answers. */
export function idleState(end: TurnEnd): v2.StateUpdate {
  if ("error" in end) {
    return {
      state: "idle",
      stopReason: "error",
      error: toRequestError(end.error).toErrorResponse(),
    };
  }
  return {
    state: "idle",
    stopReason: end.stopReason,
    ...(end.usage ? { usage: end.usage } : {}),
  } as v2.StateUpdate;
}
