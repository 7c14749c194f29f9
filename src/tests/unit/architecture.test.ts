import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL("../..", import.meta.url));

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

/** The source files each file imports (relative imports, type-only ones too), by path from src/. */
function importGraph(all: ReturnType<typeof sources>): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const { file, imports } of all) {
    const targets = imports
      .filter((i) => i.startsWith("."))
      .map((i) => relative(SRC, resolve(SRC, dirname(file), i.replace(/\.js$/, ".ts"))))
      .filter((target) => existsSync(join(SRC, target)));
    graph.set(file, targets);
  }
  return graph;
}

/** The groups of files that import one another, round a circle (Tarjan's algorithm). */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || graph.get(file)?.includes(file)) found.push(group.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}
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

  it("no import circles: no file imports, through others, a file that imports it (type-only imports count)", () => {
    expect(circles(importGraph(all))).toEqual([]);
  });

  it("session/'s rooms never import its top (session.ts, options.ts, registry.ts): the top wires the rooms", () => {
    const top = (file: string) => inDir("session")(file) && dirname(file) === "session";
    const rooms = all.filter((s) => inDir("session")(s.file) && !top(s.file));
    expect(rooms.length).toBeGreaterThan(40);
    const graph = importGraph(all);
    const offenders = rooms.flatMap((s) =>
      (graph.get(s.file) ?? []).filter(top).map((target) => `${s.file} -> ${target}`),
    );
    expect(offenders).toEqual([]);
  });

  it("no folder of src/ (tests included) holds more than 30 code files: one that grows past it is split by responsibility", () => {
    const crowded: string[] = [];
    const walk = (dir: string): void => {
      const entries = readdirSync(dir, { withFileTypes: true });
      const code = entries.filter((e) => e.isFile() && /\.(ts|mjs)$/.test(e.name));
      if (code.length > 30) crowded.push(`${relative(SRC, dir)}: ${code.length}`);
      for (const entry of entries) if (entry.isDirectory()) walk(join(dir, entry.name));
    };
    walk(SRC);
    expect(crowded).toEqual([]);
  });

  it("the circle check finds a circle", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts"]],
      ["d.ts", ["a.ts"]],
    ]);
    expect(circles(graph)).toEqual([["a.ts", "b.ts", "c.ts"]]);
  });

  it("the files scanned are the real tree", () => {
    expect(all.map((s) => s.file)).toContain("agent.ts");
    expect(all.length).toBeGreaterThan(50);
  });
});
