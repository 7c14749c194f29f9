// Resident memory from /proc (Linux): one process, or a process and all its descendants.
import { readdir, readFile } from "node:fs/promises";

/** VmRSS of a process in bytes, or undefined when it is gone. */
export async function rssOf(pid: number): Promise<number | undefined> {
  try {
    const status = await readFile(`/proc/${pid}/status`, "utf8");
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Parent pid of every live process. */
async function parents(): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  for (const entry of await readdir("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = await readFile(`/proc/${pid}/stat`, "utf8");
      // "pid (comm) state ppid ...": comm may hold spaces and parentheses.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.set(pid, Number(fields[1]));
    } catch {
      // gone while we looked
    }
  }
  return out;
}

/** `root` and every process below it. */
export async function processTree(root: number): Promise<number[]> {
  const ppid = await parents();
  const children = new Map<number, number[]>();
  for (const [pid, parent] of ppid) {
    const list = children.get(parent) ?? [];
    list.push(pid);
    children.set(parent, list);
  }
  const tree: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

export interface TreeRss {
  /** The root process alone. */
  own: number;
  /** The root and all its descendants. */
  total: number;
  processes: number;
}

export async function treeRss(root: number): Promise<TreeRss> {
  const pids = await processTree(root);
  let total = 0;
  let own = 0;
  let processes = 0;
  for (const pid of pids) {
    const rss = await rssOf(pid);
    if (rss === undefined) continue;
    processes++;
    total += rss;
    if (pid === root) own = rss;
  }
  return { own, total, processes };
}

/** MemAvailable of the machine in bytes. */
export async function memAvailable(): Promise<number> {
  const info = await readFile("/proc/meminfo", "utf8");
  const match = /^MemAvailable:\s+(\d+)\s+kB/m.exec(info);
  return match ? Number(match[1]) * 1024 : 0;
}

/** Linux's USER_HZ: /proc reports CPU times in these ticks. */
const TICKS_PER_SECOND = 100;

/** CPU time (user + system) a process has used so far, in ms (10 ms resolution). */
export async function cpuMsOf(pid: number): Promise<number | undefined> {
  const ticks = await cpuTicks(pid);
  return ticks === undefined ? undefined : (ticks * 1000) / TICKS_PER_SECOND;
}

/** utime + stime of a process in clock ticks, or undefined when it is gone. */
export async function cpuTicks(pid: number): Promise<number | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // After "pid (comm) ": state is field 0, utime field 11, stime field 12.
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

/** Processes below `root` whose command line contains `needle`. */
export async function descendantsMatching(root: number, needle: string): Promise<number[]> {
  const out: number[] = [];
  for (const pid of await processTree(root)) {
    if (pid === root) continue;
    try {
      const cmd = await readFile(`/proc/${pid}/cmdline`, "utf8");
      if (cmd.includes(needle)) out.push(pid);
    } catch {
      // gone
    }
  }
  return out;
}

/**
 * Waits until every process below `root` whose command line holds `needle` has used no
 * CPU for `quietMs` (a parked spare is idle once started). Resolves false on timeout.
 */
export async function waitUntilIdle(
  root: number,
  needle: string,
  options: { quietMs: number; timeoutMs: number },
): Promise<boolean> {
  const deadline = Date.now() + options.timeoutMs;
  let last = new Map<number, number>();
  let quietSince = Date.now();
  while (Date.now() < deadline) {
    const now = new Map<number, number>();
    for (const pid of await descendantsMatching(root, needle)) {
      const ticks = await cpuTicks(pid);
      if (ticks !== undefined) now.set(pid, ticks);
    }
    const changed =
      now.size !== last.size || [...now].some(([pid, ticks]) => last.get(pid) !== ticks);
    if (changed) quietSince = Date.now();
    else if (now.size > 0 && Date.now() - quietSince >= options.quietMs) return true;
    last = now;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}
