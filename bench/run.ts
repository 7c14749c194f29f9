// npm run bench [-- --quick] [-- --memory-live] [-- --only turn,session,cold,permission,streaming,memory,history,auth,serve]
// Runs the suites, prints ONE table on stdout (progress on stderr) and writes it as JSON
// to bench/results/latest.json. Needs `npm run build` first: the agent is dist/index.js.
import { execFileSync } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { startApiProcess } from "./support/api.js";
import { installCleanup, killAll } from "./support/cleanup.js";
import type { BenchContext } from "./support/context.js";
import { REPO_ROOT, requireBuiltAgent } from "./support/paths.js";
import { progress } from "./support/progress.js";
import { formatTable, type Report, type SuiteResult } from "./support/report.js";
import { runAuthStatus } from "./auth-status.js";
import { runColdPath } from "./cold-path.js";
import { runHistory } from "./history.js";
import { runMemory } from "./memory.js";
import { runPermissionRoundTrip } from "./permission-round-trip.js";
import { runServe } from "./serve.js";
import { runSessionStart } from "./session-start.js";
import { runStreaming } from "./streaming.js";
import { runTurnOverhead } from "./turn-overhead.js";

const SUITES: Record<string, (ctx: BenchContext) => Promise<SuiteResult>> = {
  turn: runTurnOverhead,
  session: runSessionStart,
  cold: runColdPath,
  permission: runPermissionRoundTrip,
  streaming: runStreaming,
  memory: runMemory,
  history: runHistory,
  auth: runAuthStatus,
  serve: runServe,
};

interface Args {
  quick: boolean;
  memoryLive: boolean;
  only: string[];
}

class UsageError extends Error {}

function parseArgs(argv: readonly string[]): Args {
  let quick = false;
  let memoryLive = false;
  let only = Object.keys(SUITES);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--quick") quick = true;
    else if (arg === "--memory-live") memoryLive = true;
    else if (arg === "--only" || arg.startsWith("--only=")) {
      const value = arg === "--only" ? argv[++i] : arg.slice("--only=".length);
      only = (value ?? "")
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
      const unknown = only.filter((s) => !(s in SUITES));
      if (unknown.length || only.length === 0) {
        throw new UsageError(`--only takes some of ${Object.keys(SUITES).join(",")}`);
      }
    } else if (arg === "--help" || arg === "-h") {
      process.stdout.write(
        `npm run bench [-- --quick] [-- --memory-live] [-- --only ${Object.keys(SUITES).join(",")}]\n`,
      );
      process.exit(0);
    } else {
      throw new UsageError(`unknown argument ${arg} (see --help)`);
    }
  }
  return { quick, memoryLive, only };
}

function git(args: string[]): string {
  try {
    return execFileSync("git", args, { cwd: REPO_ROOT, encoding: "utf8" }).trim();
  } catch {
    return "?";
  }
}

async function machine(): Promise<Record<string, string | number>> {
  const sdk = JSON.parse(
    await readFile(
      join(REPO_ROOT, "node_modules/@anthropic-ai/claude-agent-sdk/package.json"),
      "utf8",
    ),
  ) as { version: string; claudeCodeVersion?: string };
  const dirty = git(["status", "--porcelain", "--untracked-files=no"]) !== "";
  return {
    node: process.version,
    cpu: `${cpus()[0]?.model ?? "?"} × ${cpus().length}`,
    memory: `${Math.round(totalmem() / 2 ** 30)} GB`,
    "agent SDK": sdk.version,
    ...(sdk.claudeCodeVersion ? { "Claude Code": sdk.claudeCodeVersion } : {}),
    commit: `${git(["rev-parse", "--short", "HEAD"])}${dirty ? " + uncommitted changes" : ""}`,
  };
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  requireBuiltAgent();
  installCleanup();
  const startedAt = new Date().toISOString();
  const t0 = performance.now();
  progress(`suites: ${options.only.join(", ")}${options.quick ? " (quick)" : ""}`);
  const api = await startApiProcess();
  const suites: SuiteResult[] = [];
  try {
    for (const name of options.only) {
      progress(`${name}: start`);
      const result = await SUITES[name]!({
        api,
        quick: options.quick,
        memoryLive: options.memoryLive,
      });
      progress(`${name}: done in ${(result.durationMs / 1000).toFixed(1)} s`);
      suites.push(result);
    }
  } finally {
    await api.stop();
  }
  const report: Report = {
    startedAt,
    durationMs: performance.now() - t0,
    machine: await machine(),
    options,
    suites,
  };
  const dir = join(REPO_ROOT, "bench", "results");
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "latest.json"), `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`${formatTable(report)}\n`);
  progress(`wrote bench/results/latest.json`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    const detail =
      error instanceof UsageError ? error.message : error instanceof Error ? error.stack : error;
    process.stderr.write(`bench failed: ${String(detail)}\n`);
    killAll();
    process.exit(1);
  },
);
