// Served on the network: a first turn over WebSocket (claude-agent-acp serve) against the
// same over stdio, one agent of each kind, samples taken in turn. A sample: session/new
// → the first prompt's answer (its Claude Code start and its turn, "say hello").
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { BenchAgent, sleep, type BenchClient } from "./support/agent-process.js";
import type { BenchContext } from "./support/context.js";
import { progress } from "./support/progress.js";
import type { SuiteResult } from "./support/report.js";
import { benchEnv, createSandbox } from "./support/sandbox.js";
import { HELLO_PROMPT } from "./support/scenarios.js";
import { median, pairRatios, summarize } from "./support/stats.js";
import { WsBenchClient } from "./support/ws-client.js";

const TARGET_RATIO = 1.05;
const TOKEN = "bench-serve-token-0123456789";

async function firstTurn(client: BenchClient, cwd: string): Promise<number> {
  const created = await client.newSession(cwd);
  const sessionId = created.result.sessionId;
  const answer = await client.prompt(sessionId, HELLO_PROMPT);
  if (answer.result.stopReason !== "end_turn") {
    throw new Error(`the first prompt ended with ${answer.result.stopReason}`);
  }
  await client.closeSession(sessionId);
  return answer.receivedAt - created.sentAt;
}

/** Waits for the served agent's URL file (written once it listens). */
async function servedUrl(file: string, agent: BenchAgent): Promise<string> {
  const deadline = performance.now() + 15_000;
  for (;;) {
    const url = (await readFile(file, "utf8").catch(() => "")).trim();
    if (url) return url;
    if (performance.now() > deadline) throw new Error(`serve wrote no URL\n${agent.log()}`);
    await sleep(50);
  }
}

export async function runServe(ctx: BenchContext): Promise<SuiteResult> {
  const started = performance.now();
  const samples = ctx.quick ? 3 : 10;
  const pauseMs = 500;
  const sandbox = await createSandbox("serve");
  const env = benchEnv(ctx.api.url, sandbox, { CLAUDE_AGENT_ACP_PREWARM: "0" });
  const tokenFile = join(sandbox.root, "token");
  const urlFile = join(sandbox.root, "url");
  await writeFile(tokenFile, `${TOKEN}\n`);
  const stdio = new BenchAgent({ env, cwd: sandbox.root });
  const server = new BenchAgent({
    env,
    cwd: sandbox.root,
    args: ["serve", "--token-file", tokenFile, "--url-file", urlFile],
  });
  let ws: WsBenchClient | undefined;
  const stdioMs: number[] = [];
  const wsMs: number[] = [];
  try {
    await stdio.initialize();
    ws = await WsBenchClient.connect(await servedUrl(urlFile, server), TOKEN);
    await ws.initialize();
    for (let i = -1; i < samples; i++) {
      const cwd = await sandbox.dir(`cwd-${i + 1}`);
      // Each goes first in every other pair: neither always follows the other's work.
      const order = i % 2 === 0 ? [stdio, ws] : [ws, stdio];
      const ms = new Map<BenchClient, number>();
      for (const client of order) {
        await sleep(pauseMs);
        ms.set(client, await firstTurn(client, cwd));
      }
      const [a, b] = [ms.get(stdio)!, ms.get(ws)!];
      if (i < 0) continue; // warm-up
      stdioMs.push(a);
      wsMs.push(b);
      progress(`serve ${i + 1}/${samples}: stdio ${a.toFixed(0)} ms, WebSocket ${b.toFixed(0)} ms`);
    }
  } catch (error) {
    process.stderr.write(`--- served agent stderr ---\n${server.log()}\n`);
    throw error;
  } finally {
    ws?.close();
    await stdio.stop();
    await server.stop();
    await sandbox.remove();
  }
  const ratio = median(pairRatios(wsMs, stdioMs));
  return {
    suite: "serve",
    rows: [
      {
        figure: "Served",
        metric: "session/new → first prompt's answer, over WebSocket",
        unit: "ms",
        agent: summarize(wsMs),
        baseline: summarize(stdioMs),
        ratio,
        target: `≤ ${TARGET_RATIO}× stdio`,
        met: ratio <= TARGET_RATIO,
        note: "baseline: the same agent over stdio",
      },
    ],
    notes: [
      `Served: ${samples} pairs after 1 warm-up, each side first in every other pair, ${pauseMs} ms pause before each; the ratio is the median of the pairs' ratios.`,
    ],
    durationMs: performance.now() - started,
    detail: { stdioMs, wsMs },
  };
}
