// Session start: session/new request → response, and → the first streamed chunk of a
// first prompt sent right after the response; with the agent's prewarmed spare off
// (the default) and on (CLAUDE_AGENT_ACP_PREWARM=1). Baselines, measured in the same run:
// the direct SDK's query() start → initializationResult() (and → the first text delta of
// a prompt sent then), and the SDK's own spare: prewarm(), then claim() →
// initializationResult(). The four are measured round-robin. Before each sample: a pause,
// and for a spare, until the spare is started and idle (the agent replaces its spare
// after each claim), so no sample pays for another's process start.
import { performance } from "node:perf_hooks";
import { BenchAgent, sleep } from "./support/agent-process.js";
import type { BenchContext } from "./support/context.js";
import { waitUntilIdle } from "./support/proc.js";
import { progress } from "./support/progress.js";
import type { Row, SuiteResult } from "./support/report.js";
import { benchEnv, createSandbox, type Sandbox } from "./support/sandbox.js";
import { HELLO_PROMPT } from "./support/scenarios.js";
import {
  BaselineQuery,
  isTextDelta,
  prewarmBaseline,
  type BaselineSpare,
} from "./support/sdk-baseline.js";
import { summarize, type Summary } from "./support/stats.js";

const TARGET_MS = 150;
/** What marks a parked spare's command line. */
const SPARE_FLAG = "--await-claim";

interface StartSample {
  /** session/new → response (SDK: query()/claim() → initializationResult()). */
  ready: number;
  /** Same start → first agent_message_chunk of the first prompt (SDK: first text delta). */
  firstChunk: number;
}

async function agentSample(agent: BenchAgent, cwd: string): Promise<StartSample> {
  let firstChunkAt: number | undefined;
  let sessionId: string | undefined;
  const early: Array<{ id: string; at: number }> = [];
  const off = agent.onUpdate((params, at) => {
    if (params.update.sessionUpdate !== "agent_message_chunk") return;
    if (sessionId === undefined) early.push({ id: params.sessionId, at });
    else if (params.sessionId === sessionId) firstChunkAt ??= at;
  });
  try {
    const created = await agent.newSession(cwd);
    sessionId = created.result.sessionId;
    const prompt = await agent.prompt(sessionId, HELLO_PROMPT);
    if (prompt.result.stopReason !== "end_turn") {
      throw new Error(`first prompt ended with ${prompt.result.stopReason}`);
    }
    firstChunkAt ??= early.find((e) => e.id === sessionId)?.at;
    if (firstChunkAt === undefined) throw new Error("the first prompt streamed no text");
    await agent.closeSession(sessionId);
    return {
      ready: created.receivedAt - created.sentAt,
      firstChunk: firstChunkAt - created.sentAt,
    };
  } finally {
    off();
  }
}

async function sdkSample(
  cwd: string,
  start: { env: Record<string, string> } | { spare: BaselineSpare },
): Promise<StartSample> {
  const q = new BaselineQuery({ cwd, ...start } as ConstructorParameters<typeof BaselineQuery>[0]);
  try {
    await q.query.initializationResult();
    const ready = performance.now() - q.startedAt;
    let firstChunkAt: number | undefined;
    const off = q.onMessage((message, at) => {
      if (isTextDelta(message)) firstChunkAt ??= at;
    });
    const turn = await q.turn(HELLO_PROMPT);
    off();
    if (turn.result.subtype !== "success") {
      throw new Error(`SDK first prompt: ${turn.result.subtype}`);
    }
    if (firstChunkAt === undefined) throw new Error("the SDK's first prompt streamed no text");
    return { ready, firstChunk: firstChunkAt - q.startedAt };
  } finally {
    q.close();
  }
}

async function startAgent(sandbox: Sandbox, env: Record<string, string>): Promise<BenchAgent> {
  const agent = new BenchAgent({ env, cwd: sandbox.root });
  await agent.initialize();
  return agent;
}

/** p50 of the first prompt's own share: first chunk − ready. */
function promptAlone(samples: readonly StartSample[]): string {
  return summarize(samples.map((s) => s.firstChunk - s.ready)).p50.toFixed(0);
}

export async function runSessionStart(ctx: BenchContext): Promise<SuiteResult> {
  const started = performance.now();
  const samples = ctx.quick ? 3 : 8;
  const warmup = 1;
  const pauseMs = 1_000;
  const sandbox = await createSandbox("session");
  const env = benchEnv(ctx.api.url, sandbox);
  const cwd = await sandbox.dir("cwd-session");
  const cold = await startAgent(sandbox, { ...env, CLAUDE_AGENT_ACP_PREWARM: "0" });
  const warm = await startAgent(sandbox, { ...env, CLAUDE_AGENT_ACP_PREWARM: "1" });
  const results = {
    agentCold: [] as StartSample[],
    agentSpare: [] as StartSample[],
    sdkCold: [] as StartSample[],
    sdkSpare: [] as StartSample[],
  };
  let spareSeen = false;
  try {
    for (let i = -warmup; i < samples; i++) {
      await sleep(pauseMs);
      const c = await agentSample(cold, cwd);
      await sleep(pauseMs);
      // The agent starts a spare at initialize and replaces it after each claim.
      spareSeen =
        (await waitUntilIdle(warm.pid, SPARE_FLAG, { quietMs: 300, timeoutMs: 15_000 })) ||
        spareSeen;
      const w = await agentSample(warm, cwd);
      await sleep(pauseMs);
      const s = await sdkSample(cwd, { env });
      await sleep(pauseMs);
      const spare = await prewarmBaseline(env);
      await sleep(pauseMs);
      const p = await sdkSample(cwd, { spare });
      if (i < 0) continue;
      results.agentCold.push(c);
      results.agentSpare.push(w);
      results.sdkCold.push(s);
      results.sdkSpare.push(p);
      progress(
        `session start ${i + 1}/${samples}: session/new ${c.ready.toFixed(0)} ms (spare off), ` +
          `${w.ready.toFixed(0)} ms (spare on); SDK ${s.ready.toFixed(0)} ms (query), ${p.ready.toFixed(0)} ms (claim)`,
      );
    }
  } catch (error) {
    process.stderr.write(`--- agent stderr (spare off) ---\n${cold.log()}\n`);
    process.stderr.write(`--- agent stderr (spare on) ---\n${warm.log()}\n`);
    throw error;
  } finally {
    await cold.stop();
    await warm.stop();
    await sandbox.remove();
  }

  const ready = (xs: StartSample[]): Summary => summarize(xs.map((x) => x.ready));
  const first = (xs: StartSample[]): Summary => summarize(xs.map((x) => x.firstChunk));
  const rows: Row[] = [];
  const variants = [
    ["spare off", results.agentCold, results.sdkCold, "SDK: query()"],
    ["spare on", results.agentSpare, results.sdkSpare, "SDK: prewarm() + claim()"],
  ] as const;
  for (const [label, agentSamples, sdkSamples, baseline] of variants) {
    const r = ready(agentSamples);
    const f = first(agentSamples);
    const br = ready(sdkSamples);
    const bf = first(sdkSamples);
    rows.push(
      {
        figure: "Session start",
        metric: `session/new → response, ${label}`,
        unit: "ms",
        agent: r,
        baseline: br,
        ratio: r.p50 / br.p50,
        target: `p50 ≤ ${TARGET_MS} ms`,
        met: r.p50 <= TARGET_MS,
        note: baseline,
      },
      {
        figure: "Session start",
        metric: `session/new → first chunk of the first prompt, ${label}`,
        unit: "ms",
        agent: f,
        baseline: bf,
        ratio: f.p50 / bf.p50,
      },
    );
  }
  return {
    suite: "session",
    rows,
    notes: [
      `Session start: ${samples} samples per column after ${warmup} warm-up, round-robin (agent spare off, agent spare on, SDK query(), SDK claim()), ${pauseMs} ms pause before each, spares started and idle before they are claimed. Baselines: query() or claim() → initializationResult(), and → first text delta of a prompt sent then.`,
      ...(spareSeen
        ? []
        : [
            `Session start: the agent started no prewarmed spare (no ${SPARE_FLAG} process): "spare on" is a second "spare off" sample.`,
          ]),
      `Session start, the first prompt alone (response → first chunk), p50: agent ${promptAlone(results.agentCold)} ms spare off, ${promptAlone(results.agentSpare)} ms spare on; SDK ${promptAlone(results.sdkCold)} ms after query(), ${promptAlone(results.sdkSpare)} ms after claim().`,
    ],
    durationMs: performance.now() - started,
    detail: results,
  };
}
