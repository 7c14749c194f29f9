// Cold path: what an editor's first thread meets. The agent is spawned and sent
// `initialize` at once, then `session/new` the moment initialize answers, then the turn
// of the turn-overhead suite (text, three Bash calls each allowed once, text): either the
// moment session/new answers ("at once") or once its Claude Code is idle ("after a
// pause"). No prewarmed spare is ready for it. Baselines in the same run: a bare node
// process start (spawn → its first line on stdout) for initialize; the direct SDK's
// query() → initializationResult() for session/new; and for the first turn, a fresh
// query() given the same prompt right after query() returns, or after its
// initializationResult() and the same pause. The variants are measured round-robin.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { resolveClaudeExecutable } from "../src/claude/executable.js";
import { BenchAgent, sleep } from "./support/agent-process.js";
import { groupKiller, track, untrack } from "./support/cleanup.js";
import type { BenchContext } from "./support/context.js";
import { cpuMsOf, waitUntilIdle } from "./support/proc.js";
import { progress } from "./support/progress.js";
import type { Row, SuiteResult } from "./support/report.js";
import { benchEnv, createSandbox } from "./support/sandbox.js";
import { TURN_COMMANDS, TURN_PROMPT } from "./support/scenarios.js";
import { allowAll, BaselineQuery, baselineOptions, isTextDelta } from "./support/sdk-baseline.js";
import { REPO_ROOT } from "./support/paths.js";
import { createInterface } from "node:readline";
import { median, pairRatios, summarize } from "./support/stats.js";

const INIT_TARGET = 2.5;
const NEW_TARGET_MS = 150;
const TURN_TARGET = 1.1;
const PERMISSIONS = TURN_COMMANDS.length;
const FILES = ["a.txt", "b.txt", "c.txt"];
const TURN_PHASES = [
  "prompt → first text",
  "first text → ask 1",
  "ask 1 → ask 2",
  "ask 2 → ask 3",
  "ask 3 → end",
] as const;
/**
 * Claude Code's first turn as each side receives its messages, on one clock: the agent's
 * marks (src/session/stream/consumer.ts) and the fresh SDK process's (sdk-first-turn-host.mjs).
 * Where the two part tells Claude Code's own time from what the agent adds.
 */
const CLAUDE_MILESTONES = [
  { name: "turn init", agent: "claude-turn-init", sdk: "init" },
  { name: "first stream event", agent: "claude-first-event", sdk: "firstEvent" },
  { name: "result", agent: "claude-result", sdk: "ended" },
] as const;
/** The agent's debug marks (src/runtime/marks.ts) the breakdown places on the same clock. */
const MARKS = [
  "claude-launch-start",
  "agent-loaded",
  "claude-early-start",
  "claude-sdk-load",
  "claude-sdk-loaded",
  "claude-query",
  "claude-started",
];

type Timing = "at once" | "after a pause";

interface TurnSample {
  ms: number;
  /** Durations of TURN_PHASES. */
  phases: number[];
}

interface AgentSample {
  /** spawn → initialize response. */
  initialize: number;
  /** session/new sent → response. */
  sessionNew: number;
  turn: TurnSample;
  /** spawn → end of the first turn. */
  total: number;
  /** CPU time of the agent process from spawn to the end of the first turn. */
  cpuMs: number;
  /** The agent's marks, in ms after the prompt was sent (negative: before it). */
  marks: Record<string, number>;
}

interface SdkSample {
  /** query() → initializationResult(). */
  ready: number;
  /** Fresh process only: prompt sent → initializationResult() (Claude Code started). */
  started?: number;
  turn: TurnSample;
  /** Fresh process only: spawn → end of the first turn. */
  total?: number;
  /** Fresh process only: CLAUDE_MILESTONES, in ms after the prompt was sent. */
  milestones?: Partial<Record<(typeof CLAUDE_MILESTONES)[number]["sdk"], number>>;
}

const FIRST_TURN_HOST = "bench/support/sdk-first-turn-host.mjs";

interface HostMarks {
  loaded: number;
  query: number;
  ready?: number;
  sent: number;
  firstText?: number;
  /** The turn's system/init message, and its first stream event. */
  init?: number;
  firstEvent?: number;
  asks: number[];
  ended: number;
  subtype: string;
}

function phases(sent: number, firstText: number | undefined, asks: readonly number[], end: number) {
  const marks = [sent, firstText ?? NaN, asks[0] ?? NaN, asks[1] ?? NaN, asks[2] ?? NaN, end];
  return marks.slice(1).map((m, i) => m - marks[i]!);
}

async function removeFiles(cwd: string): Promise<void> {
  await Promise.all(FILES.map((f) => rm(join(cwd, f), { force: true })));
}

function requireFiles(cwd: string, who: string): void {
  const missing = FILES.filter((f) => !existsSync(join(cwd, f)));
  if (missing.length) throw new Error(`${who}: the turn did not write ${missing.join(", ")}`);
}

/** spawn → the first line a bare `node -e` writes on stdout. */
function bareNode(): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ["-e", "process.stdout.write('ready\\n')"], {
      stdio: ["ignore", "pipe", "ignore"],
      detached: true,
    });
    const kill = groupKiller(child.pid!);
    track(kill);
    let at: number | undefined;
    child.stdout.once("data", () => (at ??= performance.now()));
    child.once("error", reject);
    child.once("exit", () => {
      untrack(kill);
      if (at === undefined) reject(new Error("bare node wrote nothing"));
      else resolve(at - started);
    });
  });
}

/**
 * `mark <name> at <ms>` lines of the agent's debug log, on the bench's clock. The agent logs
 * epoch ms (src/runtime/marks.ts): the bench's own clock starts at its performance.timeOrigin.
 */
function agentMarks(log: string): Record<string, number> {
  const marks: Record<string, number> = {};
  for (const match of log.matchAll(/mark (\S+) at ([\d.]+) ms/g)) {
    marks[match[1]!] ??= Number(match[2]) - performance.timeOrigin;
  }
  return marks;
}

/** The median of each of MARKS over the samples that have it, as `name ms, ...`. */
function marksText(samples: readonly AgentSample[]): string {
  return MARKS.map((name) => {
    const values = samples.map((s) => s.marks[name]).filter((v) => v !== undefined);
    return values.length ? `${name} ${median(values).toFixed(0)}` : undefined;
  })
    .filter(Boolean)
    .join(", ");
}

/** One first turn of the SDK in a fresh node process (sdk-first-turn-host.mjs). */
function sdkFreshRun(
  cwd: string,
  env: Record<string, string>,
  claude: string,
  timing: Timing,
): Promise<SdkSample> {
  const options = baselineOptions(cwd, env, allowAll);
  const job = JSON.stringify({ options, prompt: TURN_PROMPT, pause: timing === "after a pause" });
  const child = spawn(process.execPath, [FIRST_TURN_HOST, job], {
    cwd: REPO_ROOT,
    env,
    detached: true,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const kill = groupKiller(child.pid!);
  track(kill);
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (text: string) => (stderr = (stderr + text).slice(-10_000)));
  return new Promise<SdkSample>((resolve, reject) => {
    child.once("exit", () => reject(new Error(`the SDK first-turn host exited\n${stderr}`)));
    createInterface({ input: child.stdout }).on("line", (line) => {
      const message = JSON.parse(line) as Partial<HostMarks> & { ready?: boolean };
      if (message.ready === true) {
        void waitUntilIdle(child.pid!, claude, { quietMs: 300, timeoutMs: 20_000 }).then(() =>
          child.stdin.write("go\n"),
        );
        return;
      }
      const m = message as HostMarks;
      if (m.subtype !== "success") return reject(new Error(`SDK first turn: ${m.subtype}`));
      if (m.asks.length !== PERMISSIONS) {
        return reject(new Error(`SDK first turn asked ${m.asks.length} permissions`));
      }
      resolve({
        ready: (m.ready ?? NaN) - m.query,
        started: (m.ready ?? NaN) - m.sent,
        turn: { ms: m.ended - m.sent, phases: phases(m.sent, m.firstText, m.asks, m.ended) },
        total: m.ended,
        milestones: {
          init: (m.init ?? NaN) - m.sent,
          firstEvent: (m.firstEvent ?? NaN) - m.sent,
          ended: m.ended - m.sent,
        },
      });
    });
  }).finally(() => {
    kill();
    untrack(kill);
  });
}

export async function runColdPath(ctx: BenchContext): Promise<SuiteResult> {
  const started = performance.now();
  // A first turn swings by a tenth with the machine's load: 12 rounds steady the medians.
  const samples = ctx.quick ? 3 : 12;
  const warmup = 1;
  const pauseMs = 500;
  const sandbox = await createSandbox("cold");
  // The agent's debug log carries its marks; the first start fills the model cache (the
  // sandbox's HOME), as a user's earlier runs do.
  const env = benchEnv(ctx.api.url, sandbox);
  const agentEnv = { ...env, CLAUDE_AGENT_ACP_LOG: "debug" };
  const claude = resolveClaudeExecutable(env);
  const cwd = await sandbox.dir("cwd-cold");
  // The agent starts Claude Code at its launch only when told (src/claude/launch-start.ts):
  // measured too, at once.
  const launchEnv = { ...agentEnv, CLAUDE_AGENT_ACP_LAUNCH_START: "1" };

  const agentRun = async (timing: Timing, runEnv = agentEnv): Promise<AgentSample> => {
    await removeFiles(cwd);
    const agent = new BenchAgent({ env: runEnv, cwd: sandbox.root });
    try {
      const init = await agent.initialize();
      const created = await agent.newSession(cwd);
      const { sessionId } = created.result;
      if (timing === "after a pause") {
        await waitUntilIdle(agent.pid, claude, { quietMs: 300, timeoutMs: 20_000 });
      }
      let firstText: number | undefined;
      const asks: number[] = [];
      const offUpdate = agent.onUpdate((params, at) => {
        if (params.sessionId === sessionId && params.update.sessionUpdate === "agent_message_chunk")
          firstText ??= at;
      });
      const offAsk = agent.onPermission((_params, at) => asks.push(at));
      const turn = await agent.prompt(sessionId, TURN_PROMPT).finally(() => {
        offUpdate();
        offAsk();
      });
      const cpuMs = (await cpuMsOf(agent.pid)) ?? NaN;
      if (turn.result.stopReason !== "end_turn") {
        throw new Error(`agent first turn ended with ${turn.result.stopReason}`);
      }
      if (agent.permissionsAnswered !== PERMISSIONS) {
        throw new Error(`agent first turn asked ${agent.permissionsAnswered} permissions`);
      }
      requireFiles(cwd, "agent");
      const marks = agentMarks(agent.log());
      return {
        initialize: init.receivedAt - agent.spawnedAt,
        sessionNew: created.receivedAt - created.sentAt,
        turn: {
          ms: turn.receivedAt - turn.sentAt,
          phases: phases(turn.sentAt, firstText, asks, turn.receivedAt),
        },
        total: turn.receivedAt - agent.spawnedAt,
        cpuMs,
        marks: Object.fromEntries(
          Object.entries(marks).map(([name, at]) => [name, at - turn.sentAt]),
        ),
      };
    } catch (error) {
      process.stderr.write(`--- agent stderr (cold path, ${timing}) ---\n${agent.log()}\n`);
      throw error;
    } finally {
      await agent.stop();
    }
  };

  const sdkRun = async (timing: Timing): Promise<SdkSample> => {
    await removeFiles(cwd);
    const q = new BaselineQuery({ cwd, env });
    try {
      let ready = NaN;
      const initialized = q.query.initializationResult().then(() => {
        ready = performance.now() - q.startedAt;
      });
      if (timing === "after a pause") {
        await initialized;
        await waitUntilIdle(process.pid, claude, { quietMs: 300, timeoutMs: 20_000 });
      }
      let firstText: number | undefined;
      const off = q.onMessage((message, at) => {
        if (isTextDelta(message)) firstText ??= at;
      });
      const turn = await q.turn(TURN_PROMPT).finally(off);
      await initialized;
      if (turn.result.subtype !== "success")
        throw new Error(`SDK first turn: ${turn.result.subtype}`);
      if (q.permissionsAnswered !== PERMISSIONS) {
        throw new Error(`SDK first turn asked ${q.permissionsAnswered} permissions`);
      }
      requireFiles(cwd, "SDK");
      return {
        ready,
        turn: {
          ms: turn.endedAt - turn.sentAt,
          phases: phases(turn.sentAt, firstText, q.permissionTimes, turn.endedAt),
        },
      };
    } finally {
      q.close();
    }
  };

  const freshRun = async (timing: Timing): Promise<SdkSample> => {
    await removeFiles(cwd);
    const sample = await sdkFreshRun(cwd, env, claude, timing);
    requireFiles(cwd, "SDK (fresh process)");
    return sample;
  };

  const bare: number[] = [];
  const agent: Record<Timing, AgentSample[]> = { "at once": [], "after a pause": [] };
  /** The agent with the launch start, at once. */
  const launched: AgentSample[] = [];
  /** The SDK in a fresh process, as the agent is: the baseline of the first turn. */
  const fresh: Record<Timing, SdkSample[]> = { "at once": [], "after a pause": [] };
  /** The SDK in the bench process, warm from the runs before. */
  const sdk: Record<Timing, SdkSample[]> = { "at once": [], "after a pause": [] };
  const between = () => sleep(pauseMs);
  try {
    for (let i = -warmup; i < samples; i++) {
      const b = await bareNode();
      const round: Record<string, AgentSample | SdkSample> = {};
      for (const timing of ["at once", "after a pause"] as const) {
        // The agent and its baseline take turns going first: neither always follows the other.
        const pair = [
          async () => (round[`agent ${timing}`] = await agentRun(timing)),
          async () => (round[`fresh ${timing}`] = await freshRun(timing)),
        ];
        for (const run of i % 2 === 0 ? pair : pair.reverse()) {
          await between();
          await run();
        }
        await between();
        round[`sdk ${timing}`] = await sdkRun(timing);
      }
      await between();
      const launchedSample = await agentRun("at once", launchEnv);
      await between();
      if (i < 0) continue;
      bare.push(b);
      launched.push(launchedSample);
      for (const timing of ["at once", "after a pause"] as const) {
        agent[timing].push(round[`agent ${timing}`] as AgentSample);
        fresh[timing].push(round[`fresh ${timing}`] as SdkSample);
        sdk[timing].push(round[`sdk ${timing}`] as SdkSample);
      }
      const a = round["agent at once"] as AgentSample;
      const turns = (["at once", "after a pause"] as const)
        .map(
          (t) =>
            `${t} ${(round[`agent ${t}`] as AgentSample).turn.ms.toFixed(0)} / ${(round[`fresh ${t}`] as SdkSample).turn.ms.toFixed(0)} ms`,
        )
        .join(", ");
      progress(
        `cold path ${i + 1}/${samples}: initialize ${a.initialize.toFixed(0)} ms (bare node ${b.toFixed(0)}), ` +
          `session/new ${a.sessionNew.toFixed(0)} ms, first turn (agent / SDK in a fresh process) ${turns}`,
      );
    }
  } finally {
    await sandbox.remove();
  }

  const all = [...agent["at once"], ...agent["after a pause"]];
  const init = summarize(all.map((s) => s.initialize));
  const bareSummary = summarize(bare);
  const sessionNew = summarize(all.map((s) => s.sessionNew));
  const sdkReady = summarize([...fresh["at once"], ...fresh["after a pause"]].map((s) => s.ready));
  const rows: Row[] = [
    {
      figure: "Cold path",
      metric: "spawn → initialize response (baseline: spawn → first line of a bare node -e)",
      unit: "ms",
      agent: init,
      baseline: bareSummary,
      ratio: init.p50 / bareSummary.p50,
      target: `ratio ≤ ${INIT_TARGET}`,
      met: init.p50 / bareSummary.p50 <= INIT_TARGET,
    },
    {
      figure: "Cold path",
      metric:
        "session/new sent as initialize answers → response, no spare (SDK: query() → initializationResult())",
      unit: "ms",
      agent: sessionNew,
      baseline: sdkReady,
      ratio: sessionNew.p50 / sdkReady.p50,
      target: `p50 ≤ ${NEW_TARGET_MS} ms`,
      met: sessionNew.p50 <= NEW_TARGET_MS,
    },
  ];
  const notes: string[] = [];
  for (const timing of ["at once", "after a pause"] as const) {
    const a = summarize(agent[timing].map((s) => s.turn.ms));
    const b = summarize(fresh[timing].map((s) => s.turn.ms));
    const warm = summarize(sdk[timing].map((s) => s.turn.ms));
    const ratio = a.p50 / b.p50;
    const ratios = pairRatios(
      agent[timing].map((s) => s.turn.ms),
      fresh[timing].map((s) => s.turn.ms),
    );
    const when =
      timing === "at once"
        ? "sent as session/new answers (SDK: as query() returns)"
        : "sent once Claude Code is idle (SDK: after initializationResult(), idle)";
    rows.push(
      {
        figure: "Cold path",
        metric: `first turn, prompt ${when} → end: text, 3 Bash calls each allowed once, text (SDK in a fresh node process)`,
        unit: "ms",
        agent: a,
        baseline: b,
        ratio,
        target: `ratio ≤ ${TURN_TARGET}`,
        met: ratio <= TURN_TARGET,
      },
      {
        figure: "Cold path",
        metric: `the same first turn, ${timing}, next to a new query() in the bench process (its SDK code already run)`,
        unit: "ms",
        agent: a,
        baseline: warm,
        ratio: a.p50 / warm.p50,
      },
    );
    const phaseText = TURN_PHASES.map(
      (name, i) =>
        `${name} ${median(agent[timing].map((s) => s.turn.phases[i]!)).toFixed(0)} / ${median(fresh[timing].map((s) => s.turn.phases[i]!)).toFixed(0)} / ${median(sdk[timing].map((s) => s.turn.phases[i]!)).toFixed(0)}`,
    ).join("; ");
    const markText = marksText(agent[timing]);
    // The SDK's counterpart of the agent's claude-started mark: the same initialization.
    const sdkStarted = median(fresh[timing].map((s) => s.started ?? NaN));
    const milestoneText = CLAUDE_MILESTONES.map(
      (m) =>
        `${m.name} ${median(agent[timing].map((s) => s.marks[m.agent] ?? NaN)).toFixed(0)} / ${median(fresh[timing].map((s) => s.milestones?.[m.sdk] ?? NaN)).toFixed(0)}`,
    ).join("; ");
    notes.push(
      `Cold path, first turn ${timing}: ratio of medians ${ratio.toFixed(3)}, median of the rounds' ratios (agent / SDK in a fresh process, same round) ${median(ratios).toFixed(3)}. Median per phase (agent / SDK in a fresh process / SDK in the bench process, ms): ${phaseText}. The agent's marks, ms after the prompt was sent (negative: before): ${markText}; in the fresh SDK process, Claude Code's initialization answered at ${sdkStarted.toFixed(0)}. Claude Code's messages as they reached the agent / the fresh SDK process, ms after the prompt was sent: ${milestoneText}.`,
    );
  }
  const totals = summarize(agent["at once"].map((s) => s.total));
  const freshTotals = summarize(fresh["at once"].map((s) => s.total ?? NaN));
  rows.push({
    figure: "Cold path",
    metric:
      "spawn → end of the first turn sent at once (SDK: a fresh node process loading the SDK, query(), prompt)",
    unit: "ms",
    agent: totals,
    baseline: freshTotals,
    ratio: totals.p50 / freshTotals.p50,
  });
  const launchedInit = summarize(launched.map((s) => s.initialize));
  const launchedTurn = summarize(launched.map((s) => s.turn.ms));
  const launchedTotal = summarize(launched.map((s) => s.total));
  const freshTurn = summarize(fresh["at once"].map((s) => s.turn.ms));
  rows.push(
    {
      figure: "Cold path",
      metric:
        "launch start on (CLAUDE_AGENT_ACP_LAUNCH_START=1): spawn → initialize response (baseline: bare node)",
      unit: "ms",
      agent: launchedInit,
      baseline: bareSummary,
      ratio: launchedInit.p50 / bareSummary.p50,
    },
    {
      figure: "Cold path",
      metric:
        "launch start on: first turn sent as session/new answers → end (SDK in a fresh node process)",
      unit: "ms",
      agent: launchedTurn,
      baseline: freshTurn,
      ratio: launchedTurn.p50 / freshTurn.p50,
    },
    {
      figure: "Cold path",
      metric:
        "launch start on: spawn → end of the first turn sent at once (SDK: fresh node process)",
      unit: "ms",
      agent: launchedTotal,
      baseline: freshTotals,
      ratio: launchedTotal.p50 / freshTotals.p50,
    },
  );
  notes.push(
    `Cold path, launch start on, first turn at once: the agent's marks, ms after the prompt was sent: ${marksText(launched)}; Claude Code's result reached the agent at ${median(launched.map((s) => s.marks["claude-result"] ?? NaN)).toFixed(0)}.`,
  );
  const cpu = summarize(all.map((s) => s.cpuMs));
  notes.unshift(
    `Cold path: ${samples} rounds after ${warmup} warm-up, round-robin (bare node; then at once and after a pause: agent and SDK in a fresh process, in turns first, then SDK in the bench process; then the agent at once with the launch start on), ${pauseMs} ms between runs; each agent run is a new agent process (the model cache in the sandbox's HOME is filled by the first), each fresh SDK run a new node process (sdk-first-turn-host.mjs) loading the SDK then calling query(), each in-process SDK run a new query() in the bench process, whose SDK code has run before. Agent CPU from spawn to the end of the first turn: p50 ${cpu.p50.toFixed(0)} ms.`,
  );
  return {
    suite: "cold",
    rows,
    notes,
    durationMs: performance.now() - started,
    detail: { bare, agent, fresh, sdk, launched },
  };
}
