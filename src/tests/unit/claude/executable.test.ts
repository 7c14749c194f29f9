// Which of the SDK's platform packages holds Claude Code: on Linux npm installs glibc's or
// musl's by the machine's libc, so the one installed answers without asking node which
// libc this is (process.report, tens of milliseconds on the first session/new).
import { describe, expect, it } from "vitest";
import { installedBinary } from "../../../claude/executable.js";

const GLIBC = "@anthropic-ai/claude-agent-sdk-linux-x64";
const MUSL = "@anthropic-ai/claude-agent-sdk-linux-x64-musl";

/** A lookup where only `installed` exist, and a libc check that counts its calls. */
function setup(installed: string[], musl = false) {
  const asked = { libc: 0 };
  const binaryOf = (pkg: string) => (installed.includes(pkg) ? `/sdk/${pkg}/claude` : undefined);
  const isMusl = () => {
    asked.libc++;
    return musl;
  };
  return { asked, find: () => installedBinary(binaryOf, "linux", "x64", isMusl) };
}

describe("the platform package that holds Claude Code", () => {
  it("on Linux, the only one installed is taken without asking which libc this is", () => {
    for (const pkg of [GLIBC, MUSL]) {
      const { asked, find } = setup([pkg]);
      expect(find()).toBe(`/sdk/${pkg}/claude`);
      expect(asked.libc).toBe(0);
    }
  });

  it("with both installed, the libc decides", () => {
    expect(setup([GLIBC, MUSL], true).find()).toBe(`/sdk/${MUSL}/claude`);
    expect(setup([GLIBC, MUSL], false).find()).toBe(`/sdk/${GLIBC}/claude`);
  });

  it("with none installed, none is found", () => {
    expect(setup([]).find()).toBeUndefined();
  });

  it("elsewhere there is one package per platform and architecture", () => {
    const binaryOf = (pkg: string) => (pkg.endsWith("-darwin-arm64") ? "/sdk/claude" : undefined);
    expect(installedBinary(binaryOf, "darwin", "arm64", () => true)).toBe("/sdk/claude");
    expect(installedBinary(binaryOf, "win32", "x64", () => true)).toBeUndefined();
  });
});
