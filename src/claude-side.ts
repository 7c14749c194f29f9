// The real Claude side of the bin's agent, for stdio and for serve: the same for every
// connection a server takes.
import { EarlyStarts } from "./claude/early-start.js";
import { resolveClaudeExecutable } from "./claude/executable.js";
import type { LaunchStart } from "./claude/launch-start.js";
import { preloadClaudeSdk } from "./claude/sdk-loader.js";
import { earlyStartsEnabled, spareWanted, startsFile } from "./claude/start-plan.js";
import { sdkQueryStarter, SparePool } from "./claude/spare-pool.js";
import { sdkTranscripts } from "./claude/transcripts.js";
import type { AgentDependencies } from "./core/dependencies.js";

export interface ClaudeSide {
  deps: AgentDependencies;
  /** The agent is done: the spare and the launch start go. */
  end(): void;
}

/**
 * The agent's dependencies on Claude Code, given the Claude Code the bin started at its
 * launch for the first new session (launch-start.ts), if it did.
 */
export function claudeSide(launched?: LaunchStart): ClaudeSide {
  // session/new answers before Claude Code is ready, so a prewarmed spare only saves a
  // prompt sent at once the wait for its process, at the cost of one more process held:
  // off unless CLAUDE_AGENT_ACP_PREWARM=1.
  const prewarm = spareWanted(process.env);
  const spares = new SparePool(prewarm);
  // Starting Claude Code while the SDK loads, from how it was started last time (off: 0).
  const earlyStarts = earlyStartsEnabled(process.env)
    ? new EarlyStarts(startsFile(process.env), launched)
    : undefined;
  return {
    deps: {
      startQuery: sdkQueryStarter(spares, earlyStarts),
      ...(prewarm ? { warmUp: (template) => spares.warm(template) } : {}),
      ...(launched ? { newSessionId: () => launched.nextSessionId() } : {}),
      transcripts: sdkTranscripts,
      preload: () => preloadClaudeSdk(),
      resolveExecutable: () => resolveClaudeExecutable(process.env),
      // A snapshot: the Claude SDK writes to process.env later, and every session (and the
      // spare) must see the same environment.
      env: { ...process.env },
    },
    end: () => {
      spares.close();
      launched?.discard();
    },
  };
}
