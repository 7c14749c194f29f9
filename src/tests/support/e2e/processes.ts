import { readdir, readFile } from "node:fs/promises";
import { poll } from "./wait.js";

/** The env variable that marks every process of one harness: the agent passes its env on. */
export const MARKER_VARIABLE = "CLAUDE_AGENT_ACP_E2E_MARKER";

export interface MarkedProcess {
  pid: number;
  /** The command line, arguments joined with spaces. */
  command: string;
}

/**
 * Every live process whose environment carries `MARKER_VARIABLE=<marker>`: the agent,
 * the Claude Code processes it started, and whatever they started. Linux only (/proc).
 */
export async function processesWithMarker(marker: string): Promise<MarkedProcess[]> {
  const needle = `${MARKER_VARIABLE}=${marker}`;
  let entries: string[];
  try {
    entries = await readdir("/proc");
    await readFile("/proc/self/environ");
  } catch (error) {
    throw new Error("Listing left-behind processes needs a readable /proc (Linux).", {
      cause: error,
    });
  }
  const found: MarkedProcess[] = [];
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      const environ = (await readFile(`/proc/${pid}/environ`, "utf8")).split("\0");
      if (!environ.includes(needle)) continue;
      const cmdline = await readFile(`/proc/${pid}/cmdline`, "utf8");
      found.push({ pid, command: cmdline.split("\0").join(" ").trim() });
    } catch {
      // the process ended while we looked, or is not ours to read
    }
  }
  return found;
}

/** Waits up to `timeoutMs` for the marked processes to be gone; returns those still there. */
export async function survivingProcesses(
  marker: string,
  timeoutMs: number,
): Promise<MarkedProcess[]> {
  let last: MarkedProcess[] = [];
  await poll(async () => {
    last = await processesWithMarker(marker);
    return last.length === 0 ? true : undefined;
  }, timeoutMs);
  return last;
}

/**
 * Waits up to `timeoutMs` for the marked processes to end, then kills those still there
 * (they carry this run's marker: they are ours); returns them.
 */
export async function killSurvivors(marker: string, timeoutMs: number): Promise<MarkedProcess[]> {
  const survivors = await survivingProcesses(marker, timeoutMs);
  for (const { pid } of survivors) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  return survivors;
}
