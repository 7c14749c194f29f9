import { spawn, type ChildProcess } from "node:child_process";
import type { SpawnedProcess, SpawnOptions } from "@anthropic-ai/claude-agent-sdk";
import { log } from "../logger.js";
import { deferred } from "../util/deferred.js";

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
function end(child: ChildProcess, graceMs: number): Promise<void> {
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

/**
 * The Claude Code process behind one query: the SDK spawns it through `spawn` (its
 * `spawnClaudeCodeProcess` option), so the agent knows the process and can end it
 * when it stops answering, however it is stuck.
 */
export class ClaudeProcess {
  private child: ChildProcess | undefined;
  private readonly exit = deferred<void>();

  readonly spawn = (options: SpawnOptions): SpawnedProcess => {
    const child = spawn(options.command, options.args, {
      cwd: options.cwd,
      env: options.env,
      // The SDK aborts this signal only after its graceful close (stdin EOF, a grace).
      signal: options.signal,
      stdio: ["pipe", "pipe", "pipe"],
      windowsHide: true,
    });
    this.child = child;
    watchExit();
    live.add(child);
    child.once("exit", () => this.exit.resolve());
    child.once("error", () => this.exit.resolve());
    child.once("exit", () => live.delete(child));
    child.once("error", () => live.delete(child));
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (data: string) => log.debug(`claude: ${data.trimEnd()}`));
    return child;
  };

  /** Settles once the spawned process has exited (at once when none was spawned). */
  exited(): Promise<void> {
    return this.child ? this.exit.promise : Promise.resolve();
  }

  /** Ends the process now (SIGTERM, then SIGKILL after a grace), without waiting on it. */
  terminate(): void {
    if (this.child) void end(this.child, KILL_GRACE_MS);
  }
}

/**
 * Ends every Claude Code process still running (the agent is exiting): SIGTERM at once,
 * SIGKILL after `graceMs`. Resolves when all have exited.
 */
export async function endAllClaudeProcesses(graceMs = KILL_GRACE_MS): Promise<void> {
  await Promise.all([...live].map((child) => end(child, graceMs)));
}
