// Anthropic's unified (subscription) rate-limit response headers, as Claude Code reads them.
import type { RateLimitSpec, RateLimitWindow, ReplyHeaders } from "./types.js";

const PREFIX = "anthropic-ratelimit-unified";

// Claude Code builds the per-window names from these abbreviations (`-5h-utilization`, ...).
const WINDOW_ABBREVIATION: Record<RateLimitWindow, string> = {
  five_hour: "5h",
  seven_day: "7d",
  seven_day_overage_included: "7d_oi",
  overage: "overage",
};

/** The headers the API sends for a limiter reading of one window. */
export function rateLimitHeaders(spec: RateLimitSpec): Record<string, string> {
  const w = `${PREFIX}-${WINDOW_ABBREVIATION[spec.window]}`;
  const headers: Record<string, string> = {
    [`${PREFIX}-status`]: spec.status,
    [`${PREFIX}-representative-claim`]: spec.window,
    [`${w}-status`]: spec.status,
  };
  if (spec.resetsAt !== undefined) {
    headers[`${PREFIX}-reset`] = String(spec.resetsAt);
    headers[`${w}-reset`] = String(spec.resetsAt);
  }
  if (spec.utilization !== undefined) headers[`${w}-utilization`] = String(spec.utilization);
  if (spec.surpassedThreshold !== undefined)
    headers[`${w}-surpassed-threshold`] = String(spec.surpassedThreshold);
  if (spec.overageStatus !== undefined) headers[`${PREFIX}-overage-status`] = spec.overageStatus;
  return headers;
}

/** A reply's extra headers: the rate-limit convenience first, so explicit headers can override it. */
export function replyHeaders(reply: ReplyHeaders): Record<string, string> {
  return {
    ...(reply.rateLimit ? rateLimitHeaders(reply.rateLimit) : {}),
    ...reply.headers,
  };
}
