// A subscription's usage limits in words a person reads at a glance (Claude Code's own), one
// warning per threshold crossed, and the state as data.
import { beforeAll, describe, expect, it } from "vitest";
import { toRequestError } from "../../../acp/errors.js";
import type {
  RateLimitInfo,
  SDKAssistantMessage,
  SDKResultMessage,
} from "../../../claude/types.js";
import { ClaudeAccountError } from "../../../errors.js";
import { outcomeOfResult } from "../../../session/turns/outcome.js";
import {
  RateLimitReporter,
  RateLimitWarnings,
  percentUsed,
  rateLimitMeta,
  resetDate,
  rateLimitSentence,
  resetTime,
  windowLine,
} from "../../../session/stream/rate-limits.js";
import { UsageCommand } from "../../../session/stream/usage-command.js";

beforeAll(() => {
  process.env.TZ = "UTC";
});

const NOW = new Date(Date.UTC(2026, 11, 3, 18, 0));
/** 9:43pm UTC the same day, in epoch seconds. */
const TONIGHT = Date.UTC(2026, 11, 3, 21, 43) / 1000;
const warning = (utilization: number, extra: Partial<RateLimitInfo> = {}): RateLimitInfo => ({
  status: "allowed_warning",
  rateLimitType: "five_hour",
  utilization,
  resetsAt: TONIGHT,
  ...extra,
});

describe("the words", () => {
  it("a warning names the share used, the window and when it resets", () => {
    expect(rateLimitSentence(warning(0.92), NOW)).toBe(
      "You've used 92% of your 5-hour limit \u00b7 resets 9:43pm (UTC)",
    );
  });

  it("each window by Claude Code's name for it", () => {
    expect(rateLimitSentence(warning(0.8, { rateLimitType: "seven_day" }), NOW)).toContain(
      "of your weekly limit",
    );
    expect(rateLimitSentence(warning(0.8, { rateLimitType: "seven_day_opus" }), NOW)).toContain(
      "of your Opus limit",
    );
  });

  it("the limit hit says so; a reset on another day names the day", () => {
    const nextWeek = Date.UTC(2026, 11, 8, 9, 5) / 1000;
    expect(
      rateLimitSentence(
        { status: "rejected", rateLimitType: "seven_day", resetsAt: nextWeek },
        NOW,
      ),
    ).toBe("You've hit your weekly limit \u00b7 resets Dec 8, 9:05am (UTC)");
  });

  it("without a utilization: over a threshold, or approaching the limit", () => {
    expect(
      rateLimitSentence(
        { status: "allowed_warning", rateLimitType: "five_hour", surpassedThreshold: 0.75 },
        NOW,
      ),
    ).toBe("Over 75% of your 5-hour limit used");
    expect(rateLimitSentence({ status: "allowed_warning", rateLimitType: "five_hour" }, NOW)).toBe(
      "Approaching 5-hour limit",
    );
  });

  it("overage states in Claude Code's words: now using usage credits, close to their limit, exhausted, credits required", () => {
    expect(rateLimitSentence(warning(1, { status: "rejected", isUsingOverage: true }), NOW)).toBe(
      "You're now using usage credits \u00b7 Your 5-hour limit resets 9:43pm (UTC)",
    );
    expect(rateLimitSentence({ status: "rejected", isUsingOverage: true }, NOW)).toBe(
      "Now using credits",
    );
    expect(
      rateLimitSentence(
        warning(1, { status: "rejected", isUsingOverage: true, overageStatus: "allowed_warning" }),
        NOW,
      ),
    ).toBe("You're close to your usage credit limit");
    expect(
      rateLimitSentence(warning(1, { status: "rejected", overageStatus: "rejected" }), NOW),
    ).toBe(
      "You've hit your 5-hour limit \u00b7 resets 9:43pm (UTC) \u00b7 usage credits exhausted",
    );
    expect(rateLimitSentence({ status: "rejected", errorCode: "credits_required" }, NOW)).toBe(
      "Credits are required to go on",
    );
  });

  it("percent used rounds as Claude Code does, and a reset time today has no date", () => {
    expect(percentUsed(0.925)).toBe(92);
    expect(percentUsed(0.999)).toBe(99);
    expect(resetTime(TONIGHT, NOW)).toBe("9:43pm (UTC)");
  });
});

describe("a reset time that is no date", () => {
  // What Claude Code makes of a reset header (Math.round(Number(value))), as JSON carries it:
  // `1e400` and text that is no number arrive as null.
  const NO_DATES: [string, unknown][] = [
    ["0 (the epoch)", 0],
    ["negative", -5],
    ["in the past", TONIGHT - 86400],
    ["now", NOW.getTime() / 1000],
    ["1e400 (Infinity)", Infinity],
    ["1e400 as JSON carries it", null],
    ["8.64e15 (past what a Date holds, in milliseconds)", 8.64e15],
    ["99999999999999999999", Math.round(Number("99999999999999999999"))],
    ["text that is no number", Math.round(Number("soon"))],
    ["more than a year ahead", NOW.getTime() / 1000 + 367 * 86400],
  ];

  it.each(NO_DATES)("%s: no date, no words, no data, and nothing throws", (_, resetsAt) => {
    const info = { ...warning(0.92), resetsAt, overageResetsAt: resetsAt } as RateLimitInfo;
    expect(resetDate(resetsAt, NOW)).toBeUndefined();
    expect(resetTime(resetsAt, NOW)).toBeUndefined();
    expect(rateLimitSentence(info, NOW)).toBe("You've used 92% of your 5-hour limit");
    expect(windowLine(info, NOW)).toBe("5-hour limit: 92% used");
    const meta = rateLimitMeta(info, NOW);
    for (const key of ["resetsAt", "resetsAtIso", "overageResetsAt", "overageResetsAtIso"])
      expect(meta).not.toHaveProperty(key);
    expect(new RateLimitReporter().report(info, NOW)?.title).toBe(
      "You've used 92% of your 5-hour limit",
    );
  });

  it("a reset within the year ahead is a date", () => {
    const inAYear = NOW.getTime() / 1000 + 366 * 86400;
    expect(resetDate(inAYear, NOW)?.getTime()).toBe(inAYear * 1000);
    expect(rateLimitMeta({ ...warning(0.5), overageResetsAt: inAYear }, NOW)).toMatchObject({
      overageResetsAt: inAYear,
      overageResetsAtIso: "2027-12-04T18:00:00.000Z",
    });
  });

  it("a utilization that is not a finite number is left out of the data", () => {
    const meta = rateLimitMeta({ ...warning(0.5), utilization: null } as unknown as RateLimitInfo);
    expect(meta).not.toHaveProperty("utilization");
    expect(meta).not.toHaveProperty("percentUsed");
  });
});

describe("one warning per threshold crossed", () => {
  it("92%, 93%, 94% of one window warn once; 100% hit is told; back to allowed, a new crossing warns again", () => {
    const warnings = new RateLimitWarnings();
    expect(warnings.observe(warning(0.92), NOW)?.severity).toBe("warning");
    expect(warnings.observe(warning(0.93), NOW)).toBeUndefined();
    expect(warnings.observe(warning(0.94), NOW)).toBeUndefined();
    expect(warnings.observe(warning(1, { status: "rejected" }), NOW)).toMatchObject({
      kind: "rate_limit_reached",
      severity: "error",
    });
    expect(
      warnings.observe({ status: "allowed", rateLimitType: "five_hour" }, NOW),
    ).toBeUndefined();
    expect(warnings.observe(warning(0.91), NOW)?.kind).toBe("rate_limit_warning");
  });

  it("an allowed state tells nothing", () => {
    expect(
      new RateLimitWarnings().observe(
        { status: "allowed", rateLimitType: "five_hour", utilization: 0.1 },
        NOW,
      ),
    ).toBeUndefined();
  });

  it("past the limit on usage credits the replies go on: told once, as a warning of its own kind", () => {
    const warnings = new RateLimitWarnings();
    const credits = warning(1, {
      status: "rejected",
      isUsingOverage: true,
      overageStatus: "allowed",
    });
    expect(warnings.observe(credits, NOW)).toEqual({
      kind: "rate_limit_credits",
      severity: "warning",
      title: "You're now using usage credits \u00b7 Your 5-hour limit resets 9:43pm (UTC)",
    });
    expect(warnings.observe(credits, NOW)).toBeUndefined();
  });
});

describe("the state as data", () => {
  it("status, window, utilization and the reset as epoch seconds and ISO 8601; nothing undefined", () => {
    expect(rateLimitMeta(warning(0.92), NOW)).toEqual({
      status: "allowed_warning",
      window: "five_hour",
      utilization: 0.92,
      percentUsed: 92,
      resetsAt: TONIGHT,
      resetsAtIso: "2026-12-03T21:43:00.000Z",
    });
  });

  it("every string forwarded from a header is cleaned as notices are: no C0 or C1 controls, no escape sequences", () => {
    const dirty = {
      status: "allowed\u0085",
      rateLimitType: "five_hour\u009b\u0007",
      overageStatus: "rejected\u0090\u001b[31m",
      overageDisabledReason: "out_of_credits\u009d\u009c\r\n",
      errorCode: "credits_required\u0080",
    } as unknown as RateLimitInfo;
    expect(rateLimitMeta(dirty, NOW)).toEqual({
      status: "allowed",
      window: "five_hour",
      overageStatus: "rejected",
      overageDisabledReason: "out_of_credits",
      errorCode: "credits_required",
    });
  });

  it.each(["fortnight", "constructor"])(
    "a window Claude Code has no name for (%s) has no words and no /usage line, and nothing throws",
    (window) => {
      const unknown = { status: "rejected", rateLimitType: window } as unknown as RateLimitInfo;
      expect(windowLine(unknown, NOW)).toBeUndefined();
      expect(rateLimitSentence(unknown, NOW)).toBeUndefined();
    },
  );

  it("rides on every usage update once a state is known", () => {
    const reporter = new RateLimitReporter();
    const usage: { used: number; size: number; _meta?: Record<string, unknown> } = {
      used: 10,
      size: 100,
    };
    expect(reporter.withState(usage)).toEqual(usage);
    reporter.report(warning(0.92), NOW);
    expect(reporter.withState(usage)).toMatchObject({
      used: 10,
      _meta: { claudeCode: { rateLimit: { status: "allowed_warning", percentUsed: 92 } } },
    });
  });
});

describe("a turn ended by a usage limit", () => {
  const limited = {
    type: "result",
    subtype: "success",
    is_error: true,
    result: "You've hit your 5-hour limit \u00b7 resets 9:43pm (UTC)",
  } as unknown as SDKResultMessage;

  it("fails with Claude Code's sentence as the whole message, the kind and the limit's state in data", () => {
    const state = rateLimitMeta(warning(1, { status: "rejected" }), NOW);
    const outcome = outcomeOfResult(
      limited,
      { cancelRequested: false, apiError: "rate_limit" },
      state,
    );
    expect("error" in outcome && outcome.error).toBeInstanceOf(ClaudeAccountError);
    const wire = toRequestError("error" in outcome ? outcome.error : undefined);
    expect(wire.code).toBe(-32603);
    expect(wire.message).toBe("You've hit your 5-hour limit \u00b7 resets 9:43pm (UTC)");
    expect(wire.data).toMatchObject({
      kind: "rate_limit",
      status: "rejected",
      window: "five_hour",
    });
  });

  it("another API error keeps its internal error", () => {
    const outcome = outcomeOfResult({ ...limited, result: "Overloaded" } as SDKResultMessage, {
      cancelRequested: false,
      apiError: "server_error",
    });
    expect(toRequestError("error" in outcome ? outcome.error : undefined).message).toBe(
      "Internal error: Overloaded",
    );
  });
});

describe("/usage without the plan from claude.ai", () => {
  const usageReply = (limits?: unknown[]) =>
    ({
      type: "assistant",
      parent_tool_use_id: null,
      message: { id: "reply-1", model: "<synthetic>", content: [] },
      ...(limits ? { usage_report: { rate_limits: { limits } } } : {}),
    }) as unknown as SDKAssistantMessage;
  const result = (local_command?: string) =>
    ({ type: "result", subtype: "success", result: "", local_command }) as SDKResultMessage;

  it("each window the replies reported is one line in Claude Code's words", () => {
    expect(windowLine(warning(0.92), NOW)).toBe(
      "5-hour limit: 92% used \u00b7 resets 9:43pm (UTC)",
    );
    expect(
      windowLine(
        warning(1, { status: "rejected", rateLimitType: "seven_day", resetsAt: TONIGHT + 86400 }),
        NOW,
      ),
    ).toBe("Weekly limit: limit reached \u00b7 resets Dec 4, 9:43pm (UTC)");
    expect(windowLine({ status: "allowed", rateLimitType: "five_hour" }, NOW)).toBe(
      "5-hour limit: below the warning level",
    );
  });

  it("/usage's reply gains the windows, in the same message, when Claude Code listed none", () => {
    const command = new UsageCommand();
    command.observe(usageReply());
    expect(command.addendum(result("usage"), [warning(0.92)], NOW)).toEqual({
      messageId: "reply-1",
      text: "\n\nPlan limits, as the last replies reported them:\n5-hour limit: 92% used \u00b7 resets 9:43pm (UTC)",
    });
  });

  it("nothing is added when Claude Code listed the plan's rows, when no window was reported, or after another command", () => {
    const command = new UsageCommand();
    command.observe(usageReply([{ kind: "session", percent: 42 }]));
    expect(command.addendum(result("usage"), [warning(0.92)], NOW)).toBeUndefined();
    command.observe(usageReply());
    expect(command.addendum(result("usage"), [], NOW)).toBeUndefined();
    command.observe(usageReply());
    expect(command.addendum(result("cost"), [warning(0.92)], NOW)).toBeUndefined();
    expect(command.addendum(result(), [warning(0.92)], NOW)).toBeUndefined();
  });

  it("the reporter keeps the latest state of each window", () => {
    const reporter = new RateLimitReporter();
    reporter.report(warning(0.91), NOW);
    reporter.report(warning(0.2, { rateLimitType: "seven_day" }), NOW);
    reporter.report(warning(0.95), NOW);
    expect(reporter.windows.map((w) => [w.rateLimitType, w.utilization])).toEqual([
      ["five_hour", 0.95],
      ["seven_day", 0.2],
    ]);
  });
});
