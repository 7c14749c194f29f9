// Memory: the agent's own RSS (VmRSS of the node process; Claude Code excluded) and the
// total RSS of its process tree (agent + Claude Code processes + their children) after
// initialize and with 1, 10 and 50 idle sessions — each after session/new and one short
// prompt, then a settle pause. The baseline is the same ramp of query() sessions in a plain
// node process (support/sdk-memory-host.mjs). A note adds node importing the modules alone.
// 50 sessions would be 50 Claude Code processes (~9 GB, minutes of process starts), so
// that level runs on an agent with idle close (CLAUDE_AGENT_ACP_IDLE_TIMEOUT_MS), unless
// --memory-live asks for them live. No level takes MemAvailable below the floor: the ramp
// stops there and says so.
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { promisify } from "node:util";
import { performance } from "node:perf_hooks";
import { BenchAgent, sleep } from "./support/agent-process.js";
import type { BenchContext } from "./support/context.js";
import { memAvailable, processTree, treeRss, type TreeRss } from "./support/proc.js";
import { progress } from "./support/progress.js";
import type { Row, SuiteResult } from "./support/report.js";
import { benchEnv, createSandbox } from "./support/sandbox.js";
import { HELLO_PROMPT } from "./support/scenarios.js";
import { median } from "./support/stats.js";
import { REPO_ROOT } from "./support/paths.js";
import { SdkMemoryHost } from "./support/sdk-memory.js";

const run = promisify(execFile);

const TARGET_MB = 60;
const MB = 2 ** 20;
const SETTLE_MS = 3_000;
/** Never let the machine's MemAvailable drop below this. */
const FLOOR_BYTES = Number(process.env.BENCH_MEMORY_FLOOR_GB ?? 6) * 2 ** 30;
const IDLE_TIMEOUT_MS = 3_000;
/** The agent's heap setting (its bin imports it first), so imports are measured as the agent loads them. */
const HEAP_SETUP = `${REPO_ROOT}dist/runtime/heap-setup.js`;

interface Level {
  sessions: number;
  own: number;
  total: number;
  claudeProcesses: number;
}

/** What holds the sessions: the agent, or the direct-SDK host. */
interface Subject {
  pid: number;
  /** Opens one idle session: a new session and one short prompt. */
  open(): Promise<void>;
}

/** Claude Code processes below the subject (by their command line). */
async function claudeProcesses(root: number): Promise<number> {
  let n = 0;
  for (const pid of await processTree(root)) {
    if (pid === root) continue;
    try {
      const cmd = await readFile(`/proc/${pid}/cmdline`, "utf8");
      if (/claude/.test(cmd)) n++;
    } catch {
      // gone
    }
  }
  return n;
}

/** Median of a few readings, after the settle pause. */
async function measure(pid: number, sessions: number, settleMs: number): Promise<Level> {
  await sleep(settleMs);
  const readings: TreeRss[] = [];
  for (let i = 0; i < 5; i++) {
    readings.push(await treeRss(pid));
    await sleep(200);
  }
  return {
    sessions,
    own: median(readings.map((r) => r.own)),
    total: median(readings.map((r) => r.total)),
    claudeProcesses: await claudeProcesses(pid),
  };
}

function agentSubject(agent: BenchAgent, cwd: string): Subject {
  return {
    pid: agent.pid,
    open: async () => {
      const { result } = await agent.newSession(cwd);
      const prompt = await agent.prompt(result.sessionId, HELLO_PROMPT);
      if (prompt.result.stopReason !== "end_turn") {
        throw new Error(`prompt ended with ${prompt.result.stopReason}`);
      }
    },
  };
}

function sdkSubject(host: SdkMemoryHost, cwd: string): Subject {
  return { pid: host.pid, open: () => host.open(cwd, HELLO_PROMPT) };
}

interface Ramp {
  levels: Level[];
  /** Sessions reached when memory ran short, if it did. */
  cappedAt?: number;
}

/** Sessions opened so far on one agent. */
interface Opened {
  count: number;
}

/**
 * Opens sessions up to each level (two at a time: the machine's two cores) and measures
 * there. Stops early when two more Claude Code processes (estimated from those so far)
 * would take MemAvailable below the floor.
 */
async function ramp(
  subject: Subject,
  opened: Opened,
  levels: readonly number[],
  label: string,
  settleMs = SETTLE_MS,
): Promise<Ramp> {
  const out: Level[] = [];
  let perSession = 300 * MB;
  for (const level of levels) {
    while (opened.count < level) {
      const available = await memAvailable();
      if (available - 2 * perSession < FLOOR_BYTES) {
        progress(
          `memory (${label}): stopping at ${opened.count} sessions: ${Math.round(available / MB)} MB available`,
        );
        out.push(await measure(subject.pid, opened.count, settleMs));
        return { levels: out, cappedAt: opened.count };
      }
      const batch = Math.min(2, level - opened.count);
      await Promise.all(Array.from({ length: batch }, () => subject.open()));
      opened.count += batch;
      if (opened.count % 10 === 0) progress(`memory (${label}): ${opened.count} sessions open`);
    }
    const m = await measure(subject.pid, level, settleMs);
    if (m.claudeProcesses > 0) {
      perSession = Math.max(perSession, (m.total - m.own) / m.claudeProcesses);
    }
    out.push(m);
    progress(
      `memory (${label}): ${level} sessions: own ${(m.own / MB).toFixed(1)} MB, total ${(m.total / MB).toFixed(0)} MB, ${m.claudeProcesses} Claude processes`,
    );
  }
  return { levels: out };
}

/**
 * RSS of a node process that only imports `modules`, after a full garbage collection, with
 * the agent's young-generation setting: what loading them costs.
 */
async function importFloor(modules: readonly string[]): Promise<number> {
  const code = [
    `await import(${JSON.stringify(HEAP_SETUP)});`,
    ...modules.map((m) => `await import(${JSON.stringify(m)});`),
    "await new Promise((r) => setTimeout(r, 500)); gc(); gc();",
    "await new Promise((r) => setTimeout(r, 500));",
    "const s = (await import('node:fs')).readFileSync('/proc/self/status', 'utf8');",
    "process.stdout.write(/^VmRSS:\\s+(\\d+)/m.exec(s)[1]);",
  ].join(" ");
  const { stdout } = await run(
    process.execPath,
    ["--expose-gc", "--input-type=module", "-e", code],
    { cwd: REPO_ROOT },
  );
  return Number(stdout) * 1024;
}

const plural = (n: number): string => `${n} idle session${n === 1 ? "" : "s"}`;

export async function runMemory(ctx: BenchContext): Promise<SuiteResult> {
  const started = performance.now();
  // 50 sessions: with idle close unless --memory-live asks for 50 live Claude processes.
  const levels = ctx.memoryLive && !ctx.quick ? [0, 1, 10, 50] : [0, 1, 10];
  const idleLevel = ctx.quick || ctx.memoryLive ? undefined : 50;
  const sandbox = await createSandbox("memory");
  const env = benchEnv(ctx.api.url, sandbox);
  const notes: string[] = [];
  const rows: Row[] = [];
  const detail: Record<string, unknown> = {};

  const imports = {
    node: await importFloor([]),
    claudeSdk: await importFloor(["@anthropic-ai/claude-agent-sdk"]),
    acpSdk: await importFloor(["@agentclientprotocol/sdk"]),
    bothSdks: await importFloor(["@agentclientprotocol/sdk", "@anthropic-ai/claude-agent-sdk"]),
    agent: await importFloor([`${REPO_ROOT}dist/agent.js`, `${REPO_ROOT}dist/claude/sdk-query.js`]),
  };
  detail.imports = imports;
  const mb = (bytes: number): string => (bytes / MB).toFixed(0);
  notes.push(
    `Memory, node importing only these (after a full GC, with the agent's young-generation setting): nothing ${mb(imports.node)} MB; the Claude Agent SDK ${mb(imports.claudeSdk)} MB; the ACP SDK ${mb(imports.acpSdk)} MB; both SDKs ${mb(imports.bothSdks)} MB; the agent's modules ${mb(imports.agent)} MB.`,
  );

  // A user's first start after an install (or a node upgrade) compiles the Claude SDK and
  // writes its code cache (src/runtime/code-cache.ts); every later start reads it. That
  // first start is measured apart, and fills the sandbox's cache for the measured one.
  const first = new BenchAgent({ env, cwd: sandbox.root });
  let firstStart: Ramp;
  try {
    await first.initialize();
    firstStart = await ramp(
      agentSubject(first, await sandbox.dir("cwd-first")),
      { count: 0 },
      [1],
      "agent, first start",
    );
  } finally {
    await first.stop();
  }
  detail.firstStart = firstStart;
  const firstOwn = firstStart.levels[0]?.own;
  if (firstOwn !== undefined) {
    notes.push(
      `Memory: the agent's first start in a new cache directory (it compiles the Claude SDK and writes the compiled code) had ${mb(firstOwn)} MB of own RSS with 1 idle session; the rows below are of a later start, which reads that code.`,
    );
  }

  const agent = new BenchAgent({ env, cwd: sandbox.root });
  let main: Ramp;
  try {
    await agent.initialize();
    const subject = agentSubject(agent, await sandbox.dir("cwd-default"));
    main = await ramp(subject, { count: 0 }, levels, "agent");
  } catch (error) {
    process.stderr.write(`--- agent stderr (tail) ---\n${agent.log()}\n`);
    throw error;
  } finally {
    await agent.stop();
  }
  detail.default = main;
  // Give the agent's Claude Code processes time to go before the baseline starts its own.
  await sleep(2_000);

  const host = new SdkMemoryHost(env);
  let sdk: Ramp;
  try {
    await host.started();
    sdk = await ramp(sdkSubject(host, await sandbox.dir("cwd-sdk")), { count: 0 }, levels, "SDK");
  } finally {
    await host.stop();
  }
  detail.sdk = sdk;

  for (const l of main.levels) {
    const base = sdk.levels.find((b) => b.sessions === l.sessions);
    const capped = main.cappedAt === l.sessions ? "capped: memory" : undefined;
    const ratio = (a: number, b: number | undefined) =>
      b ? { baseline: b / MB, ratio: a / b } : {};
    if (l.sessions === 0) {
      rows.push({
        figure: "Memory",
        metric: "own RSS, no session yet (agent: after initialize; SDK: after loading it)",
        unit: "MB",
        agent: l.own / MB,
        ...ratio(l.own, base?.own),
      });
      continue;
    }
    rows.push(
      {
        figure: "Memory",
        metric: `own RSS, ${plural(l.sessions)} (Claude Code excluded)`,
        unit: "MB",
        agent: l.own / MB,
        ...ratio(l.own, base?.own),
        ...(l.sessions === 10
          ? { target: `≤ ${TARGET_MB} MB at 10`, met: l.own / MB <= TARGET_MB }
          : {}),
        ...(capped ? { note: capped } : {}),
      },
      {
        figure: "Memory",
        metric: `total RSS with Claude Code, ${plural(l.sessions)}`,
        unit: "MB",
        agent: l.total / MB,
        ...ratio(l.total, base?.total),
        note: `${l.claudeProcesses} Claude Code processes${capped ? `; ${capped}` : ""}`,
      },
    );
  }

  if (main.cappedAt !== undefined || sdk.cappedAt !== undefined) {
    notes.push(
      `Memory: a ramp stopped early (agent at ${main.cappedAt ?? "-"}, SDK at ${sdk.cappedAt ?? "-"} sessions) before MemAvailable fell below ${FLOOR_BYTES / 2 ** 30} GB.`,
    );
  }

  if (idleLevel !== undefined) {
    progress(
      `memory: ${idleLevel} sessions with CLAUDE_AGENT_ACP_IDLE_TIMEOUT_MS=${IDLE_TIMEOUT_MS}`,
    );
    const idleEnv = { ...env, CLAUDE_AGENT_ACP_IDLE_TIMEOUT_MS: String(IDLE_TIMEOUT_MS) };
    const idle = new BenchAgent({ env: idleEnv, cwd: sandbox.root });
    try {
      await idle.initialize();
      const r = await ramp(
        agentSubject(idle, await sandbox.dir("cwd-idle")),
        { count: 0 },
        [idleLevel],
        "agent, idle close",
        IDLE_TIMEOUT_MS + SETTLE_MS,
      );
      detail.idleClose = r;
      const l = r.levels.at(-1)!;
      // Whatever is left is a spare, if one is on (and, without idle close, every session's process).
      const closedIdle = l.claudeProcesses <= 2;
      const note = `idle close after ${IDLE_TIMEOUT_MS} ms; ${l.claudeProcesses} Claude Code processes left${r.cappedAt !== undefined ? "; capped: memory" : ""}`;
      rows.push(
        {
          figure: "Memory",
          metric: `own RSS, ${plural(l.sessions)} (Claude Code excluded)`,
          unit: "MB",
          agent: l.own / MB,
          note,
        },
        {
          figure: "Memory",
          metric: `total RSS with Claude Code, ${plural(l.sessions)}`,
          unit: "MB",
          agent: l.total / MB,
          note,
        },
      );
      if (!closedIdle) {
        notes.push(
          `Memory: with CLAUDE_AGENT_ACP_IDLE_TIMEOUT_MS=${IDLE_TIMEOUT_MS}, ${l.claudeProcesses} Claude Code processes were still running ${IDLE_TIMEOUT_MS + SETTLE_MS} ms after the last prompt: idle close did not take effect.`,
        );
      }
      const ten = main.levels.find((x) => x.sessions === 10 && x.claudeProcesses > 0);
      if (ten) {
        const perProcess = (ten.total - ten.own) / ten.claudeProcesses;
        notes.push(
          `Memory: ${idleLevel} sessions are measured with idle close and without an SDK baseline (${idleLevel} live Claude Code processes would take ~${((idleLevel * perProcess) / 2 ** 30).toFixed(1)} GB at the ${(perProcess / MB).toFixed(0)} MB per process seen at 10 sessions, and minutes of process starts on a small machine; \`--memory-live\` measures them live).`,
        );
      }
    } catch (error) {
      process.stderr.write(`--- agent stderr (tail) ---\n${idle.log()}\n`);
      throw error;
    } finally {
      await idle.stop();
    }
  }
  await sandbox.remove();
  notes.push(
    `Memory: RSS from /proc/<pid>/status VmRSS, median of 5 readings ${SETTLE_MS} ms after the last session's prompt; "own" is the agent's node process (or the SDK host's: a plain node process running query() sessions with the agent's options and young-generation setting, bench/support/sdk-memory-host.mjs); "total" sums its process tree.`,
  );
  return { suite: "memory", rows, notes, durationMs: performance.now() - started, detail };
}
