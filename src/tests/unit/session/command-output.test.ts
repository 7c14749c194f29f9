// What a finished command's terminal has not shown yet (session/background/command-output.ts):
// the output file a followed command was read from is gone when it ends, so its result brings
// the rest. Every byte the command printed is shown once, in order; Claude Code's result cuts
// leading blank lines and trailing whitespace, and only previews a long output.
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resultOutput, unshownOutput } from "../../../session/background/command-output.js";

const trimmed = (text: string) => ({ text, trimmed: true });
const shown = (text: string, full = false) => ({ text, full });

describe("the output a command's result still has to show", () => {
  it("is all of it, with its last line ended, when nothing was shown while it ran", () => {
    expect(unshownOutput(undefined, trimmed("only-at-end"))).toBe("only-at-end\n");
    expect(unshownOutput(undefined, trimmed(""))).toBe("");
  });

  it("is what follows the shown text when the command printed more after its file was last read", () => {
    const result = trimmed("line-1\nline-2\nline-3\nline-4\nline-5\nFINAL-LINE");
    expect(unshownOutput(shown("line-1\nline-2\nline-3\nline-4\nline-5\n"), result)).toBe(
      "FINAL-LINE\n",
    );
    expect(unshownOutput(shown(""), trimmed("a\nb"))).toBe("a\nb\n");
  });

  it("is nothing when the file showed it all: the line breaks the result cut are not a difference", () => {
    expect(unshownOutput(shown("a\nb\n"), trimmed("a\nb"))).toBe("");
    expect(unshownOutput(shown("end  \n\n\n"), trimmed("end"))).toBe("");
    expect(unshownOutput(shown("a\n  "), trimmed("a"))).toBe("");
  });

  it("matches shown text whose leading blank lines and trailing spaces the result cut", () => {
    expect(unshownOutput(shown("\n\n  lead  \n"), trimmed("  lead  \nend"))).toBe("end\n");
    expect(unshownOutput(shown("\n\n"), trimmed("lead"))).toBe("lead\n");
  });

  it("is the exact rest of a whole saved output, with no line break added", () => {
    const whole = { text: "1\n2\n3\n4", trimmed: false };
    expect(unshownOutput(shown("1\n2\n"), whole)).toBe("3\n4");
    expect(unshownOutput(undefined, whole)).toBe("1\n2\n3\n4");
  });

  it("is nothing once the shown output reached its bound, or when the shown text is no beginning of the result", () => {
    expect(unshownOutput(shown("x\n[output truncated]\n", true), trimmed("x\ny"))).toBe("");
    expect(unshownOutput(shown("elsewhere\n"), trimmed("1\n2"))).toBe("");
    expect(unshownOutput(shown("elsewhere\n"), { text: "1\n2", trimmed: false })).toBe("");
  });
});

describe("a result's output", () => {
  it("is the saved file's whole text when Claude Code saved one, else the result's own trimmed text", async () => {
    const dir = await mkdtemp(join(tmpdir(), "command-output-"));
    const saved = join(dir, "bw3k3yg06.txt");
    await writeFile(saved, "1\n2\n3\n");
    expect(await resultOutput("1\n2 (preview)", saved)).toEqual({
      text: "1\n2\n3\n",
      trimmed: false,
    });
    expect(await resultOutput("1\n2", join(dir, "missing.txt"))).toEqual(trimmed("1\n2"));
    expect(await resultOutput("1\n2")).toEqual(trimmed("1\n2"));
  });
});
