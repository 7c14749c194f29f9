import type { ContentBlock, PromptResponse } from "@agentclientprotocol/sdk";
import { forkPoint, isPrompt, shownMessageCount } from "../claude/cuts/fork-point.js";
import { applyRewind, cutOf, type RewindMarks } from "../claude/cuts/rewind-marks.js";
import type { FilesRewound } from "../claude/query.js";
import type { ClaudeTranscriptMessage, ClaudeTranscripts } from "../claude/transcripts.js";
import { InvalidParamsError } from "../errors.js";
import { log } from "../logger.js";
import { cleanSingleLine } from "../util/text.js";
import type { SessionRegistry } from "../session/registry.js";
import type { Session } from "../session/session.js";

/** Whether a rewind puts the files back too, or only says what that would change. */
export type FilesChoice = "restore" | "dryRun" | undefined;

/** What a rewind did to the files (or, in a dry run, would do). */
export interface FilesReport {
  dryRun: boolean;
  filesChanged: string[];
  insertions: number;
  deletions: number;
  /** Files not touched: a link, or another process, changed them (never in a dry run). */
  skippedLinks: number;
}

/** What `session/rewind` answers (the RFD's shape), and the files' report when asked. */
export interface RewindResult {
  remainingMessageCount: number;
  lastMessageId: string;
  files?: FilesReport;
}

/** A prompt of an open session, as the core runs it (agent-core.ts `prompt`). */
type RunPrompt = (sessionId: string, prompt: ContentBlock[]) => Promise<PromptResponse>;

/** Where a rewind cuts a conversation, and the entry its transcript ended with then. */
interface Cut {
  conversation: string;
  upTo: string;
  end: string | undefined;
}

interface Messages {
  /** As Claude Code saved them. */
  raw: ClaudeTranscriptMessage[];
  /** As the client was shown them: earlier rewinds applied. */
  shown: ClaudeTranscriptMessage[];
}

/**
 * The session-rewind RFD: `session/rewind` keeps an open session's conversation up to and
 * including a message it showed and drops the rest; `session/edit_prompt` rewinds to just
 * before a prompt and runs that turn again with new content. A running turn is cancelled
 * first. Claude Code truncates the conversation when its next process resumes it at the
 * entry kept last (resumeSessionAt); the cut is kept (rewind-marks.ts) until its transcript
 * shows it, so a load meanwhile replays, and a fork copies, only what was kept. Asked, the
 * files Claude changed after the cut go back too (its file checkpoints), each one listed.
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

  async rewind(sessionId: string, toMessageId: string, files: FilesChoice): Promise<RewindResult> {
    const session = this.sessions.require(sessionId);
    let result: RewindResult | undefined;
    let restoreAt: string | undefined;
    let cut: Cut | undefined;
    await session.rewind({
      dryRun: files === "dryRun",
      cut: async (conversation) => {
        const messages = await this.messages(session, conversation);
        const { shown } = messages;
        const upTo = requireCut(messages, toMessageId);
        const kept = shown.slice(0, shown.findIndex((m) => m.uuid === upTo) + 1);
        if (files) restoreAt = turnAfter(shown, kept.length);
        result = { remainingMessageCount: shownMessageCount(kept), lastMessageId: toMessageId };
        cut = { conversation, upTo, end: messages.raw.at(-1)?.uuid };
        return { upTo, ...oneTurnDropped(messages.raw, upTo) };
      },
      ...(files && {
        files: async (query) => {
          result!.files = await filesBack(query, restoreAt, files === "dryRun");
        },
      }),
    });
    if (files !== "dryRun") await this.keep(session, cut!);
    return result!;
  }

  /** The prompt `messageId` names, run again with `content` in place of what it said. */
  async editPrompt(
    sessionId: string,
    messageId: string,
    content: ContentBlock[],
    files: Exclude<FilesChoice, "dryRun">,
    run: RunPrompt,
  ): Promise<{ answer: PromptResponse; files?: FilesReport }> {
    const session = this.sessions.require(sessionId);
    let report: FilesReport | undefined;
    let cut: Cut | undefined;
    await session.rewind({
      cut: async (conversation) => {
        const messages = await this.messages(session, conversation);
        const upTo = requireBefore(messages, messageId);
        cut = { conversation, upTo, end: messages.raw.at(-1)?.uuid };
        return { upTo, ...oneTurnDropped(messages.raw, upTo) };
      },
      ...(files && {
        files: async (query) => {
          report = await filesBack(query, messageId, false);
        },
      }),
    });
    await this.keep(session, cut!);
    const answer = await run(sessionId, content);
    return report ? { answer, files: report } : { answer };
  }

  private async messages(session: Session, conversation: string): Promise<Messages> {
    const raw = await this.transcripts.messages(conversation, session.cwd);
    return { raw, shown: applyRewind(raw, await this.marks.get(conversation)) };
  }

  /**
   * Keeps the cut until the transcript shows it (rewind-marks.ts), as the last call of `cut`
   * found it: once the turns had stopped. Nothing writes the transcript after that until a
   * prompt (Claude Code's next process writes nothing as it resumes).
   */
  private async keep(session: Session, { conversation, upTo, end }: Cut): Promise<void> {
    if (end === undefined || end === upTo) await this.marks.drop(conversation);
    else await this.marks.set(conversation, { upTo, end });
    log.info(`session ${session.id}: rewound; the conversation goes on after ${upTo}`);
  }
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

/**
 * The prompt of the turn a cut drops, when it drops exactly one whole turn: Claude Code then
 * checks that nothing else is dropped with it (a message it took in that the client did not
 * see), and refuses the resume otherwise. Several turns cannot be checked so.
 */
function oneTurnDropped(
  raw: readonly ClaudeTranscriptMessage[],
  upTo: string,
): { dropsTurn?: string } {
  const dropped = raw.slice(raw.findIndex((m) => m.uuid === upTo) + 1);
  const first = dropped[0];
  if (!first || !isPrompt(first) || dropped.filter(isPrompt).length !== 1) return {};
  return { dropsTurn: first.uuid };
}

/**
 * The prompt whose sending the files go back to: the first one dropped. Claude Code keeps
 * a checkpoint per prompt, so files go back only to a turn's end; undefined when nothing
 * is dropped. A cut inside a turn is refused (-32602).
 */
function turnAfter(shown: readonly ClaudeTranscriptMessage[], kept: number): string | undefined {
  const next = shown[kept];
  if (!next) return undefined;
  if (!isPrompt(next)) {
    throw new InvalidParamsError(
      "Files go back only to the end of a turn: rewind to the last message of a turn, or without rewindFiles.",
    );
  }
  return next.uuid;
}

/** The files put back as they were when `prompt` was sent (or counted, `dryRun`). */
async function filesBack(
  query: { rewindFiles(id: string, dryRun: boolean): Promise<FilesRewound> },
  prompt: string | undefined,
  dryRun: boolean,
): Promise<FilesReport> {
  const none = { dryRun, filesChanged: [], insertions: 0, deletions: 0, skippedLinks: 0 };
  if (!prompt) return none;
  const done = await query.rewindFiles(prompt, dryRun);
  // Claude Code's words and the paths it names are cleaned, as all its text is for a client.
  if (!done.canRewind) {
    throw new InvalidParamsError(
      `Claude Code cannot put the files back: ${cleanSingleLine(done.error ?? "no checkpoint of them")}.`,
    );
  }
  return {
    dryRun,
    filesChanged: (done.filesChanged ?? []).map(cleanSingleLine),
    insertions: done.insertions ?? 0,
    deletions: done.deletions ?? 0,
    skippedLinks: done.skippedLinks ?? 0,
  };
}
