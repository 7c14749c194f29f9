import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { requireBuiltAgent } from "./paths.js";
import { sleep } from "./wait.js";

export interface AgentExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** The built agent running as a child process, in a process group of its own. */
export interface AgentProcess {
  readonly pid: number;
  readonly child: ChildProcessWithoutNullStreams;
  /** Resolves when the agent process has exited. */
  readonly exited: Promise<AgentExit>;
  hasExited(): boolean;
  /** Everything the agent wrote on stderr (its log, and Claude Code's at debug level). */
  log(): string;
  /** SIGTERM to the whole group, SIGKILL to it after `graceMs` (always: orphans stay in the group). */
  killGroup(graceMs: number): Promise<void>;
}

export function spawnAgent(options: {
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Arguments of the bin (e.g. `serve ...`). */
  args?: readonly string[];
}): AgentProcess {
  const entry = requireBuiltAgent();
  // detached: the agent leads a new process group, so one kill reaches Claude Code too.
  const child = spawn(process.execPath, [entry, ...(options.args ?? [])], {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`could not start the agent (${entry})`);
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (text: string) => (stderr += text));
  // A write after the agent died fails with EPIPE: the transcript shows what happened.
  child.stdin.on("error", () => undefined);
  let exitedYet = false;
  const exited = new Promise<AgentExit>((resolve) => {
    child.once("exit", (code, signal) => {
      exitedYet = true;
      resolve({ code, signal });
    });
  });

  const signalGroup = (signal: NodeJS.Signals): void => {
    try {
      process.kill(-pid, signal);
    } catch {
      // ESRCH: the group is already empty
    }
  };

  return {
    pid,
    child,
    exited,
    hasExited: () => exitedYet,
    log: () => stderr,
    killGroup: async (graceMs) => {
      signalGroup("SIGTERM");
      await Promise.race([exited, sleep(graceMs)]);
      signalGroup("SIGKILL");
      await Promise.race([exited, sleep(2_000)]);
    },
  };
}
