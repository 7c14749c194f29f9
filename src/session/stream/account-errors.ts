// How an API error Claude Code reported ends a prompt. Every such error carries a kind a
// client can act on; the account's own errors (a usage limit, billing, a hold, a
// verification) are no internal errors: Claude Code's sentence is the whole message, with
// what to do next where the sentence does not say it, and it is shown in the conversation.
import type { SDKAssistantMessage } from "../../claude/types.js";
import { ClaudeAccountError } from "../../errors.js";
import type { ClaudeNotice } from "./notices.js";

export type ClaudeApiError = NonNullable<SDKAssistantMessage["error"]>;

/** The kind in a failed prompt's `data.kind` (README: "When a prompt fails"). */
export type ErrorKind =
  | "authentication"
  | "org_not_allowed"
  | "account_on_hold"
  | "verification_required"
  | "billing"
  | "rate_limit"
  | "overloaded"
  | "server_error"
  | "invalid_request"
  | "model_not_found"
  | "cloud_credentials"
  | "max_output_tokens"
  | "unknown";

/** How the prompt fails: the credentials, the account, or the turn. */
export type ErrorFamily = "auth" | "account" | "turn";

interface ErrorClass {
  kind: ErrorKind;
  family: ErrorFamily;
  /** Said after Claude Code's sentence when that sentence names no next step. */
  next?: string;
}

/** Where an Anthropic Console account adds credits (the page Claude Code names). */
const BILLING_URL = "https://platform.claude.com/settings/billing";

const ERRORS: Record<ClaudeApiError, ErrorClass> = {
  authentication_failed: { kind: "authentication", family: "auth" },
  oauth_org_not_allowed: { kind: "org_not_allowed", family: "auth" },
  account_on_hold: {
    kind: "account_on_hold",
    family: "account",
    next: "See your account's page on claude.ai, or log in with another account",
  },
  verification_required: {
    kind: "verification_required",
    family: "account",
    next: "Complete the verification in your browser, then send the prompt again",
  },
  billing_error: {
    kind: "billing",
    family: "account",
    next: `Add credits at ${BILLING_URL}, or log in with another account`,
  },
  // A subscription's limit is an account error only when Claude Code reported it rejected
  // (apiErrorClass); a per-minute API rate limit stays a turn error.
  rate_limit: { kind: "rate_limit", family: "turn" },
  overloaded: { kind: "overloaded", family: "turn" },
  server_error: { kind: "server_error", family: "turn" },
  invalid_request: { kind: "invalid_request", family: "turn" },
  model_not_found: { kind: "model_not_found", family: "turn" },
  cloud_credential_error: { kind: "cloud_credentials", family: "turn" },
  max_output_tokens: { kind: "max_output_tokens", family: "turn" },
  unknown: { kind: "unknown", family: "turn" },
};

/**
 * The HTTP status Claude Code's sentence names: "API Error: 529 Overloaded…" or
 * "API Error: Request rejected (429) · …".
 */
export function statusInSentence(sentence: string): number | undefined {
  const match = /^API Error: (?:(\d{3})\b|[^·(]*\((\d{3})\))/.exec(sentence);
  const status = match?.[1] ?? match?.[2];
  return status ? Number(status) : undefined;
}

export interface ApiErrorClass {
  kind: ErrorKind;
  family: ErrorFamily;
  /** The message the client gets: Claude Code's sentence, and the next step it lacks. */
  message: string;
  /** `data` of the JSON-RPC error (the limit's state rides along for a usage limit). */
  data: Record<string, unknown>;
}

/**
 * What an API error means for the user. `limitRejected`: Claude Code reported the
 * subscription's limit rejected (rate-limits.ts), so a rate limit is the account's.
 */
export function apiErrorClass(
  error: ClaudeApiError,
  sentence: string,
  limitRejected = false,
): ApiErrorClass {
  const known = ERRORS[error] ?? ERRORS.unknown;
  const status = statusInSentence(sentence);
  // Behind a custom base URL Claude Code calls a 529 a server error; its status says more.
  const kind = status === 529 ? "overloaded" : known.kind;
  const family = error === "rate_limit" && limitRejected ? "account" : known.family;
  return {
    kind,
    family,
    message: withNextStep(sentence, known.next),
    data: { error, kind, ...(status ? { status } : {}) },
  };
}

/** Claude Code separates a next step with " · "; a sentence without one gets ours. */
function withNextStep(sentence: string, next: string | undefined): string {
  if (!next || sentence.includes(" \u00b7 ") || /https?:\/\//.test(sentence)) return sentence;
  return `${sentence.replace(/[.\s]+$/, "")} \u00b7 ${next}`;
}

/**
 * The account error a failed prompt shows in the conversation too. A usage limit is shown
 * when Claude Code reports it (rate-limits.ts), so not again here.
 */
export function accountErrorNotice(error: Error): ClaudeNotice | undefined {
  if (!(error instanceof ClaudeAccountError)) return undefined;
  const kind = error.data?.kind;
  if (typeof kind !== "string" || kind === "rate_limit") return undefined;
  return { kind, severity: "error", title: error.message };
}
