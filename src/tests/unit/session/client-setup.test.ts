// What a session-opening request configures: the system prompt RFD (refused when it cannot
// be applied), `_meta.systemPrompt` of older clients, options and extra roots.
import { describe, expect, it } from "vitest";
import { InvalidParamsError } from "../../../errors.js";
import { clientSetup, rfdSystemPrompt } from "../../../session/configuration/client-setup.js";

const text = (t: string) => ({ type: "text", text: t });

describe("the RFD's systemPrompt", () => {
  it("append keeps Claude Code's preset and adds the text; override is the text itself", () => {
    expect(rfdSystemPrompt({ mode: "append", content: [text("A"), text("B")] })).toEqual({
      type: "preset",
      preset: "claude_code",
      append: "A\n\nB",
    });
    expect(rfdSystemPrompt({ mode: "override", content: [text("You are Z.")] })).toBe("You are Z.");
  });

  it("an unknown mode, a block that is not text, no block or too long a text is invalid params", () => {
    for (const prompt of [
      { mode: "prepend", content: [text("x")] },
      { mode: "append", content: [{ type: "image" }] },
      { mode: "append", content: [] },
      { mode: "override", content: [text("x".repeat(200_001))] },
    ]) {
      expect(() => rfdSystemPrompt(prompt)).toThrow(InvalidParamsError);
    }
  });
});

describe("clientSetup", () => {
  it("the RFD's field wins over _meta.systemPrompt, which wins over the options' own", () => {
    const meta = {
      systemPrompt: "from meta",
      claudeCode: { options: { systemPrompt: "from options" } },
    };
    expect(clientSetup({ _meta: meta }).systemPrompt).toBe("from meta");
    expect(
      clientSetup({ _meta: meta, systemPrompt: { mode: "override", content: [text("rfd")] } })
        .systemPrompt,
    ).toBe("rfd");
    expect(
      clientSetup({ _meta: { claudeCode: { options: { systemPrompt: "from options" } } } })
        .systemPrompt,
    ).toBe("from options");
  });

  it("_meta.systemPrompt as an object keeps Claude Code's preset with the client's preset options", () => {
    expect(
      clientSetup({ _meta: { systemPrompt: { append: "More.", excludeDynamicSections: true } } })
        .systemPrompt,
    ).toEqual({
      type: "preset",
      preset: "claude_code",
      append: "More.",
      excludeDynamicSections: true,
    });
  });

  it("a _meta.systemPrompt of another shape is ignored, and the client is told", () => {
    const setup = clientSetup({ _meta: { systemPrompt: { prompt: 42 } } });
    expect(setup.systemPrompt).toBeUndefined();
    expect(setup.ignored).toEqual([{ name: "_meta.systemPrompt", reason: "invalid" }]);
  });

  it("model, effort and permission mode go to the session's configuration, setting sources and directories apart, the rest to Claude Code", () => {
    const setup = clientSetup({
      _meta: {
        additionalRoots: ["/r"],
        claudeCode: {
          options: {
            model: "opus",
            effort: "high",
            permissionMode: "plan",
            settingSources: ["local"],
            additionalDirectories: ["/d"],
            maxTurns: 4,
          },
        },
      },
    });
    expect(setup).toEqual({
      model: "opus",
      effort: "high",
      permissionMode: "plan",
      settingSources: ["local"],
      additionalDirectories: ["/d"],
      additionalRoots: ["/r"],
      options: { maxTurns: 4 },
      ignored: [],
    });
  });

  it("no _meta configures nothing", () => {
    expect(clientSetup({})).toEqual({
      options: {},
      additionalDirectories: [],
      additionalRoots: [],
      ignored: [],
    });
  });
});

describe("JetBrains AIR's custom instructions (_meta.jetbrains.air.customInstructions)", () => {
  const air = (instructions: unknown) => ({
    jetbrains: { air: { customInstructions: instructions } },
  });

  it("follow Claude Code's own prompt, or the prompt the client set, in every form the SDK takes", () => {
    expect(clientSetup({ _meta: air("Be brief.") }).systemPrompt).toEqual({
      type: "preset",
      preset: "claude_code",
      append: "Be brief.",
    });
    const appended = { mode: "append", content: [text("Use tabs.")] };
    expect(clientSetup({ _meta: air("Be brief."), systemPrompt: appended }).systemPrompt).toEqual({
      type: "preset",
      preset: "claude_code",
      append: "Use tabs.\n\nBe brief.",
    });
    const overridden = { mode: "override", content: [text("You are Z.")] };
    expect(clientSetup({ _meta: air("Be brief."), systemPrompt: overridden }).systemPrompt).toBe(
      "You are Z.\n\nBe brief.",
    );
  });

  it("empty, not text, or over the system prompt's limit change nothing; the last is said", () => {
    expect(clientSetup({ _meta: air("  ") }).systemPrompt).toBeUndefined();
    expect(clientSetup({ _meta: air(42) }).systemPrompt).toBeUndefined();
    const long = clientSetup({ _meta: air("x".repeat(200_001)) });
    expect(long.systemPrompt).toBeUndefined();
    expect(long.ignored).toEqual([
      { name: "_meta.jetbrains.air.customInstructions", reason: "invalid" },
    ]);
  });
});
