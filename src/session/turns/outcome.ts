import type { StopReason } from "@agentclientprotocol/sdk";
import type { SDKResultMessage } from "../../claude/types.js";
import { AuthRequiredError, ClaudeAccountError, ClaudeTurnError } from "../../errors.js";
import { apiErrorClass, type ClaudeApiError } from "../stream/account-errors.js";

export type TurnOutcome = { stopReason: StopReason } | { error: Error };

export interface TurnFacts {
  cancelRequested: boolean;
  /** The `error` of the turn's last assistant message, when Claude Code reported an API error. */
  apiError?: ClaudeApiError;
}

/** What the session knows of the account's limits when the turn ends (rate-limits.ts). */
export type LimitState = Record<string, unknown> | undefined;

/** How Claude Code's `result` message ends the ACP prompt. */
export function outcomeOfResult(
  result: SDKResultMessage,
  facts: TurnFacts,
  limits?: LimitState,
): TurnOutcome {
  if (facts.cancelRequested) return { stopReason: "cancelled" };
  switch (result.subtype) {
    case "success":
      // Claude Code reports a final refusal and an exhausted output limit as errors;
      // for ACP they are ordinary ends of a turn.
      if (result.stop_reason === "refusal") return { stopReason: "refusal" };
      if (facts.apiError === "max_output_tokens") return { stopReason: "max_tokens" };
      if (result.is_error) return { error: turnError(result.result, facts.apiError, limits) };
      return { stopReason: stopReasonOf(result.stop_reason) };
    // The client's limits end the turn as ordinary stops; a notice says which (notices.ts).
    case "error_max_turns":
    case "error_max_budget_usd":
      return { stopReason: "max_turn_requests" };
    case "error_during_execution":
    case "error_max_structured_output_retries":
      return { error: turnError(result.errors.join("\n") || result.subtype, facts.apiError) };
    default: {
      const unknown: never = result;
      return { error: new ClaudeTurnError(`Unexpected result: ${JSON.stringify(unknown)}`) };
    }
  }
}

function stopReasonOf(reason: string | null): StopReason {
  switch (reason) {
    case "max_tokens":
      return "max_tokens";
    case "refusal":
      return "refusal";
    default:
      return "end_turn";
  }
}

function turnError(
  message: string,
  apiError: ClaudeApiError | undefined,
  limits?: LimitState,
): Error {
  const text = message.trim() || "Claude Code ended the turn with an error.";
  if (!apiError) return new ClaudeTurnError(text);
  // A subscription's usage limit is the account's only when Claude Code reported it rejected
  // ("You've hit your 5-hour limit · resets …"): the limit's state (window, reset) rides along.
  const rejected = apiError === "rate_limit" && limits?.status === "rejected";
  const { family, message: sentence, data } = apiErrorClass(apiError, text, rejected);
  switch (family) {
    case "auth":
      return new AuthRequiredError(sentence, data);
    case "account":
      return new ClaudeAccountError(sentence, rejected ? { ...data, ...limits } : data);
    case "turn":
      return new ClaudeTurnError(sentence, data);
  }
}
