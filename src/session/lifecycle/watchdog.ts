import type { ClaudeQuery } from "../../claude/query.js";
import { ClaudeNotRespondingError } from "../../errors.js";
import { log } from "../../logger.js";
import { TimeoutError, withTimeout } from "../../util/timeout.js";

/** The env variable that sets HANG_TIMEOUT_MS. */
export const HANG_TIMEOUT_VARIABLE = "CLAUDE_AGENT_ACP_HANG_TIMEOUT_MS";
/**
 * A running turn silent this long gets a status request, which Claude Code must answer
 * within this long again; no answer means the process is hung.
 */
export const HANG_TIMEOUT_MS = 30_000;
/** An interrupt (session/cancel) Claude Code has not answered by then means it is hung. */
export const INTERRUPT_TIMEOUT_MS = 5_000;

export interface WatchdogBounds {
  /** Silence of a running turn before the probe. */
  silenceMs: number;
  /** How long the probe may take to be answered. */
  answerMs: number;
  /** How long an interrupt may take to be answered. */
  interruptMs: number;
}

/** The bounds from the environment (a shorter hang timeout also shortens the interrupt's). */
export function watchdogBounds(env: NodeJS.ProcessEnv): WatchdogBounds {
  const value = Number(env[HANG_TIMEOUT_VARIABLE]);
  const hangMs = Number.isFinite(value) && value > 0 ? value : HANG_TIMEOUT_MS;
  return {
    silenceMs: hangMs,
    answerMs: hangMs,
    interruptMs: Math.min(hangMs, INTERRUPT_TIMEOUT_MS),
  };
}

/**
 * Tells a Claude Code process that stopped answering from one that is only quiet. Silence
 * alone is not a hang (a long tool run, a slow model stream), and while the client holds
 * a permission ask or a question open Claude Code is waiting on us, so that time does not
 * count. A running turn silent for `silenceMs` is probed with a control request Claude Code
 * must answer; no answer within `answerMs`, or no answer to an interrupt within
 * `interruptMs`, and `onHung` is called with the process at fault.
 */
export class Watchdog {
  private watching = false;
  private lastHeard = 0;
  private timer: NodeJS.Timeout | undefined;
  private probing = false;
  /** Permission asks and questions the client holds open. */
  private waitingOnClient = 0;
  /**
   * Processes that finished starting. Start-up is not silence: it has its own bound (the
   * Claude SDK's initialize timeout), and Claude Code answers nothing before it is done.
   */
  private readonly started = new WeakSet<ClaudeQuery>();

  constructor(
    private readonly bounds: WatchdogBounds,
    /** The process a running turn depends on now. */
    private readonly current: () => ClaudeQuery | undefined,
    private readonly onHung: (query: ClaudeQuery, error: ClaudeNotRespondingError) => void,
  ) {}

  /** A turn is running: from now on its silence counts. */
  watch(): void {
    this.watching = true;
    this.heard();
    this.arm(this.bounds.silenceMs);
  }

  /** No turn is running. */
  unwatch(): void {
    this.watching = false;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Claude Code said something. Cheap: called for every message. */
  heard(): void {
    this.lastHeard = Date.now();
  }

  /** The callback (a permission ask, an MCP elicitation) with the client's answering time kept out of the silence. */
  pausedWhileClientAnswers<A extends unknown[], R>(
    callback: (...args: A) => Promise<R>,
  ): (...args: A) => Promise<R> {
    return async (...args) => {
      this.waitingOnClient++;
      try {
        return await callback(...args);
      } finally {
        this.waitingOnClient--;
        this.heard();
      }
    };
  }

  /** An interrupt was sent to `query`: it must be answered within the bound. */
  interrupted(query: ClaudeQuery, answer: Promise<void>): void {
    const { interruptMs } = this.bounds;
    withTimeout(answer, interruptMs, "The interrupt").catch((error: unknown) => {
      if (error instanceof TimeoutError) {
        if (this.current() === query) {
          this.hung(query, `it did not answer an interrupt within ${interruptMs} ms`);
        }
      } else log.warn("interrupt failed", error);
    });
  }

  private arm(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.check(), ms);
    this.timer.unref();
  }

  private async check(): Promise<void> {
    if (!this.watching) return;
    const { silenceMs, answerMs } = this.bounds;
    const quietFor = Date.now() - this.lastHeard;
    const query = this.current();
    if (this.waitingOnClient > 0 || quietFor < silenceMs || this.probing || !query) {
      this.arm(Math.max(silenceMs - quietFor, 50));
      return;
    }
    if (!this.started.has(query)) {
      const before = Date.now();
      this.probing = true;
      await query.initialization().catch(() => undefined);
      this.probing = false;
      this.started.add(query);
      // Still starting when the silence began: the silence counts from the end of start-up.
      if (Date.now() > before) {
        this.heard();
        if (this.watching) this.arm(silenceMs);
        return;
      }
    }
    this.probing = true;
    try {
      await withTimeout(query.probe(), answerMs, "The status request");
      this.heard();
    } catch (error) {
      // Any other failure means the process is ending: its end is handled where it is seen.
      if (error instanceof TimeoutError && this.current() === query) {
        this.hung(
          query,
          `it was silent for ${silenceMs} ms and did not answer a status request within ${answerMs} ms`,
        );
        return;
      }
    } finally {
      this.probing = false;
    }
    if (this.watching) this.arm(silenceMs);
  }

  private hung(query: ClaudeQuery, why: string): void {
    this.unwatch();
    this.onHung(
      query,
      new ClaudeNotRespondingError(
        `Claude Code stopped responding (${why}); it was ended. The next prompt resumes the conversation.`,
      ),
    );
  }
}
