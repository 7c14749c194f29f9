/** Library entry: embed the agent in another process or test it in process. */
export { createAgent, type AgentDependencies } from "./agent.js";
export { resolveClaudeExecutable, ClaudeExecutableNotFoundError } from "./claude/executable.js";
export { startSdkQuery } from "./claude/sdk-query.js";
export type { ClaudeQuery, ClaudeQueryOptions, StartClaudeQuery } from "./claude/query.js";
