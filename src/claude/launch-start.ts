// An editor's first thread: the agent is spawned, initialize and session/new follow at
// once, then the first prompt, which waits for Claude Code's start (most of a second).
// So the bin starts the Claude Code of the last new session's configuration, in its
// directory, as its first act, before the agent's bundle loads; the first session/new
// takes its session id and, when the SDK asks for exactly that spawn, its process
// (early-start.ts, child-process.ts). A guess that turns out wrong (another folder,
// other settings) ends that process; one no session takes is ended after a while, so
// that no idle Claude Code is held for a thread that never comes.
//
// Off unless CLAUDE_AGENT_ACP_LAUNCH_START=1. Claude Code runs its SessionStart hooks as it
// starts, before any input: started at launch, it runs those of the last folder before the
// user opens a thread, and for nothing when the thread is elsewhere. On two cores its start
// also slows the agent's own: a later initialize, for a sooner first turn (README.md,
// Performance, has the figures).
import { randomUUID } from "node:crypto";
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync } from "node:fs";
import { log } from "../logger.js";
import { mark } from "../runtime/marks.js";
import { end as endProcess, KILL_GRACE_MS, spawnClaudeCode, unusable } from "./child-process.js";
import { claudeEnvironment, sdkEnvironment } from "./environment.js";
import { TRUST_ALL_FOLDERS, trustedByClaudeCodeNow } from "./trust-store.js";
import {
  earlyStartsEnabled,
  fillPlan,
  type PlannedSpawn,
  readStarts,
  spareWanted,
  spawnDifference,
  startsFile,
} from "./start-plan.js";

/** A process started at launch that no session has taken by then is ended. */
export const LAUNCH_START_WAIT_MS = 30_000;

/**
 * Whether to start Claude Code at launch: when CLAUDE_AGENT_ACP_LAUNCH_START=1, but never
 * when early starts are off or a spare is kept (sessions then start from it), nor for a
 * command (--help, --login).
 */
export function launchStartWanted(argv: readonly string[], env: NodeJS.ProcessEnv): boolean {
  if (argv.length > 0 || !earlyStartsEnabled(env) || spareWanted(env)) return false;
  return env.CLAUDE_AGENT_ACP_LAUNCH_START === "1";
}

/** The Claude Code started at launch, for the first new session. */
export interface LaunchStart {
  /** The process's session id, for the first new session; undefined once given. */
  nextSessionId(): string | undefined;
  /**
   * The process, if `expected` is exactly the spawn it was started with; otherwise it is
   * ended. Answers once: the first session to start takes it or lets it go.
   */
  take(expected: PlannedSpawn | undefined): ChildProcessWithoutNullStreams | undefined;
  /** Ends it, if no session took it. */
  discard(): void;
}

/**
 * Whether a start remembered from an earlier run may run now: it runs with the folder's
 * project files (the environment it is filled in with is the agent's), so only in a folder
 * Claude Code's store trusts today (or every folder, by the agent's switch), never on a trust
 * the user gave an earlier agent process alone (core/session-trust.ts).
 */
function trustedNow(cwd: string, env: NodeJS.ProcessEnv): boolean {
  return env[TRUST_ALL_FOLDERS] === "1" || trustedByClaudeCodeNow(cwd, env);
}

/** Starts the last new session's Claude Code, if it is wanted and a session was started before. */
export function startAtLaunch(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
): LaunchStart | undefined {
  if (!launchStartWanted(argv, env)) return undefined;
  const starts = readStarts(startsFile(env));
  const pointer = starts.launch;
  const plan = pointer && starts.plans.find((p) => p.key === pointer.key);
  if (!pointer || !plan || !existsSync(pointer.cwd)) return undefined;
  const sessionId = randomUUID();
  const spawn = fillPlan(plan, {
    sessionId,
    cwd: pointer.cwd,
    env: sdkEnvironment(claudeEnvironment(env)),
  });
  if (!spawn || !trustedNow(pointer.cwd, env)) return undefined;
  mark("claude-launch-start");
  let child: ChildProcessWithoutNullStreams | undefined;
  try {
    child = spawnClaudeCode(spawn);
  } catch (error) {
    log.debug("could not start Claude Code at launch", error);
    return undefined;
  }
  let failed = false;
  child.once("error", () => (failed = true));
  let idGiven = false;
  const end = (why: string): void => {
    if (!child) return;
    log.debug(`Claude Code started at launch is not used (${why})`);
    clearTimeout(timer);
    void endProcess(child, KILL_GRACE_MS);
    child = undefined;
  };
  const timer = setTimeout(() => end("no session took it"), LAUNCH_START_WAIT_MS);
  timer.unref();
  return {
    nextSessionId: () => {
      if (idGiven) return undefined;
      idGiven = true;
      return sessionId;
    },
    take: (expected) => {
      if (!child) return undefined;
      if (!expected) {
        end("no start is remembered for the session's configuration");
        return undefined;
      }
      const differs = spawnDifference(spawn, expected);
      if (differs || unusable(child, failed)) {
        end(differs ? `the session asks for other ${differs}` : "it has ended");
        return undefined;
      }
      clearTimeout(timer);
      const taken = child;
      child = undefined;
      return taken;
    },
    discard: () => end("the agent is done"),
  };
}
