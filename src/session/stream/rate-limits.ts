// A subscription's usage limits as Claude Code reports them (`rate_limit_event`): a warning
// a person reads at a glance, in the words of Claude Code's terminal UI ("You've used 92% of
// your 5-hour limit · resets 9:43pm (UTC)"), sent once per threshold crossed, and the state
// as data an editor can draw a meter from.
import type { RateLimitInfo } from "../../claude/types.js";
import { cleanSingleLine } from "../../util/text.js";
import type { ClaudeNotice } from "./notices.js";

type RateLimitWindow = NonNullable<RateLimitInfo["rateLimitType"]>;

/** Each window's name, as Claude Code's terminal UI says it. */
export const WINDOW_NAMES: Record<RateLimitWindow, string> = {
  five_hour: "5-hour limit",
  seven_day: "weekly limit",
  seven_day_opus: "Opus limit",
  seven_day_sonnet: "Sonnet limit",
  seven_day_overage_included: "Fable limit",
  overage: "usage credit limit",
};

/** A window's name; none for one Claude Code does not name (a header can say anything). */
const windowName = (window: string | undefined): string | undefined =>
  window && Object.hasOwn(WINDOW_NAMES, window)
    ? WINDOW_NAMES[window as RateLimitWindow]
    : undefined;

/** The share of the window used, in whole percent (Claude Code rounds the same way). */
export function percentUsed(utilization: number | undefined): number | undefined {
  if (utilization === undefined || !Number.isFinite(utilization)) return undefined;
  return Math.max(0, Math.floor(Math.round(utilization * 1e4) / 100));
}

/**
 * How far ahead a reset may lie and still be one: the longest window is a week and usage
 * credits reset monthly, so a year leaves room for both. A header further out (or past what a
 * Date holds, 8.64e15 ms) is a wrong value, not a time to wait for.
 */
const LATEST_RESET_SECONDS_AHEAD = 366 * 24 * 3600;

/**
 * A reset time from Claude Code (epoch seconds, as a header said it) as a date, when it is
 * one: a finite time after now and at most a year ahead. A reset at the epoch, in the past,
 * too far ahead, or not a number (JSON carries a header's `1e400` as null) is no reset.
 */
export function resetDate(epochSeconds: unknown, now: Date = new Date()): Date | undefined {
  if (typeof epochSeconds !== "number" || !Number.isFinite(epochSeconds)) return undefined;
  const ahead = epochSeconds - now.getTime() / 1000;
  if (!(ahead > 0 && ahead <= LATEST_RESET_SECONDS_AHEAD)) return undefined;
  const at = new Date(epochSeconds * 1000);
  return Number.isNaN(at.getTime()) ? undefined : at;
}

/**
 * "9:43pm (UTC)" today, "Dec 5, 9:43pm (UTC)" on another day: in the agent's time zone;
 * none for a reset that is no date (resetDate).
 */
export function resetTime(
  epochSeconds: unknown,
  now: Date = new Date(),
  timeZone?: string,
): string | undefined {
  const at = resetDate(epochSeconds, now);
  if (!at) return undefined;
  const zone = timeZone ? { timeZone } : {};
  const day = (d: Date) =>
    new Intl.DateTimeFormat("en-US", { ...zone, dateStyle: "medium" }).format(d);
  const parts = new Intl.DateTimeFormat("en-US", {
    ...zone,
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
  }).formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  const clock = `${part("hour")}:${part("minute")}${part("dayPeriod").toLowerCase()} (${part("timeZoneName")})`;
  if (day(at) === day(now)) return clock;
  const date = new Intl.DateTimeFormat("en-US", { ...zone, month: "short", day: "numeric" });
  return `${date.format(at)}, ${clock}`;
}

/** Whether the replies are paid from usage credits (extra usage) past the plan's limit. */
const usingCredits = (info: RateLimitInfo) => !!(info.isUsingOverage ?? info.overageInUse);

/** The sentence for a state, as Claude Code's terminal UI words it; none for an unnamed window. */
export function rateLimitSentence(info: RateLimitInfo, now: Date = new Date()): string | undefined {
  if (info.errorCode === "credits_required") return "Credits are required to go on";
  const name = windowName(info.rateLimitType);
  const at = resetTime(info.resetsAt, now);
  if (usingCredits(info)) {
    if (info.overageStatus === "allowed_warning") return "You're close to your usage credit limit";
    const resets = name && at ? ` \u00b7 Your ${name} resets ${at}` : "";
    return name ? `You're now using usage credits${resets}` : "Now using credits";
  }
  if (!name) return undefined;
  const percent = percentUsed(info.utilization);
  const head =
    info.status === "rejected"
      ? `You've hit your ${name}`
      : percent !== undefined
        ? `You've used ${percent}% of your ${name}`
        : info.surpassedThreshold !== undefined
          ? `Over ${percentUsed(info.surpassedThreshold)}% of your ${name} used`
          : `Approaching ${name}`;
  const exhausted = info.overageStatus === "rejected" ? "usage credits exhausted" : undefined;
  return [head, at ? `resets ${at}` : undefined, exhausted].filter(Boolean).join(" \u00b7 ");
}

/**
 * One window as a line of `/usage` ("5-hour limit: 92% used · resets 9:43pm (UTC)"), from
 * what a reply's headers said of it; Claude Code reports no share of an allowed window.
 */
export function windowLine(info: RateLimitInfo, now: Date = new Date()): string | undefined {
  const name = windowName(info.rateLimitType);
  if (!name) return undefined;
  const percent = percentUsed(info.utilization);
  const state =
    info.status === "rejected"
      ? "limit reached"
      : percent !== undefined
        ? `${percent}% used`
        : "below the warning level";
  const at = resetTime(info.resetsAt, now);
  const resets = at ? `resets ${at}` : undefined;
  const line = [state, resets].filter(Boolean).join(" \u00b7 ");
  return `${name[0]?.toUpperCase()}${name.slice(1)}: ${line}`;
}

/** The state as data (`usage_update._meta.claudeCode.rateLimit`); see the README. */
export function rateLimitMeta(
  info: RateLimitInfo,
  now: Date = new Date(),
): Record<string, unknown> {
  // A reset rides as epoch seconds and ISO 8601 when it is a date (resetDate), else not at all.
  const reset = (seconds: number | undefined) => {
    const at = resetDate(seconds, now);
    return at ? { seconds, iso: at.toISOString() } : undefined;
  };
  // Claude Code forwards these strings from the headers as they came: cleaned as notices are.
  const text = (value: unknown) =>
    typeof value === "string" ? cleanSingleLine(value) || undefined : undefined;
  const resets = reset(info.resetsAt);
  const overageResets = reset(info.overageResetsAt);
  const fields: Record<string, unknown> = {
    status: text(info.status),
    window: text(info.rateLimitType),
    utilization: Number.isFinite(info.utilization) ? info.utilization : undefined,
    percentUsed: percentUsed(info.utilization),
    resetsAt: resets?.seconds,
    resetsAtIso: resets?.iso,
    overageStatus: text(info.overageStatus),
    overageResetsAt: overageResets?.seconds,
    overageResetsAtIso: overageResets?.iso,
    overageDisabledReason: text(info.overageDisabledReason),
    usingOverage: info.isUsingOverage ?? info.overageInUse,
    errorCode: text(info.errorCode),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/**
 * Decides which states the user is told of: a warning once per threshold crossed in a
 * window (Claude Code's `surpassedThreshold`, else each tenth of the window), again after
 * the window resets or the state went back to allowed; a limit hit or an overage state
 * each time it changes.
 */
export class RateLimitWarnings {
  private readonly told = new Set<string>();

  /** The notice for this state, if the user has not been told of it yet. */
  observe(info: RateLimitInfo, now: Date = new Date()): ClaudeNotice | undefined {
    const window = info.rateLimitType ?? "unknown";
    if (info.status === "allowed" && !usingCredits(info)) {
      // Back under the limits: a later crossing is told again.
      for (const key of [...this.told]) if (key.startsWith(`${window}:`)) this.told.delete(key);
      return undefined;
    }
    const step =
      info.status === "rejected"
        ? "rejected"
        : info.surpassedThreshold !== undefined
          ? `over-${info.surpassedThreshold}`
          : `tenth-${Math.floor((percentUsed(info.utilization) ?? 0) / 10)}`;
    const key = `${window}:${info.resetsAt ?? ""}:${step}:${info.overageStatus ?? ""}:${usingCredits(info)}`;
    if (this.told.has(key)) return undefined;
    const sentence = rateLimitSentence(info, now);
    if (!sentence) return undefined;
    this.told.add(key);
    // Past the limit on usage credits the replies go on: spend to know of, not an error.
    if (usingCredits(info))
      return { kind: "rate_limit_credits", severity: "warning", title: sentence };
    return {
      kind: info.status === "rejected" ? "rate_limit_reached" : "rate_limit_warning",
      severity: info.status === "rejected" ? "error" : "warning",
      title: sentence,
    };
  }
}

/** The session's view of its limits: what to tell, and the latest state for usage updates. */
export class RateLimitReporter {
  private readonly warnings = new RateLimitWarnings();
  private latest: Record<string, unknown> | undefined;
  private readonly byWindow = new Map<string, RateLimitInfo>();

  /** Claude Code reported a state: the notice to send, if any. */
  report(info: RateLimitInfo, now: Date = new Date()): ClaudeNotice | undefined {
    this.latest = rateLimitMeta(info, now);
    if (info.rateLimitType) this.byWindow.set(info.rateLimitType, info);
    return this.warnings.observe(info, now);
  }

  /** The latest state of each window reported so far, in the order first reported. */
  get windows(): RateLimitInfo[] {
    return [...this.byWindow.values()];
  }

  /** The latest state, as data (see rateLimitMeta); none reported yet: undefined. */
  get state(): Record<string, unknown> | undefined {
    return this.latest;
  }

  /** A usage update carrying the latest state in `_meta.claudeCode.rateLimit`. */
  withState<U extends { _meta?: Record<string, unknown> | null }>(usage: U): U {
    if (!this.latest) return usage;
    return { ...usage, _meta: { ...usage._meta, claudeCode: { rateLimit: this.latest } } };
  }
}
