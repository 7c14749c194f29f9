import {
  deleteSession,
  forkSession,
  getSessionInfo,
  getSessionMessages,
  listSessions,
  type SDKSessionInfo,
  type SessionMessage,
} from "@anthropic-ai/claude-agent-sdk";

export type ClaudeSessionInfo = SDKSessionInfo;
export type ClaudeTranscriptMessage = SessionMessage;

/**
 * Claude Code's saved conversations (its JSONL transcripts under the config dir), the
 * source of session/load, list, fork and delete. The SDK adapter is the production
 * implementation; in-process tests pass a fake.
 */
export interface ClaudeTranscripts {
  /** Sessions of one project directory (or all), newest first. */
  list(options: { dir?: string; limit: number; offset: number }): Promise<ClaudeSessionInfo[]>;
  info(sessionId: string, dir?: string): Promise<ClaudeSessionInfo | undefined>;
  /** The conversation chain, oldest first. */
  messages(sessionId: string, dir?: string): Promise<ClaudeTranscriptMessage[]>;
  /** Copies a conversation into a new session; returns its id. */
  fork(sessionId: string, dir?: string): Promise<string>;
  delete(sessionId: string, dir?: string): Promise<void>;
}

/** The SDK reads transcripts from CLAUDE_CONFIG_DIR of this process's environment. */
export const sdkTranscripts: ClaudeTranscripts = {
  list: ({ dir, limit, offset }) =>
    listSessions({ ...(dir ? { dir } : {}), limit, offset, includeProgrammatic: true }),
  info: (sessionId, dir) => getSessionInfo(sessionId, dir ? { dir } : {}),
  messages: (sessionId, dir) => getSessionMessages(sessionId, dir ? { dir } : {}),
  fork: async (sessionId, dir) => (await forkSession(sessionId, dir ? { dir } : {})).sessionId,
  delete: (sessionId, dir) => deleteSession(sessionId, dir ? { dir } : {}),
};
