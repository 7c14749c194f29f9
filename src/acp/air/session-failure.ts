// AIR's typed failure report (`sessionFailure`, client-declared), as AIR and the published
// adapter speak it: a turn that fails ends `end_turn` with the report in its answer's
// `_meta.jetbrains.air.sessionFailure`, and a Claude Code that cannot start is reported at once
// in a `session_info_update`, under the same id as the prompt it then fails. Each report says
// what kind of failure it is and which of AIR's actions can end it here; a sign-in the agent
// needs stays ACP's auth_required error, which starts AIR's login.
import { randomUUID } from "node:crypto";
import {
  AuthRequiredError,
  ClaudeAccountError,
  ClaudeExecutableNotFoundError,
  ClaudeNotRespondingError,
  ClaudeProcessExitedError,
  ClaudeStartError,
  ClaudeTurnError,
} from "../../errors.js";
import { redact } from "../../util/secrets.js";
import { cleanMultiline, cleanSingleLine } from "../../util/text.js";
import { AIR_CAPABILITIES, airDeclares, airMetaOf, withAirMeta } from "./extension.js";

const SESSION_FAILURE = AIR_CAPABILITIES.sessionFailure;

/** AIR's actions: send the prompt again, start a new session (AIR's `login` is auth_required's). */
type Action = "retry" | "new_session";

/**
 * The kinds of failure this agent reports, AIR's category of each, and the actions that end
 * it here. A session whose Claude Code stopped starts a new one at its next prompt and goes on
 * with its conversation, so `retry` is honest for a lost process too.
 */
const POLICY = {
  access_denied: { category: "service", actions: ["retry"] },
  bad_request: { category: "request", actions: [] },
  context_exhausted: { category: "limit", actions: ["new_session"] },
  internal_error: { category: "service", actions: ["retry", "new_session"] },
  overloaded: { category: "service", actions: ["retry"] },
  provider_error: { category: "service", actions: ["retry"] },
  quota_exhausted: { category: "limit", actions: [] },
  rate_limited: { category: "limit", actions: ["retry"] },
  transport_lost: { category: "connection", actions: ["retry"] },
} as const satisfies Record<string, { category: string; actions: readonly Action[] }>;

export type FailureKind = keyof typeof POLICY;

/** The kinds of a failed prompt's `data.kind` (session/stream/account-errors.ts) in AIR's words. */
const BY_ERROR_KIND: Readonly<Record<string, FailureKind>> = {
  rate_limit: "rate_limited",
  overloaded: "overloaded",
  server_error: "provider_error",
  unknown: "provider_error",
  invalid_request: "bad_request",
  model_not_found: "bad_request",
  cloud_credentials: "access_denied",
  verification_required: "access_denied",
  max_output_tokens: "context_exhausted",
  billing: "quota_exhausted",
  account_on_hold: "quota_exhausted",
};

/**
 * The kind of failure an error of a turn is, or undefined for one that stays a JSON-RPC error:
 * a sign-in the agent needs (AIR's login starts from auth_required), and a request the agent
 * refused (bad params, an unknown session), which no failure report describes.
 */
export function failureKindOf(error: unknown): FailureKind | undefined {
  if (error instanceof AuthRequiredError) return undefined;
  if (error instanceof ClaudeStartError || error instanceof ClaudeExecutableNotFoundError) {
    return "internal_error";
  }
  if (error instanceof ClaudeNotRespondingError || error instanceof ClaudeProcessExitedError) {
    return "transport_lost";
  }
  if (error instanceof ClaudeTurnError) {
    const kind = error.data?.kind;
    const known = typeof kind === "string" ? BY_ERROR_KIND[kind] : undefined;
    if (known) return known;
    // A usage limit, billing or hold: the account's, which a retry does not end.
    return error instanceof ClaudeAccountError ? "quota_exhausted" : "internal_error";
  }
  return undefined;
}

/** The id and revision each reported error got: its prompt reports the same failure again. */
const reported = new WeakMap<Error, { id: string; revision: number }>();

/** A failure report, as `_meta.jetbrains.air.sessionFailure` carries it. */
function report(sessionId: string, error: Error, kind: FailureKind): Record<string, unknown> {
  const before = reported.get(error);
  const id = before?.id ?? `${sessionId}:error:${randomUUID()}`;
  const revision = (before?.revision ?? 0) + 1;
  reported.set(error, { id, revision });
  // Claude Code's words (and a gateway's, through it): cleaned, and no secret the agent holds.
  const [first = "", ...rest] = error.message.split("\n");
  const title = redact(cleanSingleLine(first)) || "Claude Code failed.";
  const details = redact(cleanMultiline(rest.join("\n"))).trim();
  const data = "data" in error ? (error as { data?: Record<string, unknown> }).data : undefined;
  const reason = data?.startupFailureReason;
  const { category, actions } = POLICY[kind];
  return {
    id,
    revision,
    category,
    severity: "error",
    title,
    ...(details ? { details } : {}),
    ...(typeof reason === "string" ? { reason } : {}),
    actions: [...actions],
  };
}

/**
 * `_meta` reporting `error` as AIR's typed failure to a client that declared `sessionFailure`;
 * undefined for any other client, or an error no report describes (failureKindOf).
 */
export function sessionFailureMeta(
  capabilities: { _meta?: unknown },
  sessionId: string,
  error: unknown,
): Record<string, unknown> | undefined {
  if (!airDeclares(capabilities, SESSION_FAILURE) || !(error instanceof Error)) return undefined;
  const kind = failureKindOf(error);
  if (!kind) return undefined;
  return withAirMeta(undefined, SESSION_FAILURE, report(sessionId, error, kind));
}

/** Whether a prompt's answer reports a failure (its turn failed). */
export function isFailureAnswer(meta: unknown): boolean {
  return airMetaOf(meta)?.[SESSION_FAILURE] !== undefined;
}
