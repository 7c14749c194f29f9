import { describe, expect, it } from "vitest";
import { processMayBypass } from "../../../session/configuration/modes.js";

const ROOT = 0;

describe("bypass permissions as root is allowed exactly when Claude Code allows it", () => {
  it.each([
    ["1", true],
    ["yes", false],
    ["true", false],
    ["on", false],
    ["0", false],
    ["", false],
    [" 1", false],
    ["01", false],
  ])("as root, IS_SANDBOX=%j allows bypass: %s", (value, allowed) => {
    expect(processMayBypass({ IS_SANDBOX: value }, ROOT)).toBe(allowed);
  });

  it("as root without IS_SANDBOX, bypass is not allowed", () => {
    expect(processMayBypass({}, ROOT)).toBe(false);
  });

  it.each([
    ["1", true],
    ["true", true],
    ["YES", true],
    [" on ", true],
    ["0", false],
    ["false", false],
    ["2", false],
    ["", false],
  ])(
    "as root, Claude Code's bubblewrap sandbox CLAUDE_CODE_BUBBLEWRAP=%j allows bypass: %s",
    (value, allowed) => {
      expect(processMayBypass({ CLAUDE_CODE_BUBBLEWRAP: value }, ROOT)).toBe(allowed);
    },
  );

  it("a process that is not root may always bypass, whatever IS_SANDBOX says", () => {
    for (const env of [{}, { IS_SANDBOX: "yes" }, { IS_SANDBOX: "0" }]) {
      expect(processMayBypass(env, 1000)).toBe(true);
    }
  });

  it("where there are no user ids (Windows) bypass is allowed", () => {
    expect(processMayBypass({}, undefined)).toBe(true);
  });
});
