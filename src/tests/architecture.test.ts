import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL("..", import.meta.url));

/** Every production source file (tests excluded), with its import specifiers. */
function sources(): Array<{ file: string; imports: string[] }> {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "tests") walk(path);
      } else if (entry.name.endsWith(".ts")) {
        files.push(path);
      }
    }
  };
  walk(SRC);
  return files.map((path) => ({
    file: relative(SRC, path),
    imports: [...readFileSync(path, "utf8").matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)].map(
      (m) => m[1]!,
    ),
  }));
}

const inDir = (dir: string) => (file: string) => file.startsWith(`${dir}/`);
const IO_MODULES = /^(node:)?(fs|fs\/promises|child_process|net|http|https|dgram|worker_threads)$/;

describe("the layout is the architecture", () => {
  const all = sources();

  it("only src/claude/ imports the Claude Agent SDK", () => {
    const offenders = all
      .filter((s) => s.imports.some((i) => i.startsWith("@anthropic-ai/claude-agent-sdk")))
      .map((s) => s.file)
      .filter((file) => !inDir("claude")(file));
    expect(offenders).toEqual([]);
  });

  it("the Claude boundary builds no ACP messages: src/claude/ does not import the ACP SDK", () => {
    const offenders = all
      .filter((s) => inDir("claude")(s.file))
      .filter((s) => s.imports.some((i) => i.startsWith("@agentclientprotocol/sdk")))
      .map((s) => s.file);
    expect(offenders).toEqual([]);
  });

  it("the protocol layer (src/acp/) does not reach into src/claude/", () => {
    const offenders = all
      .filter((s) => inDir("acp")(s.file))
      .filter((s) => s.imports.some((i) => i.includes("/claude/")))
      .map((s) => s.file);
    expect(offenders).toEqual([]);
  });

  it("permission builders and tool renderers are pure: no I/O modules in src/permissions/ or src/tools/", () => {
    const offenders = all
      .filter((s) => inDir("permissions")(s.file) || inDir("tools")(s.file))
      .filter((s) => s.imports.some((i) => IO_MODULES.test(i)))
      .map((s) => s.file);
    expect(offenders).toEqual([]);
  });

  it("the files scanned are the real tree", () => {
    expect(all.map((s) => s.file)).toContain("agent.ts");
    expect(all.length).toBeGreaterThan(50);
  });
});
