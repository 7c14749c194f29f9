import { spawn, type ChildProcess, type ChildProcessWithoutNullStreams } from "node:child_process";
import type { SpawnedProcess, SpawnOptions } from "@anthropic-ai/claude-agent-sdk";
import { log } from "../logger.js";
import { mark } from "../runtime/marks.js";
import { deferred } from "../util/deferred.js";
import { type PlannedSpawn, spawnDifference } from "./start-plan.js";

/** After SIGTERM, a Claude Code process that has not exited within this long gets SIGKILL. */
export const KILL_GRACE_MS = 2_000;

/** Every Claude Code process this agent started that has not exited yet. */
const live = new Set<ChildProcess>();

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

function signal(child: ChildProcess, name: NodeJS.Signals): void {
  try {
    child.kill(name);
  } catch {
    // already gone
  }
}

/**
 * Asks the process to end (SIGTERM; SIGCONT too, since a stopped process only acts on
 * SIGTERM once it runs again), and SIGKILLs it if it is still there after `graceMs`.
 * Resolves once it has exited.
 */
export function end(child: ChildProcess, graceMs: number): Promise<void> {
  if (hasExited(child)) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  signal(child, "SIGTERM");
  signal(child, "SIGCONT");
  const timer = setTimeout(() => {
    if (hasExited(child)) return;
    log.warn(`Claude Code process ${child.pid} did not end on SIGTERM; sending SIGKILL`);
    signal(child, "SIGKILL");
  }, graceMs);
  timer.unref();
  return exited.finally(() => clearTimeout(timer));
}

let exitWatched = false;

/**
 * Exiting some other way than through endAllClaudeProcesses (an uncaught error) leaves no
 * time for a grace, but a stopped process is woken so that SIGTERM takes effect.
 */
function watchExit(): void {
  if (exitWatched) return;
  exitWatched = true;
  process.once("exit", () => {
    for (const child of live) {
      signal(child, "SIGTERM");
      signal(child, "SIGCONT");
    }
  });
}

/** A process that could not start, or has already ended, can no longer be handed over. */
export function unusable(child: ChildProcess, failed: boolean): boolean {
  return failed || child.pid === undefined || hasExited(child);
}

/**
 * The Claude Code process behind one query: the SDK spawns it through `spawn` (its
 * `spawnClaudeCodeProcess` option), so the agent knows the process and can end it
 * when it stops answering, however it is stuck. It may have been started early, before
 * the SDK asked (early-start.ts): the SDK gets that one only if it asks for exactly it.
 */
export class ClaudeProcess {
  private child: ChildProcessWithoutNullStreams | undefined;
  private early:
    { child: ChildProcessWithoutNullStreams; spawn: PlannedSpawn; failed: boolean } | undefined;
  /** The SDK has asked for its process, or will not: too late to start one early. */
  private decided = false;
  private readonly exit = deferred<void>();

  /**
   * Starts the process the SDK is expected to ask for, ahead of the SDK, or takes `started`
   * (started at the agent's launch with exactly `expected`) as that process: its pid.
   */
  startEarly(expected: PlannedSpawn, started?: ChildProcessWithoutNullStreams): number | undefined {
    if (this.decided) {
      if (started) void end(started, KILL_GRACE_MS);
      return undefined;
    }
    mark("claude-early-start");
    const child = started ? tracked(started) : spawnClaudeCode(expected);
    const early = { child, spawn: expected, failed: unusable(child, false) };
    early.child.once("error", () => (early.failed = true));
    this.early = early;
    return early.child.pid;
  }

  readonly spawn = (options: SpawnOptions): SpawnedProcess => {
    const child = this.takeEarly(options) ?? spawnClaudeCode(options, options.signal);
    this.child = child;
    child.once("exit", () => this.exit.resolve());
    child.once("error", () => this.exit.resolve());
    return child;
  };

  /** The early process, if it is the one the SDK asks for; otherwise it is ended. */
  private takeEarly(options: SpawnOptions): ChildProcessWithoutNullStreams | undefined {
    this.decided = true;
    const early = this.early;
    this.early = undefined;
    if (!early) return undefined;
    const differs = spawnDifference(early.spawn, options);
    if (differs || unusable(early.child, early.failed)) {
      const why = differs ? `the SDK asks for other ${differs}` : "it has ended";
      log.debug(`Claude Code started early is not used (${why}); starting the SDK's`);
      void end(early.child, KILL_GRACE_MS);
      return undefined;
    }
    log.debug(`Claude Code started early (pid ${early.child.pid}) is handed to the SDK`);
    // What spawn({ signal }) does: the SDK's abort ends the process.
    const onAbort = (): void => signal(early.child, "SIGTERM");
    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener("abort", onAbort, { once: true });
    return early.child;
  }

  /** The SDK will not ask for a process (the query closed first, the SDK did not load). */
  discardEarly(): void {
    this.decided = true;
    if (this.early) void end(this.early.child, KILL_GRACE_MS);
    this.early = undefined;
  }

  /** Settles once the spawned process has exited (at once when none was spawned). */
  exited(): Promise<void> {
    return this.child ? this.exit.promise : Promise.resolve();
  }

  /** Ends the process now (SIGTERM, then SIGKILL after a grace), without waiting on it. */
  terminate(): void {
    this.discardEarly();
    if (this.child) void end(this.child, KILL_GRACE_MS);
  }
}

/** Spawns Claude Code, known to `live` until it exits, its stderr in the debug log. */
export function spawnClaudeCode(
  options: PlannedSpawn,
  abort?: AbortSignal,
): ChildProcessWithoutNullStreams {
  const child = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: options.env,
    // The SDK aborts this signal only after its graceful close (stdin EOF, a grace).
    ...(abort ? { signal: abort } : {}),
    stdio: ["pipe", "pipe", "pipe"],
    windowsHide: true,
  });
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (data: string) => log.debug(`claude: ${data.trimEnd()}`));
  return tracked(child);
}

/**
 * Known to `live` until it exits. A process started at launch is tracked twice: by the
 * copy of this module the bin loaded first, and by the bundle's, which ends it with the
 * other processes when the agent exits.
 */
function tracked(child: ChildProcessWithoutNullStreams): ChildProcessWithoutNullStreams {
  watchExit();
  if (hasExited(child)) return child;
  live.add(child);
  child.once("exit", () => live.delete(child));
  child.once("error", () => live.delete(child));
  return child;
}

/**
 * Ends every Claude Code process still running (the agent is exiting): SIGTERM at once,
 * SIGKILL after `graceMs`. Resolves when all have exited.
 */
export async function endAllClaudeProcesses(graceMs = KILL_GRACE_MS): Promise<void> {
  await Promise.all([...live].map((child) => end(child, graceMs)));
}
