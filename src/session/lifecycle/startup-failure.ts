import type { SDKResultMessage, StartupFailureReason } from "../../claude/types.js";
import { AuthRequiredError, ClaudeStartError, SessionNotFoundError } from "../../errors.js";

/** Start-up failures the user ends by accepting terms: auth_required, saying where. */
const TERMS: ReadonlyMap<StartupFailureReason, string> = new Map([
  [
    "consumer_terms_review_in_terminal",
    "Review Claude's updated Consumer Terms: run `claude` in a terminal and accept them, then prompt again.",
  ],
  [
    "consumer_terms_accept_on_web",
    "Accept Claude's updated Consumer Terms at claude.ai, then prompt again.",
  ],
]);

/** The errors made here: Claude Code named their cause. */
const named = new WeakSet<Error>();

/** Whether `error` is a start-up failure whose cause Claude Code named. */
export function isNamedStartupFailure(error: unknown): error is Error {
  return error instanceof Error && named.has(error);
}

/**
 * The error a start-up failure Claude Code reported (`startup_failure_reason` on its result)
 * stands for: a sign-in that ended or terms to accept need the user (auth_required), a
 * conversation to resume that is gone is a session not found, and every other cause is a
 * start error whose data names it. Undefined for any other result. `sessionId`: the ACP
 * session's (its conversation may be another after a plan handoff).
 */
export function startupFailureError(
  result: SDKResultMessage,
  sessionId: string,
): Error | undefined {
  if (result.subtype !== "error_during_execution" || !result.startup_failure_reason) {
    return undefined;
  }
  const error = errorOf(result, result.startup_failure_reason, sessionId);
  named.add(error);
  return error;
}

/** A result that reports an error (its `errors` say what). */
type ErrorResult = Exclude<SDKResultMessage, { subtype: "success" }>;

function errorOf(result: ErrorResult, reason: StartupFailureReason, sessionId: string): Error {
  const said = result.errors.join("\n").trim();
  const data = { startupFailureReason: reason };
  // The wire error adds how to sign in again (acp/auth.ts).
  if (reason === "org_signin_ended") {
    return new AuthRequiredError(said || "Your organization ended this sign-in", data);
  }
  const terms = TERMS.get(reason);
  if (terms) return new AuthRequiredError(said ? `${said}\n${terms}` : terms, data, true);
  if (reason === "resume_target_not_found") return new SessionNotFoundError(sessionId);
  const config = result.invalid_config_file;
  return new ClaudeStartError(
    `Claude Code did not start: ${said || reason.replaceAll("_", " ")}`,
    config ? { ...data, invalidConfigFile: { ...config } } : data,
  );
}
