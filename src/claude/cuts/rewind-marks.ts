// A rewind's cut of a conversation, kept until Claude Code's transcript shows it. Claude Code
// truncates a conversation by resuming it at an entry (resumeSessionAt) and appends the next
// message after that entry; until then its transcript still ends where it ended, and a load
// would replay what was dropped. So the agent keeps the cut: the entry kept last, and the
// entry the transcript ended with then. Once the transcript ends elsewhere, the cut is in it.
import { rm } from "node:fs/promises";
import { z } from "zod";
import { log } from "../../logger.js";
import { readCacheFile } from "../../util/cache-file.js";
import { agentStatePath, writeWhole } from "../../util/whole-file.js";
import type { ClaudeTranscriptMessage, ClaudeTranscripts } from "../transcripts.js";

export interface RewindMark {
  /** The entry kept last. */
  upTo: string;
  /** The entry the transcript ended with when it was rewound. */
  end: string;
}

const markSchema = z.object({ upTo: z.string().min(1), end: z.string().min(1) });
/** Conversation ids are UUIDs; only an id of this form names a file. */
const CONVERSATION_ID = /^[A-Za-z0-9-]{1,100}$/;
const MARK_MAX_BYTES = 4096;

/** The agent's rewind marks, a file per conversation beside its other state (0600). */
export class RewindMarks {
  constructor(private readonly env: NodeJS.ProcessEnv) {}

  private file(conversation: string): string | undefined {
    return CONVERSATION_ID.test(conversation)
      ? agentStatePath(this.env, `rewinds/${conversation}.json`)
      : undefined;
  }

  async get(conversation: string): Promise<RewindMark | undefined> {
    const file = this.file(conversation);
    const bytes = file && (await readCacheFile(file, MARK_MAX_BYTES));
    if (!bytes) return undefined;
    try {
      const parsed = markSchema.safeParse(JSON.parse(bytes.toString("utf8")));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  /** Keeps the cut; a failure is said: without it a load would replay what was dropped. */
  async set(conversation: string, mark: RewindMark): Promise<void> {
    const file = this.file(conversation);
    if (!file) throw new Error(`cannot keep a rewind of conversation ${conversation}`);
    await writeWhole(file, `${JSON.stringify(mark)}\n`, { private: true });
  }

  /** The transcript shows the cut now (or it is gone): the mark is dropped. */
  async drop(conversation: string): Promise<void> {
    const file = this.file(conversation);
    if (file) await rm(file, { force: true }).catch(() => undefined);
  }
}

/**
 * The messages of a conversation as a rewind left them: cut after `mark.upTo` while the
 * transcript still ends where it did when it was rewound; as they are otherwise.
 */
export function applyRewind(
  messages: ClaudeTranscriptMessage[],
  mark: RewindMark | undefined,
): ClaudeTranscriptMessage[] {
  if (!mark || messages.at(-1)?.uuid !== mark.end) return messages;
  const at = messages.findIndex((m) => m.uuid === mark.upTo);
  return at < 0 ? messages : messages.slice(0, at + 1);
}

/**
 * The transcripts as rewinds left them: every reader (a load's replay, a fork, a rewind
 * after another) sees a rewound conversation cut, and a fork of one copies only what was
 * kept.
 */
export function rewoundTranscripts(
  transcripts: ClaudeTranscripts,
  marks: RewindMarks,
): ClaudeTranscripts {
  return {
    saved: (dirs) => transcripts.saved(dirs),
    rows: (sessions) => transcripts.rows(sessions),
    find: (sessionIds, dirs) => transcripts.find(sessionIds, dirs),
    watch: (dirs, changed) => transcripts.watch(dirs, changed),
    info: (sessionId, dir) => transcripts.info(sessionId, dir),
    delete: (sessionId, dir) => transcripts.delete(sessionId, dir),
    rename: (sessionId, title) => transcripts.rename(sessionId, title),
    archive: (sessionId, archived) => transcripts.archive(sessionId, archived),
    subagents: (sessionId, dir) => transcripts.subagents(sessionId, dir),
    subagent: (sessionId, agentId, dir) => transcripts.subagent(sessionId, agentId, dir),
    messages: async (conversation, dir) => {
      const [messages, mark] = await Promise.all([
        transcripts.messages(conversation, dir),
        marks.get(conversation),
      ]);
      if (mark && messages.at(-1)?.uuid !== mark.end) {
        log.debug(`conversation ${conversation}: its transcript shows its rewind now`);
        void marks.drop(conversation);
      }
      return applyRewind(messages, mark);
    },
    fork: async (conversation, dir, cwd, upTo) => {
      const kept = upTo ?? (await cutOf(transcripts, marks, conversation, dir));
      return transcripts.fork(conversation, dir, cwd, kept);
    },
  };
}

/** Where a rewound conversation ends now, while its transcript does not show it yet. */
export async function cutOf(
  transcripts: ClaudeTranscripts,
  marks: RewindMarks,
  conversation: string,
  dir?: string,
): Promise<string | undefined> {
  const mark = await marks.get(conversation);
  if (!mark) return undefined;
  const messages = await transcripts.messages(conversation, dir);
  return messages.at(-1)?.uuid === mark.end ? mark.upTo : undefined;
}
