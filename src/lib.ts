/** Library entry: embed the agent in another process or test it in process. */
export { createAgent, type AgentDependencies } from "./agent.js";
export { createV2Agent } from "./acp/v2/app.js";
export { agentConnector, protocolPin, PROTOCOL_ENV, type ProtocolPin } from "./protocols.js";
export { resolveClaudeExecutable } from "./claude/executable.js";
export { ClaudeExecutableNotFoundError } from "./errors.js";
export { startColdQuery } from "./claude/sdk-query.js";
export { sdkQueryStarter, SparePool } from "./claude/spare-pool.js";
export { sdkTranscripts } from "./claude/transcripts.js";
export type { ClaudeQuery, ClaudeQueryOptions, StartClaudeQuery } from "./claude/query.js";
