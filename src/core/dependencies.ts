// What the core is given: by the entry (the Claude Code side, real or fake) and by the
// protocol adapter (how a session talks to its client).
import type { SessionClient } from "../acp/session-client.js";
import type { AgentClientCapabilities } from "../acp/unstable-capabilities.js";
import type { ClaudeQueryOptions, StartClaudeQuery } from "../claude/query.js";
import type { ClaudeTranscripts } from "../claude/transcripts.js";

export interface AgentDependencies {
  /** Starts one Claude Code process; tests pass a scripted fake. */
  startQuery: StartClaudeQuery;
  /** Claude Code's saved conversations; tests pass a fake. */
  transcripts: ClaudeTranscripts;
  /** Finds the Claude Code binary, or throws saying what to install. */
  resolveExecutable: () => string;
  /** Environment of the Claude Code processes. */
  env: NodeJS.ProcessEnv;
  /** Prepares a Claude Code process for the next session/new (a prewarmed spare). */
  warmUp?: (template: ClaudeQueryOptions) => void;
  /** The id of the next new session, where one was chosen ahead (default: a random one). */
  newSessionId?: () => string | undefined;
  /** The client is known (initialize): what every session needs may load while it is idle. */
  preload?: () => void;
}

/** How a session talks to its client: the protocol adapter builds its sender. */
export type SessionClientFactory = (
  sessionId: string,
  capabilities: AgentClientCapabilities,
) => SessionClient;
