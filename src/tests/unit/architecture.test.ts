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

/**
 * The layers of src/, top first, each a list of rooms (a folder, or a file at the top). A
 * file may import its own layer and the layers below it, never one above: what a lower room
 * needs of a higher one moves down. session/'s rooms share a layer; they import one another
 * and have rules of their own (no circle, no import of session/'s top). The READMEs say the
 * same room by room.
 */
const LAYERS: ReadonlyArray<{ layer: string; rooms: readonly string[] }> = [
  {
    layer: "entry points: the bin, the server, the library, the demo",
    rooms: ["index.ts", "main.ts", "lib.ts", "demo/", "serve/", "claude-side.ts"],
  },
  {
    layer: "protocol apps: ACP v1 and the v2 draft over the core, and the terminal client",
    rooms: [
      "protocols.ts",
      "agent.ts",
      "account-routes.ts",
      "air/",
      "served-sessions.ts",
      "acp/v2/",
      "client/",
    ],
  },
  { layer: "the core: what the agent does, whatever the protocol", rooms: ["core/"] },
  { layer: "a session's top, which wires its rooms", rooms: ["session/"] },
  {
    layer: "a session's rooms",
    rooms: [
      "session/turns/",
      "session/stream/",
      "session/background/",
      "session/configuration/",
      "session/lifecycle/",
    ],
  },
  {
    layer: "what a session uses: MCP servers, plans, questions, skills",
    rooms: ["mcp/", "plan/", "questions/", "skills/"],
  },
  { layer: "the permission extension", rooms: ["permissions/"] },
  { layer: "tool use as ACP tool calls", rooms: ["tools/"] },
  {
    layer: "the edges: ACP's wire, Claude Code, the Anthropic API's double",
    rooms: ["acp/", "claude/", "scripted-api/"],
  },
  { layer: "the provider a client chose", rooms: ["providers/"] },
  { layer: "the foundation", rooms: ["runtime/", "util/", "logger.ts", "errors.ts", "version.ts"] },
];

/**
 * Imports from a lower room to a higher one that are let stand, "file -> target" with the
 * reason, each justified in its room's README too. None today.
 */
const UPWARD_ALLOWED: Readonly<Record<string, string>> = {};

/** The room a file is in: the longest room of LAYERS its path starts with, or that it is. */
function roomOf(file: string): string | undefined {
  const rooms = LAYERS.flatMap((l) => l.rooms).filter(
    (r) => file === r || (r.endsWith("/") && file.startsWith(r)),
  );
  return rooms.sort((a, b) => b.length - a.length)[0];
}

const layerOf = (file: string): number => {
  const room = roomOf(file);
  return LAYERS.findIndex((l) => room !== undefined && l.rooms.includes(room));
};

/** Imports running back up the layers, "file -> target": a lower room importing a higher one. */
function upwardImports(graph: Map<string, string[]>): string[] {
  return [...graph].flatMap(([file, targets]) =>
    targets
      .filter((target) => layerOf(target) < layerOf(file))
      .map((target) => `${file} -> ${target}`),
  );
}

/**
 * Lines a source file may hold: a file that grows past it is split by what it does. Tests
 * are not held to it (a test file is a list of cases), nor src/scripted-api/.
 */
const MAX_LINES = 350;

/** The files of `files` over `max` lines, with their length. */
function oversized(files: ReadonlyArray<{ file: string; text: string }>, max: number): string[] {
  return files
    .map(({ file, text }) => ({
      file,
      lines: text.split("\n").length - (text.endsWith("\n") ? 1 : 0),
    }))
    .filter(({ lines }) => lines > max)
    .map(({ file, lines }) => `${file}: ${lines}`);
}

/** Each test module (fixtures aside: they are inputs) and the modules of src/tests/ it imports. */
function testImports(): Array<{ file: string; targets: string[] }> {
  const tests = join(SRC, "tests");
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "fixtures") walk(path);
      } else if (entry.name.endsWith(".ts")) files.push(path);
    }
  };
  walk(tests);
  return files.map((path) => ({
    file: relative(SRC, path),
    targets: [...readFileSync(path, "utf8").matchAll(/(?:from|import)\s*\(?\s*"(\.[^"]+)"/g)]
      .map((m) => resolve(dirname(path), m[1]!.replace(/\.js$/, ".ts")))
      .filter((target) => target.startsWith(`${tests}/`) && existsSync(target))
      .map((target) => relative(SRC, target)),
  }));
}

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

  it("every source file is in a room of a layer (a new folder is given its place in LAYERS)", () => {
    expect(all.map((s) => s.file).filter((file) => roomOf(file) === undefined)).toEqual([]);
  });

  it("no import runs back up the layers: a lower room never imports a higher one (type-only imports count)", () => {
    const upward = upwardImports(importGraph(all));
    expect(upward.filter((edge) => !(edge in UPWARD_ALLOWED))).toEqual([]);
    // An exception that no longer happens leaves the list.
    expect(Object.keys(UPWARD_ALLOWED).filter((edge) => !upward.includes(edge))).toEqual([]);
  });

  it(`no source file over ${MAX_LINES} lines (tests and src/scripted-api/ aside): a longer one is split by what it does`, () => {
    const files = all
      .filter((s) => !inDir("scripted-api")(s.file))
      .map((s) => ({ file: s.file, text: readFileSync(join(SRC, s.file), "utf8") }));
    expect(oversized(files, MAX_LINES)).toEqual([]);
  });

  it("tests import no other test file and no program (the stub agent runs on load): what they share is in tests/support/", () => {
    const offenders = testImports().flatMap(({ file, targets }) =>
      targets
        .filter(
          (t) =>
            t.endsWith(".test.ts") || /process\.stdin/.test(readFileSync(join(SRC, t), "utf8")),
        )
        .map((t) => `${file} -> ${t}`),
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

  it("the layer check finds an import running up, and the size check a long file", () => {
    const graph = new Map([
      ["util/text.ts", ["session/session.ts"]],
      ["session/turns/turn.ts", ["session/stream/stream.ts", "acp/channel.ts"]],
      ["core/agent-core.ts", ["session/session.ts"]],
    ]);
    expect(upwardImports(graph)).toEqual(["util/text.ts -> session/session.ts"]);
    expect(oversized([{ file: "a.ts", text: "x\n".repeat(351) }], MAX_LINES)).toEqual([
      "a.ts: 351",
    ]);
    expect(oversized([{ file: "b.ts", text: "x\n".repeat(350) }], MAX_LINES)).toEqual([]);
  });

  it("the files scanned are the real tree", () => {
    expect(all.map((s) => s.file)).toContain("agent.ts");
    expect(all.length).toBeGreaterThan(50);
  });
});
