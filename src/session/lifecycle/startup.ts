import type { ClaudeInitialization, ClaudeQuery } from "../../claude/query.js";
import { ClaudeStartError } from "../../errors.js";
import { isNamedStartupFailure } from "./startup-failure.js";
import { log } from "../../logger.js";
import { mark } from "../../runtime/marks.js";
import { deferred } from "../../util/deferred.js";
import { withTimeout } from "../../util/timeout.js";

/** How long Claude Code may take to start. */
export const START_TIMEOUT_MS = 60_000;

/** What the session does once its process has started, or failed to. */
export interface StartupHost {
  started(query: ClaudeQuery, initialization: ClaudeInitialization): Promise<void>;
  failed(query: ClaudeQuery, error: Error): Promise<void>;
}

/**
 * The error a prompt gets for a start that failed with `cause`: the cause itself when Claude
 * Code named it (startup-failure.ts), else a start error that quotes it.
 */
export function startError(cause: unknown): Error {
  if (isNamedStartupFailure(cause)) return cause;
  const reason = cause instanceof Error ? cause.message : typeof cause === "string" ? cause : "";
  return new ClaudeStartError(
    `Claude Code did not start${reason ? `: ${reason}` : ""}. The next prompt starts it again.`,
  );
}

/**
 * Watches the start of a session's first Claude Code process, which session/new no longer
 * waits for: it ends once, either when Claude Code reports what it offers, or when the
 * process fails first (its initialization rejects or times out, or its messages end).
 */
export class StartupWatch {
  private starting: ClaudeQuery | undefined;
  private readonly done = deferred<void>();

  constructor(
    query: ClaudeQuery,
    private readonly host: StartupHost,
  ) {
    this.starting = query;
    void withTimeout(query.initialization(), START_TIMEOUT_MS, "Claude Code start-up")
      .then(
        async (initialization) => {
          mark("claude-started");
          if (this.starting !== query) return;
          this.starting = undefined;
          await host.started(query, initialization).finally(() => this.done.resolve());
        },
        (error: unknown) => this.fail(query, error),
      )
      .catch((error: unknown) => log.warn("after Claude Code's start", error));
  }

  /** Settles once the start is decided (started or failed) and the host has handled it. */
  get decided(): Promise<void> {
    return this.done.promise;
  }

  /** Whether `query`'s start is still undecided. */
  isStarting(query: ClaudeQuery): boolean {
    return this.starting === query;
  }

  /** The process ended (or the session gave up on it) before it started. */
  async fail(query: ClaudeQuery, cause: unknown): Promise<void> {
    if (this.starting !== query) return;
    this.starting = undefined;
    await this.host.failed(query, startError(cause)).finally(() => this.done.resolve());
  }
}
