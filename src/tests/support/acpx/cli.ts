import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { isRecord } from "../../../util/records.js";
import { sleep } from "../e2e/index.js";

/** acpx's CLI script, found from its package.json `bin` (not from a guessed path). */
export const ACPX_CLI = findAcpxCli();

function findAcpxCli(): string {
  const manifestPath = createRequire(import.meta.url).resolve("acpx/package.json");
  const manifest: unknown = JSON.parse(readFileSync(manifestPath, "utf8"));
  const bin = isRecord(manifest) ? manifest.bin : undefined;
  const script = typeof bin === "string" ? bin : isRecord(bin) ? bin.acpx : undefined;
  if (typeof script !== "string") throw new Error(`no acpx bin in ${manifestPath}`);
  return join(dirname(manifestPath), script);
}

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
  const started = performance.now();
  const child = spawn(process.execPath, [ACPX_CLI, ...options.args], {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`could not start acpx (${ACPX_CLI})`);
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
