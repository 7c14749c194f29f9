import type { ClaudeTranscriptMessage, ClaudeTranscripts } from "../../claude/transcripts.js";
import { InvalidParamsError, SessionNotFoundError } from "../../errors.js";
import { conversationChain } from "./continuations.js";
import { isOneOf, spellings } from "../configuration/directories.js";

/** Whether Claude Code saved this conversation (in `cwd`'s project, or in any). */
export const savedIn =
  (transcripts: ClaudeTranscripts, cwd?: string) =>
  async (conversationId: string): Promise<boolean> =>
    (await transcripts.info(conversationId, cwd)) !== undefined;

/**
 * A saved session of `cwd`'s Claude project: its conversations, oldest first (more than
 * one after a plan handoff). A session recorded in another directory of the same project
 * (`/p-a-b` and `/p/a/b` share one) is refused unless `allowCwdChange`: opening it here
 * would replay and continue another directory's conversation.
 */
export async function savedConversations(
  transcripts: ClaudeTranscripts,
  sessionId: string,
  cwd: string,
  options: { allowCwdChange: boolean },
): Promise<string[]> {
  const info = await transcripts.info(sessionId, cwd);
  if (!info) throw new SessionNotFoundError(sessionId);
  if (!options.allowCwdChange && info.cwd && !isOneOf(info.cwd, await spellings(cwd))) {
    throw new InvalidParamsError(
      `Session ${sessionId} was recorded in ${info.cwd}, not in the cwd asked for: open it ` +
        `there, fork it to this cwd, or set _meta.claudeAgentAcp.allowCwdChange.`,
      { sessionId, cwd, recordedCwd: info.cwd },
    );
  }
  return conversationChain(sessionId, savedIn(transcripts, cwd));
}

/**
 * The conversations a title or an archive mark is saved to (a plan handoff's are one
 * session, and each gets the change). The requests name no cwd: a session open here is
 * checked as load checks it, against the cwd it is open in, so one opened in another
 * directory of its project (allowCwdChange) is changed only when the request allows it too;
 * a session not open is found by id, as a listing of every directory shows it.
 * Unknown: -32002; open with nothing saved yet: -32602.
 */
export async function conversationsToChange(
  transcripts: ClaudeTranscripts,
  sessionId: string,
  change: string,
  open: { cwd: string } | undefined,
  options: { allowCwdChange: boolean },
): Promise<string[]> {
  const saved = savedIn(transcripts);
  if (!(await saved(sessionId))) {
    if (!open) throw new SessionNotFoundError(sessionId);
    throw new InvalidParamsError(
      `The session has no saved conversation to ${change} yet: send a prompt first.`,
    );
  }
  if (open) return savedConversations(transcripts, sessionId, open.cwd, options);
  return conversationChain(sessionId, saved);
}

/** What a replay reads of saved conversations (subagent-replay.ts). */
export type ConversationReader = Pick<ClaudeTranscripts, "messages" | "subagents">;

/**
 * The transcripts, with one conversation's messages being read already: session/load reads
 * the transcript while it checks the session, since the reading is most of its wait. That
 * read is taken once; a check that fails first leaves it to be dropped unused.
 */
export function readingAhead(
  transcripts: ClaudeTranscripts,
  conversationId: string,
  cwd: string,
): ConversationReader {
  let ahead: Promise<ClaudeTranscriptMessage[]> | undefined = transcripts.messages(
    conversationId,
    cwd,
  );
  ahead.catch(() => undefined);
  return {
    messages: (id, dir) => {
      const read = id === conversationId && dir === cwd ? ahead : undefined;
      if (!read) return transcripts.messages(id, dir);
      ahead = undefined;
      return read;
    },
    subagents: (id, dir) => transcripts.subagents(id, dir),
  };
}
