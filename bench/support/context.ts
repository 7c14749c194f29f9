import type { ApiProcess } from "./api.js";

/** What every suite gets from run.ts. */
export interface BenchContext {
  /** The scripted Anthropic API (its own process), shared by all suites. */
  api: ApiProcess;
  /** Fewer repetitions: a smoke run, not figures to publish. */
  quick: boolean;
  /** Memory: 50 sessions with 50 live Claude Code processes instead of idle close. */
  memoryLive: boolean;
}
