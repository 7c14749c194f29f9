import type { StopReason } from "@agentclientprotocol/sdk";
import type { SDKAssistantMessage, SDKResultMessage } from "../claude/types.js";
import { AuthRequiredError, ClaudeLimitError, ClaudeTurnError } from "../errors.js";

export type TurnOutcome = { stopReason: StopReason } | { error: Error };

export type ClaudeApiError = NonNullable<SDKAssistantMessage["error"]>;

/** API errors that mean the credentials are missing or rejected. */
const AUTH_ERRORS: ReadonlySet<ClaudeApiError> = new Set<ClaudeApiError>([
  "authentication_failed",
  "oauth_org_not_allowed",
]);

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
  if (apiError && AUTH_ERRORS.has(apiError)) return new AuthRequiredError(text);
  // A subscription's usage limit (Claude Code reported it rejected): Claude Code's sentence
  // ("You've hit your 5-hour limit · resets …"), the kind and the limit's state (its window
  // and reset) for the client. An API rate limit without that state stays a turn error.
  if (apiError === "rate_limit" && limits?.status === "rejected") {
    return new ClaudeLimitError(text, { error: apiError, kind: "rate_limit", ...limits });
  }
  return new ClaudeTurnError(text, apiError ? { error: apiError } : undefined);
}
