import type { PromptResponse } from "@agentclientprotocol/sdk";
import type { Usage } from "@agentclientprotocol/sdk/unstable";
import { deferred } from "../../util/deferred.js";
import type { SDKResultMessage, UserContentBlock } from "../../claude/types.js";
import type { PlanHandoff } from "../../plan/handoff.js";
import type { ClaudeApiError } from "../stream/account-errors.js";
import type { TurnOutcome } from "./outcome.js";

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
  /** The ids of the user messages sent to Claude Code for this turn (results name them). */
  readonly sentIds = new Set<string>();
  /** Steers sent into this turn that no result has named yet, by id (see steering.ts). */
  readonly steers = new Map<string, UserContentBlock[]>();
  /** The result that answers it came and it only closes now: a steer cannot join it. */
  closing = false;
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

  /**
   * Whether a result answers this turn: it names one of the turn's messages. A result that
   * names none answers it too unless it says it comes from a turn Claude Code started
   * itself (a task notification, a wake-up): older Claude Code names no message.
   */
  answeredBy(result: SDKResultMessage): boolean {
    const named =
      result.user_message_uuids ?? (result.user_message_uuid ? [result.user_message_uuid] : []);
    if (named.length) return named.some((id) => this.sentIds.has(id));
    return !result.origin || result.origin.kind === "human";
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
