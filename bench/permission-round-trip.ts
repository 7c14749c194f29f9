// Permission round trip added by the agent, in process, without Claude Code: the agent
// app (createAgent) with a fake Claude query, connected to an ACP SDK client app in the
// same process whose permission handler answers allow-once at once. Per ask:
//   adapter = (client handler entered − callback entered) + (callback resolved − handler returned)
// i.e. the agent's own time from Claude Code's canUseTool call to the request reaching
// the client, plus from the client's answer to the PermissionResult Claude Code gets.
// Both legs include the ACP SDK's in-process transport and schema validation, on the
// agent's side and the client's: an upper bound of the adapter's own time.
// Each ask is made as Claude Code makes it: the tool use is streamed first (so the tool
// call is already announced), canUseTool is called with Claude Code's suggestions, and
// the tool result follows (outside the measured window).
import { performance, PerformanceObserver } from "node:perf_hooks";
import { client, methods, type SessionNotification } from "@agentclientprotocol/sdk";
import { createAgent } from "../src/agent.js";
import {
  fakeClaude,
  result,
  toolResult,
  toolUse,
  type FakeClaudeQuery,
} from "../src/tests/support/fake-claude.js";
import { fakeTranscripts } from "../src/tests/support/fake-transcripts.js";
import type { BenchContext } from "./support/context.js";
import { progress } from "./support/progress.js";
import type { SuiteResult } from "./support/report.js";
import { createSandbox } from "./support/sandbox.js";
import { setLogLevel } from "../src/logger.js";
import { summarize } from "./support/stats.js";

const TARGET_P99_MS = 1;

/** What Claude Code suggests for `echo a > a.txt` in default mode. */
const SUGGESTIONS = [
  {
    type: "addRules" as const,
    rules: [{ toolName: "Bash", ruleContent: "echo:*" }],
    behavior: "allow" as const,
    destination: "localSettings" as const,
  },
];

/** Resolves when the client has seen an update matching `match`. */
class UpdateWaiter {
  private readonly waiting: Array<{
    match: (n: SessionNotification) => boolean;
    wake: () => void;
  }> = [];

  seen(notification: SessionNotification): void {
    for (let i = this.waiting.length - 1; i >= 0; i--) {
      const w = this.waiting[i]!;
      if (w.match(notification)) {
        this.waiting.splice(i, 1);
        w.wake();
      }
    }
  }

  until(match: (n: SessionNotification) => boolean): Promise<void> {
    return new Promise((wake) => this.waiting.push({ match, wake }));
  }
}

export async function runPermissionRoundTrip(ctx: BenchContext): Promise<SuiteResult> {
  const started = performance.now();
  const warmup = ctx.quick ? 200 : 1_000;
  const asks = ctx.quick ? 1_000 : 5_000;
  const sandbox = await createSandbox("permission");
  const fake = fakeClaude();
  const updates = new UpdateWaiter();
  let handlerEnteredAt = 0;
  let handlerReturnedAt = 0;
  const agentApp = createAgent({
    startQuery: fake.startQuery,
    transcripts: fakeTranscripts(),
    resolveExecutable: () => "/fake/claude",
    env: { HOME: sandbox.home, CLAUDE_CONFIG_DIR: sandbox.configDir, PATH: process.env.PATH },
  });
  const clientApp = client({ name: "bench-client" })
    .onNotification(methods.client.session.update, ({ params }) => updates.seen(params))
    .onRequest(methods.client.session.requestPermission, ({ params }) => {
      handlerEnteredAt = performance.now();
      const allow = params.options.find((o) => o.kind === "allow_once") ?? params.options[0]!;
      const answer = { outcome: { outcome: "selected" as const, optionId: allow.optionId } };
      handlerReturnedAt = performance.now();
      return answer;
    });
  // The agent's in-process log ("client disconnected") would interleave with progress;
  // this process has no other use for the agent's logger.
  setLogLevel("warn");
  const connection = clientApp.connect(agentApp);
  const acp = connection.agent;
  const adapterMs: number[] = [];
  const totalMs: number[] = [];
  /** The adapter's time of the warm-up asks, from the very first (cold code). */
  const coldMs: number[] = [];
  /** CPU time of this process (agent and client sides) during the ask. */
  const cpuMs: number[] = [];
  /** [start, end] of each measured ask, to match against garbage collections. */
  const spans: Array<[number, number]> = [];
  const gcs: Array<[number, number]> = [];
  const gcObserver = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcs.push([e.startTime, e.startTime + e.duration]);
  });
  gcObserver.observe({ entryTypes: ["gc"] });
  try {
    await acp.request(methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await acp.request(methods.agent.session.new, {
      cwd: sandbox.cwd,
      mcpServers: [],
    });
    const query: FakeClaudeQuery = fake.started[0]!;
    const prompt = acp.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "bench" }],
    });
    await query.waitForSent(1);

    const ask = async (i: number): Promise<void> => {
      const id = `toolu_perm_${i}`;
      const input = { command: `echo ${i} > a.txt`, description: "Write a file" };
      const announced = updates.until(
        (n) => n.update.sessionUpdate === "tool_call" && n.update.toolCallId === id,
      );
      query.emit(toolUse(id, "Bash", input));
      await announced;
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      const decision = await query.canUseTool("Bash", input, {
        toolUseID: id,
        suggestions: SUGGESTIONS,
      });
      const t3 = performance.now();
      const cpu = process.cpuUsage(cpu0);
      if (decision?.behavior !== "allow") throw new Error(`ask ${i} was not allowed`);
      if (i < 0) coldMs.push(handlerEnteredAt - t0 + (t3 - handlerReturnedAt));
      if (i >= 0) {
        adapterMs.push(handlerEnteredAt - t0 + (t3 - handlerReturnedAt));
        totalMs.push(t3 - t0);
        cpuMs.push((cpu.user + cpu.system) / 1000);
        spans.push([t0, t3]);
      }
      const completed = updates.until(
        (n) =>
          n.update.sessionUpdate === "tool_call_update" &&
          n.update.toolCallId === id &&
          n.update.status === "completed",
      );
      query.emit(toolResult(id, "ok"));
      await completed;
    };

    progress(`permission round trip: ${warmup} warm-up asks, ${asks} measured`);
    for (let i = -warmup; i < asks; i++) await ask(i);
    query.emit(result());
    await prompt;
  } finally {
    // GC entries are queued as macrotasks, and the asks may never leave the microtask
    // queue: let them through, then take what was not delivered yet.
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (const e of gcObserver.takeRecords()) gcs.push([e.startTime, e.startTime + e.duration]);
    gcObserver.disconnect();
    connection.close();
    await sandbox.remove();
  }
  const adapter = summarize(adapterMs);
  const total = summarize(totalMs);
  const cpu = summarize(cpuMs);
  // Asks over 1 ms of wall time: if their CPU time is far below, the process was waiting
  // (descheduled on a busy machine), not working.
  const slow = adapterMs.flatMap((ms, i) => (ms >= 1 ? [i] : []));
  const slowCpu = summarize(slow.map((i) => cpuMs[i]!));
  const slowWall = summarize(slow.map((i) => totalMs[i]!));
  const withGc = slow.filter((i) => {
    const [a, b] = spans[i]!;
    return gcs.some(([s, e]) => s < b && e > a);
  }).length;
  return {
    suite: "permission",
    rows: [
      {
        figure: "Permission round trip",
        metric:
          "added by the agent: canUseTool → client handler + client answer → PermissionResult",
        unit: "ms",
        agent: adapter,
        show: ["p50", "p99"],
        target: `p99 < ${TARGET_P99_MS} ms`,
        met: adapter.p99 < TARGET_P99_MS,
      },
      {
        figure: "Permission round trip",
        metric: "total in process: canUseTool call → PermissionResult",
        unit: "ms",
        agent: total,
        show: ["p50", "p99"],
      },
      {
        figure: "Permission round trip",
        metric: "CPU time of the process (agent and client sides) per ask",
        unit: "ms",
        agent: cpu,
        show: ["p50", "p99"],
      },
    ],
    notes: [
      `Permission round trip: in process, no Claude Code; ${asks} asks after ${warmup} warm-up; the adapter's time includes the ACP SDK's in-process transport and validation on both sides.`,
      `Permission round trip: the first ask of the process took ${(coldMs[0] ?? NaN).toFixed(2)} ms of adapter time, the first ten ${summarize(coldMs.slice(0, 10)).p50.toFixed(2)} ms at p50 (code not yet optimised: in a real session asks are few, so this is what a user mostly sees).`,
      slow.length
        ? `Permission round trip: ${slow.length} of ${asks} asks took ≥ 1 ms of wall time (p50 ${slowWall.p50.toFixed(2)} ms) and ${slowCpu.p50.toFixed(2)} ms of process CPU (p50, all threads): ${
            slowCpu.p50 < slowWall.p50 / 2
              ? "mostly waiting for a CPU (a busy machine), not working"
              : "mostly work, not waiting"
          }; ${withGc} of them overlapped a garbage collection of this process.`
        : `Permission round trip: no ask took 1 ms or more.`,
    ],
    durationMs: performance.now() - started,
    // Samples in µs, in ask order, to see whether slow asks are periodic (GC) or random.
    detail: {
      adapter,
      total,
      adapterUs: adapterMs.map((ms) => Math.round(ms * 1000)),
      cpuUs: cpuMs.map((ms) => Math.round(ms * 1000)),
    },
  };
}
