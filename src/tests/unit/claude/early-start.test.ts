// Starting Claude Code while the Claude SDK loads: what the SDK spawned for a configuration
// is remembered (with the session's ids left out, and none of the environment it was
// given), the next session with that configuration starts the same process early, and the
// SDK is handed that process only if it asks for exactly it.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Options, SpawnOptions } from "@anthropic-ai/claude-agent-sdk";
import { describe, expect, it } from "vitest";
import { ClaudeProcess } from "../../../claude/child-process.js";
import { EarlyStarts, type PlannedSpawn, spawnDifference } from "../../../claude/early-start.js";
import { alive, gone } from "../../support/pids.js";

const FIRST = "11111111-1111-4111-8111-111111111111";
const SECOND = "22222222-2222-4222-8222-222222222222";

function options(overrides: Partial<Options> = {}): Options {
  return {
    cwd: "/work/one",
    sessionId: FIRST,
    permissionMode: "default",
    env: { PATH: "/usr/bin", ANTHROPIC_API_KEY: "sk-secret-value" },
    canUseTool: () => Promise.resolve({ behavior: "deny", message: "no" }),
    ...overrides,
  };
}

/** What the SDK asks for with `o`: its flags, the session's id, its own variables added. */
function sdkSpawn(o: Options): PlannedSpawn {
  return {
    command: "/opt/claude",
    args: ["--output-format", "stream-json", `--session-id=${o.sessionId}`],
    cwd: o.cwd,
    env: { ...o.env, CLAUDE_CODE_ENTRYPOINT: "sdk-ts" },
  };
}

function tempFile(): string {
  return join(mkdtempSync(join(tmpdir(), "acp-early-start-")), "starts.json");
}

describe("what an earlier start tells the next one", () => {
  it("a configuration seen before is expected with this session's id, directory and environment", () => {
    const starts = new EarlyStarts();
    const first = options();
    starts.remember(first, sdkSpawn(first));
    const second = options({
      sessionId: SECOND,
      cwd: "/work/two",
      env: { PATH: "/bin", ANTHROPIC_API_KEY: "sk-other" },
    });
    expect(starts.expected(second)).toEqual(sdkSpawn(second));
  });

  it("a configuration not seen is not expected: another mode, a callback more or less, resuming instead of a new id", () => {
    const starts = new EarlyStarts();
    const first = options();
    starts.remember(first, sdkSpawn(first));
    expect(starts.expected(options({ permissionMode: "plan" }))).toBeUndefined();
    expect(starts.expected(options({ canUseTool: undefined }))).toBeUndefined();
    expect(starts.expected(options({ sessionId: undefined, resume: SECOND }))).toBeUndefined();
  });

  it("what the SDK removed from the environment stays removed", () => {
    const starts = new EarlyStarts();
    const first = options({ env: { PATH: "/usr/bin", NODE_OPTIONS: "--inspect" } });
    const { NODE_OPTIONS: _removed, ...kept } = first.env!;
    starts.remember(first, { ...sdkSpawn(first), env: kept });
    expect(starts.expected(options({ env: { PATH: "/bin", NODE_OPTIONS: "-r x" } }))?.env).toEqual({
      PATH: "/bin",
    });
  });

  it("the file keeps what the SDK added to the environment and never the environment given, nor an MCP server's credentials", async () => {
    const file = tempFile();
    const starts = new EarlyStarts(file);
    const first = options({
      mcpServers: {
        docs: { type: "http", url: "https://mcp.test", headers: { Authorization: "Bearer tok-9" } },
      },
    });
    starts.remember(first, sdkSpawn(first));
    const saved = () => {
      try {
        return readFileSync(file, "utf8");
      } catch {
        return ""; // not written yet
      }
    };
    await expect.poll(saved).toContain("sdk-ts");
    for (const secret of ["sk-secret-value", "tok-9", "/usr/bin", FIRST]) {
      expect(saved()).not.toContain(secret);
    }
    // Another run reads it.
    const again = options({ ...first, sessionId: SECOND });
    expect(new EarlyStarts(file).expected(again)).toEqual(sdkSpawn(again));
  });

  it("an unreadable or foreign file means nothing is expected", () => {
    const file = tempFile();
    writeFileSync(file, '{"version":2,"plans":[]}');
    expect(new EarlyStarts(file).expected(options())).toBeUndefined();
    writeFileSync(file, "not json");
    expect(new EarlyStarts(file).expected(options())).toBeUndefined();
    expect(new EarlyStarts(join(file, "missing", "x.json")).expected(options())).toBeUndefined();
  });

  it("two spawns differ by their command, arguments, directory or environment; unset and absent variables are the same", () => {
    const base = sdkSpawn(options());
    expect(spawnDifference(base, { ...base, env: { ...base.env, EXTRA: undefined } })).toBe(
      undefined,
    );
    expect(spawnDifference(base, { ...base, command: "/other" })).toBe("command");
    expect(spawnDifference(base, { ...base, args: [...base.args, "--verbose"] })).toBe("arguments");
    expect(spawnDifference(base, { ...base, cwd: "/elsewhere" })).toBe("directory");
    expect(spawnDifference(base, { ...base, env: { ...base.env, PATH: "/sbin" } })).toBe(
      "environment",
    );
  });
});

/** A process that stays until its stdin closes, as Claude Code does. */
function waiting(args: string[] = []): PlannedSpawn {
  return { command: "/bin/sh", args: ["-c", "cat >/dev/null", ...args], env: { PATH: "/bin" } };
}

function sdkAsks(spawn: PlannedSpawn, abort = new AbortController()): SpawnOptions {
  return { ...spawn, signal: abort.signal };
}

describe("the process started early", () => {
  it("is handed to the SDK when the SDK asks for exactly it, and the SDK's abort still ends it", async () => {
    const claude = new ClaudeProcess();
    const early = claude.startEarly(waiting())!;
    const abort = new AbortController();
    const child = claude.spawn(sdkAsks(waiting(), abort));
    expect((child as { pid?: number }).pid).toBe(early);
    abort.abort();
    await gone(early);
    await claude.exited();
  });

  it("is ended, and the SDK's own started, when the SDK asks for another", async () => {
    const claude = new ClaudeProcess();
    const early = claude.startEarly(waiting())!;
    const child = claude.spawn(sdkAsks(waiting(["extra"])));
    const own = (child as { pid?: number }).pid!;
    expect(own).not.toBe(early);
    await gone(early);
    expect(alive(own)).toBe(true);
    claude.terminate();
    await claude.exited();
  });

  it("is not handed over once it has ended", async () => {
    const claude = new ClaudeProcess();
    const failing = { ...waiting(), args: ["-c", "exit 3"] };
    const early = claude.startEarly(failing)!;
    await gone(early);
    const child = claude.spawn(sdkAsks(failing));
    expect((child as { pid?: number }).pid).not.toBe(early);
    await claude.exited();
  });

  it("is ended when the SDK will not ask (the query closed first), and none starts after that", async () => {
    const claude = new ClaudeProcess();
    const early = claude.startEarly(waiting())!;
    claude.discardEarly();
    await gone(early);
    expect(claude.startEarly(waiting())).toBeUndefined();
  });
});
