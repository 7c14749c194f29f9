import { spawn } from "node:child_process";
import { sleep } from "../e2e/index.js";
import { acpxRuntime } from "./runtime.js";

/** One finished acpx process. */
export interface AcpxResult {
  /** acpx's arguments (after `node cli.js`). */
  args: string[];
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** It outlived its timeout and was killed. */
  timedOut: boolean;
}

/** SIGTERM to the group first; SIGKILL after this. */
const TERM_GRACE_MS = 500;

/**
 * Runs `node <acpx cli> ...args` in a process group of its own (acpx, the agent it starts and
 * Claude Code behind it), with exactly `env`. Past `timeoutMs` the group is killed.
 */
export async function runAcpxCli(options: {
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  timeoutMs: number;
}): Promise<AcpxResult> {
  const { node, cli } = await acpxRuntime();
  const started = performance.now();
  const child = spawn(node, [cli, ...options.args], {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`could not start acpx (${node} ${cli})`);
  let [stdout, stderr] = ["", ""];
  child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
  child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("close", (code, signal) => resolve({ code, signal })),
  );
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void killGroup(pid, exited);
  }, options.timeoutMs);
  const { code, signal } = await exited;
  clearTimeout(timer);
  return {
    args: options.args,
    code,
    signal,
    stdout,
    stderr,
    ms: Math.round(performance.now() - started),
    timedOut,
  };
}

async function killGroup(pid: number, exited: Promise<unknown>): Promise<void> {
  const signalGroup = (signal: NodeJS.Signals): void => {
    try {
      process.kill(-pid, signal);
    } catch {
      // ESRCH: the group is already empty
    }
  };
  signalGroup("SIGTERM");
  await Promise.race([exited, sleep(TERM_GRACE_MS)]);
  signalGroup("SIGKILL");
}
