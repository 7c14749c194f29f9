// Turn overhead: one scripted turn — text, three Bash calls that each need permission
// (answered allow-once), final text — through the agent over stdio vs through a direct
// `query()` with an in-process canUseTool that allows. Measured from sending the prompt
// to the prompt's end (the session/prompt response; the SDK's `result` message).
// Runs alternate between the two (A/B, then B/A) after a warm-up, to cancel drift.
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { cpuMsOf } from "./support/proc.js";
import type { BenchContext } from "./support/context.js";
import { progress } from "./support/progress.js";
import { isTextDelta } from "./support/sdk-baseline.js";
import { sideBySide } from "./support/side-by-side.js";
import type { SuiteResult } from "./support/report.js";
import { TURN_PROMPT } from "./support/scenarios.js";
import { median, pairRatios, summarize } from "./support/stats.js";

const PERMISSIONS_PER_TURN = 3;
const PHASES = [
  "prompt → first text",
  "first text → ask 1",
  "ask 1 → ask 2",
  "ask 2 → ask 3",
  "ask 3 → end",
] as const;

interface Sample {
  /** Prompt sent → prompt ended. */
  ms: number;
  /** CPU time of the agent process (or of this process, for the SDK) during the turn. */
  cpuMs: number;
  /** Durations of PHASES. */
  phases: number[];
  /** session/update notifications of the turn by kind (agent only). */
  updates?: Record<string, number>;
}

/** Durations between the marks of a turn (NaN where a mark is missing). */
function phases(
  sent: number,
  firstText: number | undefined,
  asks: readonly number[],
  end: number,
): number[] {
  const marks = [sent, firstText ?? NaN, asks[0] ?? NaN, asks[1] ?? NaN, asks[2] ?? NaN, end];
  return marks.slice(1).map((m, i) => m - marks[i]!);
}
const FILES = ["a.txt", "b.txt", "c.txt"];

async function removeFiles(cwd: string): Promise<void> {
  await Promise.all(FILES.map((f) => rm(join(cwd, f), { force: true })));
}

function requireFiles(cwd: string, who: string): void {
  const missing = FILES.filter((f) => !existsSync(join(cwd, f)));
  if (missing.length) throw new Error(`${who}: the turn did not write ${missing.join(", ")}`);
}

function describeUpdates(updates: Record<string, number> | undefined): string {
  if (!updates) return "?";
  const total = Object.values(updates).reduce((a, b) => a + b, 0);
  const kinds = Object.entries(updates)
    .sort((a, b) => b[1] - a[1])
    .map(([kind, n]) => `${n} ${kind}`)
    .join(", ");
  return `${total} session/update notifications (${kinds})`;
}

export async function runTurnOverhead(ctx: BenchContext): Promise<SuiteResult> {
  const started = performance.now();
  const warmup = ctx.quick ? 1 : 3;
  const pairs = ctx.quick ? 5 : 20;
  return sideBySide(ctx, "turn", async ({ agent, sessionId, agentCwd, sdk, sdkCwd }) => {
    const agentTurn = async (): Promise<Sample> => {
      await removeFiles(agentCwd);
      const before = agent.permissionsAnswered;
      let firstText: number | undefined;
      const asks: number[] = [];
      const updates: Record<string, number> = {};
      const offUpdate = agent.onUpdate((params, at) => {
        const kind = params.update.sessionUpdate;
        updates[kind] = (updates[kind] ?? 0) + 1;
        if (kind === "agent_message_chunk") firstText ??= at;
      });
      const offAsk = agent.onPermission((_params, at) => asks.push(at));
      const cpu0 = await cpuMsOf(agent.pid);
      const t = await agent.prompt(sessionId, TURN_PROMPT).finally(() => {
        offUpdate();
        offAsk();
      });
      const cpu1 = await cpuMsOf(agent.pid);
      if (t.result.stopReason !== "end_turn") {
        throw new Error(`agent turn ended with ${t.result.stopReason}`);
      }
      const asked = agent.permissionsAnswered - before;
      if (asked !== PERMISSIONS_PER_TURN) {
        throw new Error(`agent turn asked ${asked} permissions, expected ${PERMISSIONS_PER_TURN}`);
      }
      requireFiles(agentCwd, "agent");
      return {
        ms: t.receivedAt - t.sentAt,
        cpuMs: (cpu1 ?? NaN) - (cpu0 ?? NaN),
        phases: phases(t.sentAt, firstText, asks, t.receivedAt),
        updates,
      };
    };
    const sdkTurn = async (): Promise<Sample> => {
      await removeFiles(sdkCwd);
      const before = sdk.permissionsAnswered;
      let firstText: number | undefined;
      const off = sdk.onMessage((message, at) => {
        if (isTextDelta(message)) firstText ??= at;
      });
      const cpu0 = process.cpuUsage();
      const t = await sdk.turn(TURN_PROMPT).finally(off);
      const cpu = process.cpuUsage(cpu0);
      if (t.result.subtype !== "success") throw new Error(`SDK turn: ${t.result.subtype}`);
      const asked = sdk.permissionsAnswered - before;
      if (asked !== PERMISSIONS_PER_TURN) {
        throw new Error(`SDK turn asked ${asked} permissions, expected ${PERMISSIONS_PER_TURN}`);
      }
      requireFiles(sdkCwd, "SDK");
      const asks = sdk.permissionTimes.slice(before, before + PERMISSIONS_PER_TURN);
      return {
        ms: t.endedAt - t.sentAt,
        cpuMs: (cpu.user + cpu.system) / 1000,
        phases: phases(t.sentAt, firstText, asks, t.endedAt),
      };
    };

    progress(`turn overhead: warm-up (${warmup} turns each)`);
    for (let i = 0; i < warmup; i++) {
      await agentTurn();
      await sdkTurn();
    }
    const agentSamples: Sample[] = [];
    const sdkSamples: Sample[] = [];
    for (let i = 0; i < pairs; i++) {
      // A/B, then B/A: neither side always runs right after the other.
      let a: Sample;
      let b: Sample;
      if (i % 2 === 0) {
        a = await agentTurn();
        b = await sdkTurn();
      } else {
        b = await sdkTurn();
        a = await agentTurn();
      }
      agentSamples.push(a);
      sdkSamples.push(b);
      progress(
        `turn overhead: pair ${i + 1}/${pairs}: agent ${a.ms.toFixed(0)} ms, SDK ${b.ms.toFixed(0)} ms`,
      );
    }
    const agentMs = agentSamples.map((s) => s.ms);
    const sdkMs = sdkSamples.map((s) => s.ms);
    const ratios = pairRatios(agentMs, sdkMs);
    const agentSummary = summarize(agentMs);
    const sdkSummary = summarize(sdkMs);
    const ratio = agentSummary.p50 / sdkSummary.p50;
    const agentCpu = summarize(agentSamples.map((s) => s.cpuMs));
    const sdkCpu = summarize(sdkSamples.map((s) => s.cpuMs));
    const phaseTable = PHASES.map((name, i) => ({
      phase: name,
      agentMs: median(agentSamples.map((s) => s.phases[i]!)),
      sdkMs: median(sdkSamples.map((s) => s.phases[i]!)),
    }));
    return {
      suite: "turn",
      rows: [
        {
          figure: "Turn overhead",
          metric: "prompt → end of turn: text, 3 Bash calls each allowed once, text",
          unit: "ms",
          agent: agentSummary,
          baseline: sdkSummary,
          ratio,
          target: "ratio ≤ 1.05",
          met: ratio <= 1.05,
          note: `agent − SDK at p50: ${(agentSummary.p50 - sdkSummary.p50).toFixed(0)} ms`,
        },
        {
          figure: "Turn overhead",
          metric: "CPU time per turn: agent process vs the process running query()",
          unit: "ms",
          agent: agentCpu,
          baseline: sdkCpu,
          note: "Claude Code's own CPU excluded; agent at 10 ms resolution",
        },
      ],
      notes: [
        `Turn overhead: ${pairs} interleaved pairs after ${warmup} warm-up turns each, one long-lived agent session and one long-lived SDK query; ratio of medians (median of per-pair ratios: ${median(ratios).toFixed(3)}).`,
        `Turn overhead: an agent turn sends ${describeUpdates(agentSamples.at(-1)?.updates)} and 3 permission requests.`,
        `Turn overhead, median per phase (agent / SDK, ms): ${phaseTable
          .map((p) => `${p.phase} ${p.agentMs.toFixed(0)} / ${p.sdkMs.toFixed(0)}`)
          .join("; ")}.`,
      ],
      durationMs: performance.now() - started,
      detail: { agentSamples, sdkSamples, pairRatios: ratios, phases: phaseTable },
    };
  });
}
