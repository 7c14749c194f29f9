import type { ContentBlock, PromptResponse } from "@agentclientprotocol/sdk";
import { forkPoint, isPrompt, shownMessageCount } from "../claude/cuts/fork-point.js";
import { applyRewind, cutOf, type RewindMarks } from "../claude/cuts/rewind-marks.js";
import type { ClaudeTranscriptMessage, ClaudeTranscripts } from "../claude/transcripts.js";
import { InvalidParamsError } from "../errors.js";
import { log } from "../logger.js";
import type { SessionRegistry } from "../session/registry.js";
import type { Session } from "../session/session.js";

/** What `session/rewind` answers (the RFD's shape). */
export interface RewindResult {
  remainingMessageCount: number;
  lastMessageId: string;
}

/** A prompt of an open session, as the core runs it (agent-core.ts `prompt`). */
type RunPrompt = (sessionId: string, prompt: ContentBlock[]) => Promise<PromptResponse>;

/**
 * The session-rewind RFD: `session/rewind` keeps an open session's conversation up to and
 * including a message it showed and drops the rest; `session/edit_prompt` rewinds to just
 * before a prompt and runs that turn again with new content. A running turn is cancelled
 * first. Claude Code truncates the conversation when its next process resumes it at the
 * entry kept last (resumeSessionAt); the cut is kept (rewind-marks.ts) until its transcript
 * shows it, so a load meanwhile replays, and a fork copies, only what was kept.
 */
export class SessionRewinds {
  constructor(
    /** The transcripts as Claude Code wrote them, without any rewind applied. */
    private readonly transcripts: ClaudeTranscripts,
    private readonly marks: RewindMarks,
    private readonly sessions: SessionRegistry,
  ) {}

  /** Where a conversation resumes that was rewound and not continued since (opening.ts). */
  resumeAt(conversation: string, cwd: string): Promise<string | undefined> {
    return cutOf(this.transcripts, this.marks, conversation, cwd);
  }

  async rewind(sessionId: string, toMessageId: string): Promise<RewindResult> {
    const session = this.sessions.require(sessionId);
    let result: RewindResult | undefined;
    await session.rewind(async (conversation, final) => {
      const messages = await this.messages(session, conversation);
      const upTo = requireCut(messages, toMessageId);
      if (!final) return upTo;
      const { shown } = messages;
      const kept = shown.slice(0, shown.findIndex((m) => m.uuid === upTo) + 1);
      await this.cut(session, conversation, messages, upTo);
      result = { remainingMessageCount: shownMessageCount(kept), lastMessageId: toMessageId };
      return upTo;
    });
    return result!;
  }

  /** The prompt `messageId` names, run again with `content` in place of what it said. */
  async editPrompt(
    sessionId: string,
    messageId: string,
    content: ContentBlock[],
    run: RunPrompt,
  ): Promise<PromptResponse> {
    const session = this.sessions.require(sessionId);
    await session.rewind(async (conversation, final) => {
      const messages = await this.messages(session, conversation);
      const upTo = requireBefore(messages, messageId);
      if (final) await this.cut(session, conversation, messages, upTo);
      return upTo;
    });
    return run(sessionId, content);
  }

  /** The conversation's messages as saved, and as the client was shown them (rewinds applied). */
  private async messages(session: Session, conversation: string): Promise<Messages> {
    const raw = await this.transcripts.messages(conversation, session.cwd);
    return { raw, shown: applyRewind(raw, await this.marks.get(conversation)) };
  }

  /** Keeps the cut until the transcript shows it (rewind-marks.ts). */
  private async cut(
    session: Session,
    conversation: string,
    { raw }: Messages,
    upTo: string,
  ): Promise<void> {
    const end = raw.at(-1)?.uuid;
    if (end === undefined || end === upTo) await this.marks.drop(conversation);
    else await this.marks.set(conversation, { upTo, end });
    log.info(`session ${session.id}: rewound; the conversation goes on after ${upTo}`);
  }
}

interface Messages {
  raw: ClaudeTranscriptMessage[];
  shown: ClaudeTranscriptMessage[];
}

/** The entry a rewind to `messageId` keeps last; -32602 for a message the session has not. */
function requireCut({ shown }: Messages, messageId: string): string {
  const upTo = forkPoint(shown, messageId);
  if (upTo === undefined) {
    throw new InvalidParamsError("The session has no message with this messageId.", {
      messageId,
    });
  }
  return upTo;
}

/**
 * The entry before the prompt `messageId` names, which an edit keeps last; -32602 for an id
 * that names no prompt, and for the first prompt (nothing before it to resume at).
 */
function requireBefore({ shown }: Messages, messageId: string): string {
  const at = shown.findIndex((m) => m.uuid === messageId);
  if (at < 0 || !isPrompt(shown[at]!)) {
    throw new InvalidParamsError("The session has no prompt with this messageId.", {
      messageId,
    });
  }
  if (at === 0) {
    throw new InvalidParamsError(
      "The first prompt of a conversation cannot be edited: start a new session with it.",
      { messageId },
    );
  }
  return shown[at - 1]!.uuid;
}
