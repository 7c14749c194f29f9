import { appendFile, readdir, readFile, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type {
  SDKMessageOrigin,
  SDKSessionInfo,
  SessionMessage,
} from "@anthropic-ai/claude-agent-sdk";
import { z } from "zod";
import { claudeSdk } from "./sdk-loader.js";
import { SessionIndex, type SavedSession } from "./session-index.js";
import { entriesStore, readTranscriptEntries } from "./transcript-entries.js";
import type { ClaudeSessionRow } from "./transcript-rows.js";
import { watchTranscripts, type TranscriptWatch } from "./transcript-watch.js";

export type { ClaudeSessionRow } from "./transcript-rows.js";
export type { TranscriptWatch } from "./transcript-watch.js";
export type { SavedSession };

export type ClaudeSessionInfo = SDKSessionInfo;
/**
 * A saved message. The SDK's reader also passes on, untyped, who wrote a user message
 * (`origin`: the user, or Claude Code itself, e.g. a background task's notification).
 */
export type ClaudeTranscriptMessage = SessionMessage & { origin?: SDKMessageOrigin };

/** One subagent's saved conversation, kept beside its session's transcript. */
export interface ClaudeSubagentTranscript {
  /** Claude Code's agent id: the task id of its runs, what `SendMessage` names. */
  agentId: string;
  /** Oldest first; each message's `parent_tool_use_id` names the call that launched it. */
  messages: ClaudeTranscriptMessage[];
  /** The git worktree it worked in (launched with `isolation: "worktree"`). */
  worktree?: string;
}

/**
 * Claude Code's saved conversations (its JSONL transcripts under the config dir), the
 * source of session/load, list, fork and delete. The SDK adapter is the production
 * implementation; in-process tests pass a fake.
 */
export interface ClaudeTranscripts {
  /**
   * The saved conversations of these directories (every one's when none), newest first: a
   * listing's order, from file metadata alone. A project directory may hold sessions of
   * other cwds too (see each row's `cwd`).
   */
  saved(dirs?: readonly string[]): Promise<SavedSession[]>;
  /**
   * Each session's row as its transcript is now: its `lastModified` moved when it was written
   * to since, undefined when it is gone or a listing leaves it out.
   */
  rows(sessions: readonly SavedSession[]): Promise<(ClaudeSessionRow | undefined)[]>;
  /**
   * The saved conversations of these ids, wherever they are kept (in the projects of `dirs`
   * only, when given), in the order asked.
   */
  find(sessionIds: readonly string[], dirs?: readonly string[]): Promise<SavedSession[]>;
  /**
   * Calls `changed` with the ids of the saved conversations of these directories that are
   * written, made or removed, until the watch is closed. Nothing runs while nothing changes.
   */
  watch(dirs: readonly string[], changed: (sessionIds: readonly string[]) => void): TranscriptWatch;
  info(sessionId: string, dir?: string): Promise<ClaudeSessionInfo | undefined>;
  /** The conversation chain, oldest first. */
  messages(sessionId: string, dir?: string): Promise<ClaudeTranscriptMessage[]>;
  /**
   * Copies a conversation into a new session; returns its id. With `cwd`, the copy is
   * recorded as working there (it lists under `cwd` and resumes there); with `upTo` (a
   * saved entry's id, fork-point.ts), only the conversation up to that entry.
   */
  fork(sessionId: string, dir?: string, cwd?: string, upTo?: string): Promise<string>;
  delete(sessionId: string, dir?: string): Promise<void>;
  /** Titles a conversation as Claude Code's `/rename` does (a custom-title record). */
  rename(sessionId: string, title: string): Promise<void>;
  /**
   * Archives or unarchives a conversation with Claude Code's own mark beside its
   * transcript (see archive-marks.ts): its listing, and Claude Code's, then show it so.
   */
  archive(sessionId: string, archived: boolean): Promise<void>;
  /** The subagents a conversation launched (none when it has no transcript). */
  subagents(sessionId: string, dir?: string): Promise<ClaudeSubagentTranscript[]>;
  /** One subagent of a conversation, if it has a transcript. */
  subagent(
    sessionId: string,
    agentId: string,
    dir?: string,
  ): Promise<ClaudeSubagentTranscript | undefined>;
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

/** Claude Code's agent ids name files: nothing else is looked up. */
const AGENT_ID = /^[\w-]{1,128}$/;

/** What the agent's metadata file beside its transcript says of it; the rest is ignored. */
const subagentMetadata = z.object({ worktreePath: z.string().min(1).optional().catch(undefined) });

/**
 * The worktree a subagent worked in, from `<session>/subagents/agent-<id>.meta.json` beside
 * the session's transcript (Claude Code records it there; the SDK does not read it).
 */
async function subagentWorktree(
  transcript: string | undefined,
  sessionId: string,
  agentId: string,
): Promise<string | undefined> {
  if (!transcript || !AGENT_ID.test(agentId)) return undefined;
  const meta = join(dirname(transcript), sessionId, "subagents", `agent-${agentId}.meta.json`);
  try {
    const parsed = subagentMetadata.safeParse(JSON.parse(await readFile(meta, "utf8")));
    return parsed.success ? parsed.data.worktreePath : undefined;
  } catch {
    return undefined;
  }
}

async function sdkSubagent(
  sessionId: string,
  agentId: string,
  dir: string | undefined,
  transcript: string | undefined,
): Promise<ClaudeSubagentTranscript | undefined> {
  const sdk = await claudeSdk();
  const messages = await sdk.getSubagentMessages(sessionId, agentId, dir ? { dir } : {});
  if (!messages.length) return undefined;
  const worktree = await subagentWorktree(transcript, sessionId, agentId);
  return { agentId, messages, ...(worktree ? { worktree } : {}) };
}

const index = new SessionIndex(
  () => join(configDir(), "projects"),
  async (sessionId) => (await claudeSdk()).getSessionInfo(sessionId),
);

/** The SDK reads transcripts from CLAUDE_CONFIG_DIR of this process's environment. */
export const sdkTranscripts: ClaudeTranscripts = {
  saved: (dirs) => index.sessions(dirs),
  rows: (sessions) => index.rows(sessions),
  find: (sessionIds, dirs) => index.find(sessionIds, dirs),
  watch: (dirs, changed) => watchTranscripts(join(configDir(), "projects"), dirs, changed),
  info: async (sessionId, dir) => (await claudeSdk()).getSessionInfo(sessionId, dir ? { dir } : {}),
  messages: async (sessionId, dir) => {
    // Read here as it streams in (transcript-entries.ts); the SDK takes the chain from it.
    const file = dir ? await index.transcript(sessionId, dir) : undefined;
    const entries = file && (await readTranscriptEntries(file));
    const sdk = await claudeSdk();
    return sdk.getSessionMessages(
      sessionId,
      entries ? { dir, sessionStore: entriesStore(entries) } : dir ? { dir } : {},
    );
  },
  fork: async (sessionId, dir, cwd, upTo) => {
    const sdk = await claudeSdk();
    const options = { ...(dir ? { dir } : {}), ...(upTo ? { upToMessageId: upTo } : {}) };
    const forked = (await sdk.forkSession(sessionId, options)).sessionId;
    const recorded = (await sdk.getSessionInfo(forked, dir ? { dir } : {}))?.cwd;
    if (cwd && (!recorded || resolve(recorded) !== resolve(cwd))) await relocate(forked, cwd);
    return forked;
  },
  delete: async (sessionId, dir) =>
    (await claudeSdk()).deleteSession(sessionId, dir ? { dir } : {}),
  rename: async (sessionId, title) => (await claudeSdk()).renameSession(sessionId, title),
  archive: async (sessionId, archived) => {
    const sdk = await claudeSdk();
    await (archived ? sdk.archiveSession(sessionId) : sdk.unarchiveSession(sessionId));
  },
  subagents: async (sessionId, dir) => {
    const ids = await (await claudeSdk()).listSubagents(sessionId, dir ? { dir } : {});
    if (!ids.length) return [];
    const transcript = await transcriptFile(sessionId);
    const agents = await Promise.all(ids.map((id) => sdkSubagent(sessionId, id, dir, transcript)));
    return agents.filter((agent) => agent !== undefined);
  },
  subagent: async (sessionId, agentId, dir) =>
    sdkSubagent(sessionId, agentId, dir, await transcriptFile(sessionId)),
};
