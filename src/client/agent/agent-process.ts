// The agent command as a child process speaking NDJSON on its stdio.
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { ndJsonStream, type Stream } from "@agentclientprotocol/sdk";

export interface AgentExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface AgentProcess {
  readonly stream: Stream;
  /** Settles when the process exited (or could not start: `error` is set). */
  readonly exited: Promise<AgentExit & { error?: Error }>;
  /** The end of what the agent wrote on stderr (its log): for error reports. */
  stderrTail(): string;
  /** Ends stdin and waits; then SIGTERM, then SIGKILL to the agent's process group. */
  stop(graceMs?: number): Promise<void>;
}

const STDERR_KEEP = 8_000;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export function spawnAgent(
  command: readonly string[],
  options: { cwd?: string; env: NodeJS.ProcessEnv },
): AgentProcess {
  const [file, ...args] = command;
  if (!file) throw new Error("no agent command");
  // Its own process group: terminal signals stay with us, and one kill reaches its children.
  const child = spawn(file, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ["pipe", "pipe", "pipe"],
    detached: true,
  });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (text: string) => {
    stderr = (stderr + text).slice(-STDERR_KEEP);
  });
  child.stdin.on("error", () => undefined); // EPIPE after the agent died: reported via `exited`
  let done = false;
  const exited = new Promise<AgentExit & { error?: Error }>((resolve) => {
    child.once("error", (error) => {
      done = true;
      resolve({ code: null, signal: null, error });
    });
    child.once("exit", (code, signal) => {
      done = true;
      resolve({ code, signal });
    });
  });
  const signalGroup = (signal: NodeJS.Signals): void => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // the group is gone already
    }
  };
  return {
    stream: ndJsonStream(
      Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
      Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
    ),
    exited,
    stderrTail: () => stderr,
    async stop(graceMs = 3_000) {
      if (!child.stdin.destroyed) child.stdin.end();
      if (!done) await Promise.race([exited, sleep(graceMs)]);
      // Claude Code children may outlive the agent: the group gets the signals either way.
      signalGroup("SIGTERM");
      if (!done) await Promise.race([exited, sleep(1_000)]);
      signalGroup("SIGKILL");
    },
  };
}
