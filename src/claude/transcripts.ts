import { appendFile, readdir, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { SDKSessionInfo, SessionMessage } from "@anthropic-ai/claude-agent-sdk";
import { claudeSdk } from "./sdk-loader.js";

export type ClaudeSessionInfo = SDKSessionInfo;
export type ClaudeTranscriptMessage = SessionMessage;

/**
 * Claude Code's saved conversations (its JSONL transcripts under the config dir), the
 * source of session/load, list, fork and delete. The SDK adapter is the production
 * implementation; in-process tests pass a fake.
 */
export interface ClaudeTranscripts {
  /**
   * Sessions of one project directory (or all), newest first. A project directory may
   * hold sessions of other cwds (see `info.cwd`); `includeWorktrees` adds the project
   * directories of the repository's other git worktrees.
   */
  list(options: {
    dir?: string;
    limit: number;
    offset: number;
    includeWorktrees?: boolean;
  }): Promise<ClaudeSessionInfo[]>;
  info(sessionId: string, dir?: string): Promise<ClaudeSessionInfo | undefined>;
  /** The conversation chain, oldest first. */
  messages(sessionId: string, dir?: string): Promise<ClaudeTranscriptMessage[]>;
  /**
   * Copies a conversation into a new session; returns its id. With `cwd`, the copy is
   * recorded as working there (it lists under `cwd` and resumes there).
   */
  fork(sessionId: string, dir?: string, cwd?: string): Promise<string>;
  delete(sessionId: string, dir?: string): Promise<void>;
}

/** Claude Code's config dir, as the SDK finds it. */
function configDir(): string {
  return process.env.CLAUDE_CONFIG_DIR?.trim() || join(homedir(), ".claude");
}

/** The transcript file of a session: `<config>/projects/<project>/<id>.jsonl`. */
async function transcriptFile(sessionId: string): Promise<string | undefined> {
  const projects = join(configDir(), "projects");
  for (const project of await readdir(projects).catch((): string[] => [])) {
    const file = join(projects, project, `${sessionId}.jsonl`);
    if (
      await stat(file).then(
        (s) => s.isFile(),
        () => false,
      )
    )
      return file;
  }
  return undefined;
}

/**
 * Records that a session now works in `cwd`, with the stamp Claude Code itself appends
 * when a session's transcript moves to another directory: the SDK's listing and Claude
 * Code's resume read the cwd from it.
 */
async function relocate(sessionId: string, cwd: string): Promise<void> {
  const file = await transcriptFile(sessionId);
  if (!file) throw new Error(`no transcript of session ${sessionId}`);
  const stamp = { type: "relocated", sessionId, relocatedCwd: cwd };
  await appendFile(file, `${JSON.stringify(stamp)}\n`);
}

/** The SDK reads transcripts from CLAUDE_CONFIG_DIR of this process's environment. */
export const sdkTranscripts: ClaudeTranscripts = {
  list: async ({ dir, limit, offset, includeWorktrees = false }) =>
    (await claudeSdk()).listSessions({
      ...(dir ? { dir, includeWorktrees } : {}),
      limit,
      offset,
      includeProgrammatic: true,
    }),
  info: async (sessionId, dir) => (await claudeSdk()).getSessionInfo(sessionId, dir ? { dir } : {}),
  messages: async (sessionId, dir) =>
    (await claudeSdk()).getSessionMessages(sessionId, dir ? { dir } : {}),
  fork: async (sessionId, dir, cwd) => {
    const sdk = await claudeSdk();
    const forked = (await sdk.forkSession(sessionId, dir ? { dir } : {})).sessionId;
    const recorded = (await sdk.getSessionInfo(forked, dir ? { dir } : {}))?.cwd;
    if (cwd && (!recorded || resolve(recorded) !== resolve(cwd))) await relocate(forked, cwd);
    return forked;
  },
  delete: async (sessionId, dir) =>
    (await claudeSdk()).deleteSession(sessionId, dir ? { dir } : {}),
};
