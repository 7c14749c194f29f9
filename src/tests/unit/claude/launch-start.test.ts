// Starting the first session's Claude Code at the agent's launch: a new session's start is
// remembered with its folder, the next launch starts it (with a session id of its own,
// for the first session/new), and the first session to start takes it only if it asks for
// exactly that spawn; otherwise, or if none does, it is ended.
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Options } from "@anthropic-ai/claude-agent-sdk";
import { describe, expect, it, vi } from "vitest";
import { EarlyStarts } from "../../../claude/early-start.js";
import { claudeEnvironment, sdkEnvironment } from "../../../claude/environment.js";
import {
  LAUNCH_START_WAIT_MS,
  launchStartWanted,
  startAtLaunch,
} from "../../../claude/launch-start.js";
import { type PlannedSpawn, SESSION, startsFile } from "../../../claude/start-plan.js";
import { MARKER_VARIABLE, processesWithMarker } from "../../support/e2e/processes.js";
import { alive, gone } from "../../support/pids.js";
import { trustFolder } from "../../support/trusted-folder.js";

const FIRST = "11111111-1111-4111-8111-111111111111";
const RESUMED = "33333333-3333-4333-8333-333333333333";

/**
 * A cache, a project folder (one Claude Code trusts, unless `trusted` is false), and the
 * environment of an agent that uses them.
 */
function machine(trusted = true): { env: NodeJS.ProcessEnv; project: string } {
  const root = mkdtempSync(join(tmpdir(), "acp-launch-start-"));
  const project = join(root, "project");
  mkdirSync(project);
  const home = join(root, "home");
  const configDir = join(home, ".claude");
  if (trusted) trustFolder({ CLAUDE_CONFIG_DIR: configDir }, project);
  return {
    project,
    env: {
      PATH: "/bin",
      HOME: home,
      CLAUDE_CONFIG_DIR: configDir,
      XDG_CACHE_HOME: join(root, "cache"),
      CLAUDE_AGENT_ACP_LAUNCH_START: "1",
      // Passed on to the processes started at launch, which are found by it.
      [MARKER_VARIABLE]: randomUUID(),
    },
  };
}

/** The options the agent gives the SDK for a session in `cwd`. */
function options(env: NodeJS.ProcessEnv, cwd: string, ids: Partial<Options>): Options {
  return {
    cwd,
    permissionMode: "default",
    env: sdkEnvironment(claudeEnvironment(env)),
    canUseTool: () => Promise.resolve({ behavior: "deny", message: "no" }),
    ...ids,
  };
}

/**
 * What the SDK spawns: a process that waits on its stdin, as Claude Code does. Builtins
 * only: a shell that forked a `cat` would show as a second process for a moment.
 */
function sdkSpawn(o: Options): PlannedSpawn {
  const id = o.sessionId ?? o.resume ?? "";
  return {
    command: "/bin/sh",
    args: ["-c", "while read -r _; do :; done", "claude", `--session-id=${id}`],
    cwd: o.cwd,
    env: { ...o.env, CLAUDE_CODE_ENTRYPOINT: "sdk-ts" },
  };
}

/** A run that started a session with `ids` in `project`, its start saved. */
async function earlierRun(env: NodeJS.ProcessEnv, project: string, ids: Partial<Options>) {
  const starts = new EarlyStarts(startsFile(env));
  const o = options(env, project, ids);
  starts.remember(o, sdkSpawn(o));
  await expect.poll(() => saved(env)).toContain(`"launch"`);
}

function saved(env: NodeJS.ProcessEnv): string {
  try {
    return readFileSync(startsFile(env), "utf8");
  } catch {
    return ""; // not written yet
  }
}

describe("when the agent starts Claude Code at launch", () => {
  it("only when CLAUDE_AGENT_ACP_LAUNCH_START=1, for ACP (no command-line arguments), with early starts on and no spare", () => {
    const env = { CLAUDE_AGENT_ACP_LAUNCH_START: "1" };
    expect(launchStartWanted([], env)).toBe(true);
    expect(launchStartWanted([], {})).toBe(false);
    expect(launchStartWanted([], { CLAUDE_AGENT_ACP_LAUNCH_START: "0" })).toBe(false);
    expect(launchStartWanted(["--help"], env)).toBe(false);
    expect(launchStartWanted([], { ...env, CLAUDE_AGENT_ACP_EARLY_START: "0" })).toBe(false);
    expect(launchStartWanted([], { ...env, CLAUDE_AGENT_ACP_PREWARM: "1" })).toBe(false);
  });

  it("nothing is started before a new session was started once, nor when its folder is gone", async () => {
    const { env, project } = machine();
    expect(startAtLaunch([], env)).toBeUndefined();
    await earlierRun(env, join(project, "removed"), { sessionId: FIRST });
    expect(startAtLaunch([], env)).toBeUndefined();
  });

  it("a resumed session is not what the next launch starts: the last new one is", async () => {
    const { env, project } = machine();
    await earlierRun(env, project, { sessionId: FIRST });
    const other = join(project, "..");
    const starts = new EarlyStarts(startsFile(env));
    const resumed = options(env, other, { resume: RESUMED });
    starts.remember(resumed, sdkSpawn(resumed));
    const plans = () => (JSON.parse(saved(env)) as { plans: unknown[] }).plans.length;
    await expect.poll(plans).toBe(2);
    expect((JSON.parse(saved(env)) as { launch: { cwd: string } }).launch.cwd).toBe(project);
  });
});

describe("a session for a provider the client set", () => {
  it("is not what the next launch starts: the provider is not set yet then, and its start would be another", async () => {
    const { env, project } = machine();
    await earlierRun(env, project, { sessionId: FIRST });
    const elsewhere = join(project, "..");
    const starts = new EarlyStarts(startsFile(env));
    const routed = options(env, elsewhere, {
      sessionId: RESUMED,
      settings: { env: { ANTHROPIC_BASE_URL: "https://gw.example" } },
    });
    starts.remember(routed, sdkSpawn(routed));
    const plans = () => (JSON.parse(saved(env)) as { plans: unknown[] }).plans.length;
    await expect.poll(plans).toBe(2);
    expect((JSON.parse(saved(env)) as { launch: { cwd: string } }).launch.cwd).toBe(project);
  });
});

describe("the Claude Code started at launch", () => {
  it("never runs in a folder Claude Code does not trust now (a trust given to an earlier agent alone counts for nothing): its hooks would run unasked", async () => {
    const { env, project } = machine(false);
    await earlierRun(env, project, { sessionId: FIRST });
    expect(startAtLaunch([], env)).toBeUndefined();
    const everywhere = startAtLaunch([], { ...env, CLAUDE_AGENT_ACP_TRUST_ALL_FOLDERS: "1" });
    expect(everywhere).toBeDefined();
    everywhere!.discard();
  });

  it("runs the last new session's spawn in its folder, under a session id given once, to the first new session", async () => {
    const { env, project } = machine();
    await earlierRun(env, project, { sessionId: FIRST });
    expect(saved(env)).not.toContain(FIRST);
    expect(saved(env)).toContain(JSON.stringify(SESSION).slice(1, -1));

    const launched = startAtLaunch([], env)!;
    const id = launched.nextSessionId()!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(id).not.toBe(FIRST);
    expect(launched.nextSessionId()).toBeUndefined();

    const child = launched.take(sdkSpawn(options(env, project, { sessionId: id })))!;
    expect(alive(child.pid)).toBe(true);
    expect(child.spawnargs).toContain(`--session-id=${id}`);
    // Taken once: a second session starts its own.
    expect(launched.take(sdkSpawn(options(env, project, { sessionId: id })))).toBeUndefined();
    child.kill();
    await gone(child.pid);
  });

  it("is ended when the first session to start asks for another spawn (another folder), or for one not seen", async () => {
    const { env, project } = machine();
    await earlierRun(env, project, { sessionId: FIRST });

    const unseen = startAtLaunch([], env)!;
    expect(unseen.take(undefined)).toBeUndefined();

    const elsewhere = startAtLaunch([], env)!;
    const id = elsewhere.nextSessionId()!;
    const otherFolder = sdkSpawn(options(env, join(project, ".."), { sessionId: id }));
    expect(elsewhere.take(otherFolder)).toBeUndefined();
    // Neither process is left: each was ended when it was let go.
    await expect.poll(() => launchedCount(env), { timeout: 5_000 }).toBe(0);
  });

  it(`is ended when no session has taken it ${LAUNCH_START_WAIT_MS / 1000} s after the launch`, async () => {
    const { env, project } = machine();
    await earlierRun(env, project, { sessionId: FIRST });
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const launched = startAtLaunch([], env)!;
      const id = launched.nextSessionId()!;
      expect(await launchedCount(env)).toBe(1);
      vi.advanceTimersByTime(LAUNCH_START_WAIT_MS - 1);
      expect(await launchedCount(env)).toBe(1);
      vi.advanceTimersByTime(1);
      // Let go: a session that comes later, even with its spawn, starts its own.
      expect(launched.take(sdkSpawn(options(env, project, { sessionId: id })))).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
    await expect.poll(() => launchedCount(env), { timeout: 5_000 }).toBe(0);
  });

  it("is ended by discard (the agent is done) if no session took it", async () => {
    const { env, project } = machine();
    await earlierRun(env, project, { sessionId: FIRST });
    const launched = startAtLaunch([], env)!;
    expect(await launchedCount(env)).toBe(1);
    launched.discard();
    await expect.poll(() => launchedCount(env), { timeout: 5_000 }).toBe(0);
  });
});

/** This test's processes started at launch: they carry its marker and a session id. */
async function launchedCount(env: NodeJS.ProcessEnv): Promise<number> {
  const marked = await processesWithMarker(env[MARKER_VARIABLE]!);
  return marked.filter((p) => p.command.includes("--session-id=")).length;
}
