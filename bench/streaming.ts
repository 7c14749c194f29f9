// Streaming: one scripted turn of 20,000 small text deltas, each carrying its sequence
// number. Agent: the deltas received by the bench client per second, from the first to the
// last agent_message_chunk (the agent sends the deltas that come in one read as one chunk);
// every sequence number must arrive, once, in order. Direct SDK: text-delta stream events
// per second from query() with partial messages. Runs alternate after a short warm-up.
import { performance } from "node:perf_hooks";
import { cpuMsOf, descendantsMatching } from "./support/proc.js";
import type { BenchContext } from "./support/context.js";
import { progress } from "./support/progress.js";
import { sideBySide } from "./support/side-by-side.js";
import type { SuiteResult } from "./support/report.js";
import { DELTA_PATTERN, streamPrompt } from "./support/scenarios.js";
import { median, pairRatios, summarize } from "./support/stats.js";

const TARGET_RATIO = 0.95;

interface StreamSample {
  /** Chunks (agent) or text-delta events (SDK) received. */
  chunks: number;
  /** Deltas per second between the first chunk and the last (the first one's not counted). */
  rate: number;
  /** Prompt sent → prompt ended. */
  turnMs: number;
  /** Sequence numbers missing, repeated or out of order (0 = intact). */
  defects: number;
  /** CPU time per delta of the agent process (SDK: of this process, running query()). */
  cpuUsPerDelta: number;
  /** CPU time per delta of the Claude Code process serving the turn. */
  claudeUsPerDelta: number;
  /** CPU time per delta of every process on the path: Claude Code, agent, client, API. */
  pathUsPerDelta: number;
}

/** CPU ms used so far by the Claude Code processes below `pid`. */
async function claudeCpuMs(pid: number): Promise<number> {
  let sum = 0;
  for (const p of await descendantsMatching(pid, "claude")) sum += (await cpuMsOf(p)) ?? 0;
  return sum;
}

/** Counts the sequence numbers that are not exactly 0, 1, ..., expected-1 in order. */
function checkSequence(texts: readonly string[], expected: number): number {
  let next = 0;
  let defects = 0;
  for (const text of texts) {
    for (const match of text.matchAll(DELTA_PATTERN)) {
      if (Number(match[1]) !== next) defects++;
      next = Number(match[1]) + 1;
    }
  }
  return defects + Math.abs(expected - next);
}

/** The deltas a chunk carries (their sequence numbers). */
function deltasIn(text: string): number {
  let n = 0;
  for (const _ of text.matchAll(DELTA_PATTERN)) n++;
  return n;
}

/** Deltas per second after the first chunk: `(total − those of the first) / (last − first)`. */
function rate(texts: readonly string[], first: number, last: number): number {
  const total = texts.reduce((n, text) => n + deltasIn(text), 0);
  const after = total - deltasIn(texts[0] ?? "");
  return after > 0 && last > first ? (after * 1000) / (last - first) : NaN;
}

export async function runStreaming(ctx: BenchContext): Promise<SuiteResult> {
  const started = performance.now();
  const deltas = 20_000;
  // A run's rate swings with the machine's load: 4 runs let one slow run move the median.
  const runs = ctx.quick ? 2 : 8;
  return sideBySide(ctx, "stream", async ({ agent, sessionId, sdk }) => {
    const agentRun = async (count: number): Promise<StreamSample> => {
      const texts: string[] = [];
      let first = 0;
      let last = 0;
      const off = agent.onUpdate((params, at) => {
        const u = params.update;
        if (params.sessionId !== sessionId || u.sessionUpdate !== "agent_message_chunk") return;
        if (texts.length === 0) first = at;
        last = at;
        texts.push(u.content?.text ?? "");
      });
      const cpu0 = await cpuMsOf(agent.pid);
      const claude0 = await claudeCpuMs(agent.pid);
      const api0 = (await cpuMsOf(ctx.api.pid)) ?? NaN;
      const client0 = process.cpuUsage();
      const t = await agent.prompt(sessionId, streamPrompt(count));
      const client = process.cpuUsage(client0);
      const cpu1 = await cpuMsOf(agent.pid);
      const claude1 = await claudeCpuMs(agent.pid);
      const api1 = (await cpuMsOf(ctx.api.pid)) ?? NaN;
      const agentCpuMs = (cpu1 ?? NaN) - (cpu0 ?? NaN);
      off();
      if (t.result.stopReason !== "end_turn") throw new Error(`agent: ${t.result.stopReason}`);
      return {
        chunks: texts.length,
        rate: rate(texts, first, last),
        turnMs: t.receivedAt - t.sentAt,
        defects: checkSequence(texts, count),
        cpuUsPerDelta: (agentCpuMs * 1000) / count,
        claudeUsPerDelta: ((claude1 - claude0) * 1000) / count,
        pathUsPerDelta:
          ((agentCpuMs + claude1 - claude0 + api1 - api0) * 1000 + client.user + client.system) /
          count,
      };
    };
    const sdkRun = async (count: number): Promise<StreamSample> => {
      const texts: string[] = [];
      let first = 0;
      let last = 0;
      const off = sdk.onMessage((message, at) => {
        if (message.type !== "stream_event" || message.parent_tool_use_id) return;
        const e = message.event;
        if (e.type !== "content_block_delta" || e.delta.type !== "text_delta") return;
        if (texts.length === 0) first = at;
        last = at;
        texts.push(e.delta.text);
      });
      const cpu0 = process.cpuUsage();
      const claude0 = await claudeCpuMs(process.pid);
      const api0 = (await cpuMsOf(ctx.api.pid)) ?? NaN;
      const t = await sdk.turn(streamPrompt(count));
      const cpu = process.cpuUsage(cpu0);
      const claude1 = await claudeCpuMs(process.pid);
      const api1 = (await cpuMsOf(ctx.api.pid)) ?? NaN;
      off();
      if (t.result.subtype !== "success") throw new Error(`SDK: ${t.result.subtype}`);
      return {
        chunks: texts.length,
        rate: rate(texts, first, last),
        turnMs: t.endedAt - t.sentAt,
        defects: checkSequence(texts, count),
        cpuUsPerDelta: (cpu.user + cpu.system) / count,
        claudeUsPerDelta: ((claude1 - claude0) * 1000) / count,
        pathUsPerDelta: ((claude1 - claude0 + api1 - api0) * 1000 + cpu.user + cpu.system) / count,
      };
    };

    progress(`streaming: warm-up (2,000 deltas each)`);
    await agentRun(2_000);
    await sdkRun(2_000);
    const agentSamples: StreamSample[] = [];
    const sdkSamples: StreamSample[] = [];
    for (let i = 0; i < runs; i++) {
      const order = i % 2 === 0 ? [agentRun, sdkRun] : [sdkRun, agentRun];
      for (const run of order) {
        const s = await run(deltas);
        (run === agentRun ? agentSamples : sdkSamples).push(s);
      }
      const a = agentSamples.at(-1)!;
      const b = sdkSamples.at(-1)!;
      progress(
        `streaming ${i + 1}/${runs}: agent ${a.rate.toFixed(0)}/s (${a.chunks} chunks, ${a.defects} defects), SDK ${b.rate.toFixed(0)}/s (${b.chunks} events)`,
      );
    }
    const agentRate = summarize(agentSamples.map((s) => s.rate));
    const sdkRate = summarize(sdkSamples.map((s) => s.rate));
    const ratio = agentRate.p50 / sdkRate.p50;
    const ratios = pairRatios(
      agentSamples.map((s) => s.rate),
      sdkSamples.map((s) => s.rate),
    );
    const defects = agentSamples.reduce((n, s) => n + s.defects, 0);
    const chunks = [...new Set(agentSamples.map((s) => s.chunks))].join("/");
    return {
      suite: "streaming",
      rows: [
        {
          figure: "Streaming",
          metric: `${deltas.toLocaleString("en-US")} text deltas: deltas/s delivered to the client`,
          unit: "deltas/s",
          agent: agentRate,
          baseline: sdkRate,
          ratio,
          target: `ratio ≥ ${TARGET_RATIO}, none dropped or reordered`,
          met: ratio >= TARGET_RATIO && defects === 0,
          note: `${chunks} agent_message_chunk per run, ${defects} deltas dropped/reordered`,
        },
        {
          figure: "Streaming",
          metric: "prompt → end of the same turn",
          unit: "ms",
          agent: summarize(agentSamples.map((s) => s.turnMs)),
          baseline: summarize(sdkSamples.map((s) => s.turnMs)),
          ratio:
            summarize(agentSamples.map((s) => s.turnMs)).p50 /
            summarize(sdkSamples.map((s) => s.turnMs)).p50,
        },
        {
          figure: "Streaming",
          metric: "CPU time per delta: agent process vs the process running query()",
          unit: "µs",
          agent: summarize(agentSamples.map((s) => s.cpuUsPerDelta)),
          baseline: summarize(sdkSamples.map((s) => s.cpuUsPerDelta)),
          note: "Claude Code's own CPU excluded",
        },
        {
          figure: "Streaming",
          metric:
            "CPU time per delta, every process on the path (Claude Code, agent, bench client, API)",
          unit: "µs",
          agent: summarize(agentSamples.map((s) => s.pathUsPerDelta)),
          baseline: summarize(sdkSamples.map((s) => s.pathUsPerDelta)),
        },
        {
          figure: "Streaming",
          metric: "CPU time per delta of the Claude Code process serving the turn",
          unit: "µs",
          agent: summarize(agentSamples.map((s) => s.claudeUsPerDelta)),
          baseline: summarize(sdkSamples.map((s) => s.claudeUsPerDelta)),
        },
      ],
      notes: [
        `Streaming: ${runs} interleaved runs of ${deltas} deltas each after a 2,000-delta warm-up; rate = deltas after the first chunk / (last − first arrival), deltas counted by their sequence numbers (the SDK's events carry one each); ratio of medians (median of per-run ratios: ${median(ratios).toFixed(3)}).`,
      ],
      durationMs: performance.now() - started,
      detail: { agentSamples, sdkSamples, pairRatios: ratios },
    };
  });
}
