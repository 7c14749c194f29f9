// Anthropic's error shapes, used for HTTP faults, SSE error events and the server's own 400/404s.
import type { HttpFault } from "./types.js";
import type { SseEvent } from "./sse.js";
import { replyHeaders } from "./rate-limits.js";

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  504: "timeout_error",
  529: "overloaded_error",
};

const MESSAGES: Record<string, string> = {
  invalid_request_error: "Invalid request",
  authentication_error: "invalid x-api-key",
  permission_error: "Your API key does not have permission to use the specified resource.",
  not_found_error: "Not found",
  request_too_large: "Request exceeds the maximum allowed number of bytes.",
  rate_limit_error: "Number of request tokens has exceeded your per-minute rate limit",
  api_error: "Internal server error",
  timeout_error: "Request timed out",
  overloaded_error: "Overloaded",
};

export function errorTypeForStatus(status: number): string {
  return ERROR_TYPES[status] ?? (status >= 500 ? "api_error" : "invalid_request_error");
}

export function errorBody(
  type: string,
  message?: string,
  details?: Record<string, unknown>,
): Record<string, unknown> {
  const error = { type, message: message ?? MESSAGES[type] ?? type };
  return { type: "error", error: details ? { ...error, details } : error };
}

export interface HttpErrorResponse {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

export function httpFaultResponse(fault: HttpFault): HttpErrorResponse {
  const type = fault.errorType ?? errorTypeForStatus(fault.status);
  const headers: Record<string, string> = {};
  // Clients (the Anthropic SDK, Claude Code) honour retry-after when deciding how long to back off.
  if (fault.status === 429 || fault.status === 529 || fault.retryAfterSeconds !== undefined) {
    headers["retry-after"] = String(fault.retryAfterSeconds ?? 1);
  }
  return {
    status: fault.status,
    headers: { ...headers, ...replyHeaders(fault) },
    body: errorBody(type, fault.message, fault.details),
  };
}

/** The `error` event the API sends when a stream fails after it has started. */
export function streamErrorEvent(errorType = "overloaded_error", message?: string): SseEvent {
  return { event: "error", data: errorBody(errorType, message) };
}

/** Default cut point: right after the first content delta (or after message_start if none). */
export function defaultCutAfter(events: readonly SseEvent[]): number {
  const i = events.findIndex((e) => e.event === "content_block_delta");
  return i === -1 ? 1 : i + 1;
}
