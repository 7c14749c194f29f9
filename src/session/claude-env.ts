/** The tool Claude uses to ask the user questions. */
export const QUESTION_TOOL = "AskUserQuestion";

/**
 * The environment of a Claude Code process: the agent's own, plus Claude Code's task
 * tools (off by default in SDK sessions), whose progress clients show as a plan. A
 * value the user set wins.
 */
export function claudeEnvironment(env: NodeJS.ProcessEnv): Record<string, string | undefined> {
  return { CLAUDE_CODE_ENABLE_TODO_TOOLS: "1", ...env };
}
