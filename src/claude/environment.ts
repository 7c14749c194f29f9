import { withValidThinkingBudget } from "./thinking.js";

/**
 * The environment of a Claude Code process: the agent's own, plus Claude Code's task
 * tools (off by default in SDK sessions), whose progress clients show as a plan. A
 * value the user set wins; a thinking budget that is no number is left out (thinking.ts).
 */
export function claudeEnvironment(env: NodeJS.ProcessEnv): Record<string, string | undefined> {
  return { CLAUDE_CODE_ENABLE_TODO_TOOLS: "1", ...withValidThinkingBudget(env) };
}

/** Identifies this adapter in Claude Code's User-Agent. */
const CLIENT_APP = "claude-agent-acp";

/**
 * The environment the SDK is given for a Claude Code process: `env`, who asks, and that
 * every start-up failure Claude Code knows the cause of ends in a result that names it
 * (`startup_failure_reason`), not in text on its stderr.
 */
export function sdkEnvironment(
  env: Record<string, string | undefined>,
): Record<string, string | undefined> {
  return {
    ...env,
    CLAUDE_AGENT_SDK_CLIENT_APP: CLIENT_APP,
    CLAUDE_CODE_STARTUP_FAILURE_RESULTS: "1",
  };
}
