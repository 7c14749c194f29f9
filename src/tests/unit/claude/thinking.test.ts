// The agent's thinking switches, read as the published adapter reads them, each wrong value
// ignored with one clear log line.
import { describe, expect, it } from "vitest";
import { claudeEnvironment } from "../../../claude/environment.js";
import { DEFAULT_THINKING_DISPLAY, thinkingDisplay } from "../../../claude/thinking.js";

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
