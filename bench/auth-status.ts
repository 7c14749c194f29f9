// auth/status over stdio against the built agent: what a client waits for its answer, with
// a Claude login and its account record on disk (the files the agent reads for it). The
// agent must answer without starting Claude Code or using the network.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { BenchAgent } from "./support/agent-process.js";
import type { BenchContext } from "./support/context.js";
import { progress } from "./support/progress.js";
import type { SuiteResult } from "./support/report.js";
import { createSandbox } from "./support/sandbox.js";
import { summarize } from "./support/stats.js";

const TARGET_P50_MS = 50;
const CALLS = 100;

export async function runAuthStatus(ctx: BenchContext): Promise<SuiteResult> {
  const started = performance.now();
  const sandbox = await createSandbox("auth-status");
  await writeFile(
    join(sandbox.configDir, ".credentials.json"),
    JSON.stringify({
      claudeAiOauth: {
        accessToken: "bench",
        refreshToken: "bench",
        expiresAt: Date.now() + 3_600_000,
        subscriptionType: "max",
      },
    }),
  );
  await writeFile(
    join(sandbox.configDir, ".claude.json"),
    JSON.stringify({ oauthAccount: { emailAddress: "bench@example.com" } }),
  );
  const agent = new BenchAgent({
    env: {
      PATH: process.env.PATH ?? "",
      HOME: sandbox.home,
      CLAUDE_CONFIG_DIR: sandbox.configDir,
      ANTHROPIC_BASE_URL: ctx.api.url,
      CLAUDE_AGENT_ACP_PREWARM: "0",
    },
    cwd: sandbox.root,
  });
  try {
    await agent.initialize();
    const samples: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      const { sentAt, receivedAt } = await agent.request("auth/status", {});
      samples.push(receivedAt - sentAt);
    }
    progress(`auth/status: ${CALLS} calls`);
    const summary = summarize(samples);
    return {
      suite: "auth",
      rows: [
        {
          figure: "Auth status",
          metric: `auth/status → response (${CALLS} calls, a Claude login on disk)`,
          unit: "ms",
          agent: summary,
          target: `p50 ≤ ${TARGET_P50_MS} ms`,
          met: summary.p50 <= TARGET_P50_MS,
        },
      ],
      notes: [],
      durationMs: performance.now() - started,
      detail: { samples },
    };
  } finally {
    await agent.stop();
    await sandbox.remove();
  }
}
