import type { PromptResponse } from "@agentclientprotocol/sdk";
import type { Usage } from "@agentclientprotocol/sdk/unstable";
import { deferred } from "../util/deferred.js";
import type { UserContentBlock } from "../claude/types.js";
import type { PlanHandoff } from "../plan/handoff.js";
import type { ClaudeApiError, TurnOutcome } from "./outcome.js";

/**
 * One ACP prompt while it runs. The client's answer (`outcome`) can settle before
 * Claude Code has finished the turn (`finished`), e.g. when a cancelled turn is
 * slow to stop; the session waits for both before starting the next turn.
 */
export class Turn {
  private readonly outcomeDeferred = deferred<TurnOutcome>();
  private readonly finishedDeferred = deferred<void>();
  private settled = false;
  private ended = false;

  /** Aborted when the turn is cancelled: open permission asks listen to it. */
  readonly abort = new AbortController();
  cancelRequested = false;
  apiError: ClaudeApiError | undefined;
  /** Tokens of this ACP turn, over every Claude turn it took. */
  usage: Usage | undefined;
  /** The plan ExitPlanMode is asking about, read when the ask is built. */
  planText: string | undefined;
  /** Set by a clear-context choice: the turn continues in a new conversation. */
  handoff: PlanHandoff | undefined;
  /** What was sent to Claude, kept to send again if its process never saw it. */
  prompt: UserContentBlock[] | undefined;
  /** Claude Code said something (anything) since the prompt was sent. */
  heardFromClaude = false;
  resent = false;

  readonly outcome: Promise<TurnOutcome> = this.outcomeDeferred.promise;
  readonly finished: Promise<void> = this.finishedDeferred.promise;

  get isSettled(): boolean {
    return this.settled;
  }

  get isFinished(): boolean {
    return this.ended;
  }

  /** Answers the ACP prompt (first answer wins). */
  settle(outcome: TurnOutcome): void {
    if (this.settled) return;
    this.settled = true;
    this.outcomeDeferred.resolve(outcome);
  }

  /** Claude Code is done with this turn: its result arrived or its process ended. */
  finish(): void {
    if (this.ended) return;
    this.ended = true;
    this.finishedDeferred.resolve();
  }

  cancel(): void {
    if (this.cancelRequested) return;
    this.cancelRequested = true;
    this.abort.abort(new Error("Turn cancelled"));
  }
}

/** The prompt's answer; `usage` is the unstable PromptResponse field. */
export function toPromptResponse(outcome: TurnOutcome, usage: Usage | undefined): PromptResponse {
  if ("error" in outcome) throw outcome.error;
  const response: PromptResponse & { usage?: Usage } = { stopReason: outcome.stopReason };
  if (usage) response.usage = usage;
  return response;
}
