// The agent's thinking switches, read as the published adapter reads them, each wrong value
// ignored with one clear log line.
import { describe, expect, it } from "vitest";
import { claudeEnvironment } from "../../../claude/environment.js";
import { thinkingOffOf } from "../../../claude/settings-report.js";
import {
  DEFAULT_THINKING_DISPLAY,
  initialThinking,
  thinkingCanBeOff,
  thinkingDisplay,
  thinkingOnBudget,
} from "../../../claude/thinking.js";

describe("the thinking display", () => {
  it("is summarized unless CLAUDE_CODE_THINKING_DISPLAY says summarized or omitted", () => {
    expect(DEFAULT_THINKING_DISPLAY).toBe("summarized");
    expect(thinkingDisplay({})).toBe("summarized");
    expect(thinkingDisplay({ CLAUDE_CODE_THINKING_DISPLAY: "omitted" })).toBe("omitted");
    expect(thinkingDisplay({ CLAUDE_CODE_THINKING_DISPLAY: "summarized" })).toBe("summarized");
    expect(thinkingDisplay({ CLAUDE_CODE_THINKING_DISPLAY: "OMITTED" })).toBe("summarized");
    expect(thinkingDisplay({ CLAUDE_CODE_THINKING_DISPLAY: "" })).toBe("summarized");
  });
});

describe("MAX_THINKING_TOKENS", () => {
  it("a non-negative integer reaches Claude Code as it is; anything else is left out (Claude Code would read it as 0)", () => {
    expect(claudeEnvironment({ MAX_THINKING_TOKENS: "0" }).MAX_THINKING_TOKENS).toBe("0");
    expect(claudeEnvironment({ MAX_THINKING_TOKENS: "8000" }).MAX_THINKING_TOKENS).toBe("8000");
    for (const bad of ["-1", "1e3", "lots", "12.5", " "]) {
      expect(claudeEnvironment({ MAX_THINKING_TOKENS: bad }), bad).not.toHaveProperty(
        "MAX_THINKING_TOKENS",
      );
    }
    expect(claudeEnvironment({})).not.toHaveProperty("MAX_THINKING_TOKENS");
  });
});

describe("the thinking a session starts with", () => {
  it("is the client's own thinking option, else off for a budget of 0, else the display the environment asks for", () => {
    expect(initialThinking({})).toBe("summarized");
    expect(initialThinking({ CLAUDE_CODE_THINKING_DISPLAY: "omitted" })).toBe("omitted");
    expect(initialThinking({ MAX_THINKING_TOKENS: "0" })).toBe("off");
    expect(initialThinking({ MAX_THINKING_TOKENS: "8000" })).toBe("summarized");
    expect(initialThinking({}, { thinking: { type: "disabled" } })).toBe("off");
    expect(initialThinking({}, { maxThinkingTokens: 0 })).toBe("off");
    const own = { thinking: { type: "adaptive" as const, display: "omitted" as const } };
    expect(initialThinking({ MAX_THINKING_TOKENS: "0" }, own)).toBe("omitted");
    expect(initialThinking({ MAX_THINKING_TOKENS: "0" }, { maxThinkingTokens: 500 })).toBe(
      "summarized",
    );
  });

  it("is turned on with the user's own budget, else one Claude Code lowers to the model's ceiling", () => {
    expect(thinkingOnBudget({ MAX_THINKING_TOKENS: "8000" })).toBe(8000);
    expect(thinkingOnBudget({}, { maxThinkingTokens: 4000 })).toBe(4000);
    for (const env of [{}, { MAX_THINKING_TOKENS: "0" }, { MAX_THINKING_TOKENS: "lots" }]) {
      expect(thinkingOnBudget(env)).toBe(1_000_000);
    }
  });
});

describe("the models whose thinking Claude Code 2.1.336 can turn off", () => {
  it("are the ones measured, by their id with a date, a provider's prefix or a context suffix; not the models it lists today, nor unknown ones", () => {
    for (const id of [
      "claude-sonnet-4-5",
      "claude-sonnet-4-5-20250929",
      "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
      "claude-sonnet-4-6[1m]",
      "claude-opus-5-20261101",
      "claude-haiku-4-5",
    ]) {
      expect(thinkingCanBeOff(id), id).toBe(true);
    }
    for (const id of [
      "claude-opus-5-5",
      "claude-sonnet-5-5",
      "claude-haiku-5-5",
      "claude-fable-5-2",
      "claude-opus-4-1",
      "sonnet",
      "default",
      undefined,
    ]) {
      expect(thinkingCanBeOff(id), String(id)).toBe(false);
    }
  });
});

describe("Claude Code's settings that start it with thinking off (its get_settings report)", () => {
  it("are alwaysThinkingEnabled false or a budget of 0 in their env; another shape says nothing", () => {
    const report = (effective: unknown) => ({ effective, applied: {} });
    expect(thinkingOffOf(report({ alwaysThinkingEnabled: false }))).toBe(true);
    expect(thinkingOffOf(report({ env: { MAX_THINKING_TOKENS: " 0 " } }))).toBe(true);
    expect(thinkingOffOf(report({ alwaysThinkingEnabled: true }))).toBe(false);
    expect(thinkingOffOf(report({ env: { MAX_THINKING_TOKENS: "8000" } }))).toBe(false);
    expect(thinkingOffOf(report({}))).toBe(false);
    expect(thinkingOffOf(undefined)).toBeUndefined();
  });
});
