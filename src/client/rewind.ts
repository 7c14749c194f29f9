// The turns of the session as the client ran them, with the ids the agent gave them, for
// /rewind (the session-rewind RFD's session/rewind) and for editing a recalled prompt
// (session/edit_prompt).
import { methods } from "@agentclientprotocol/sdk";
import { EDIT_PROMPT_METHOD, REWIND_METHOD } from "../acp/session-params.js";
import { oneLine } from "./style.js";
import { errorText } from "./text-limits.js";

/** One turn the user ran. */
export interface PastTurn {
  text: string;
  /** The agent's id of the prompt (its answer's `userMessageId`). */
  userMessageId?: string;
  /** The id of the last message of Claude's that the turn showed. */
  lastAgentMessageId?: string;
}

/** What the rewind's answer says of the files (`_meta.claudeCode.files`). */
interface FilesReport {
  filesChanged?: string[];
  insertions?: number;
  deletions?: number;
  skippedLinks?: number;
}

interface RewindAnswer {
  remainingMessageCount?: number;
  _meta?: { claudeCode?: { files?: FilesReport } };
}

/** What /rewind needs of the client: a menu, a note, and the agent. */
export interface RewindIo {
  /** The index chosen, or undefined when the user backed out. */
  choose(title: string, labels: ReadonlyArray<{ label: string }>): Promise<number | undefined>;
  note(text: string): void;
  request<T>(method: string, params: unknown): Promise<T>;
}

/** What the commands on past turns need of the client besides (client.ts). */
export interface PastIo extends RewindIo {
  sessionId: string;
  /** Runs `turn` again with `text` in its place (session/edit_prompt). */
  runAgain(text: string, turn: PastTurn): Promise<void>;
}

const PROMPT_METHOD = methods.agent.session.prompt;

/** How many turns /rewind offers, the latest. */
const OFFERED = 9;

export class PastTurns {
  private readonly turns: PastTurn[] = [];
  /** Prompts for ↑ at the prompt, oldest first, and the turn each recalls. */
  readonly texts: string[] = [];
  private readonly textTurns: number[] = [];
  private lastAgentMessage: string | undefined;

  /** A turn starts with `text`; `edited`: it runs that turn again, and the ones after it go. */
  started(text: string, edited?: PastTurn): PastTurn {
    const again = edited ? this.turns.indexOf(edited) : -1;
    if (again >= 0) this.forgetAfter(again - 1);
    const turn: PastTurn = { text };
    this.turns.push(turn);
    this.lastAgentMessage = undefined;
    if (this.texts.at(-1) === text)
      this.textTurns[this.textTurns.length - 1] = this.turns.length - 1;
    else {
      this.texts.push(text);
      this.textTurns.push(this.turns.length - 1);
    }
    return turn;
  }

  /** A message of Claude's was shown under this id. */
  agentMessage(messageId: string): void {
    this.lastAgentMessage = messageId;
  }

  /** The turn was answered. */
  answered(turn: PastTurn, answer: object): void {
    const id = "userMessageId" in answer ? answer.userMessageId : undefined;
    if (typeof id === "string") turn.userMessageId = id;
    if (this.lastAgentMessage) turn.lastAgentMessageId = this.lastAgentMessage;
  }

  /**
   * A command on the past turns, if the prompt line is one: Ctrl-R on a recalled prompt runs
   * its turn again with the text as edited; `/rewind` goes back to a turn. False otherwise.
   */
  async command(
    input: { action: string; recalled?: number },
    text: string,
    io: PastIo,
  ): Promise<boolean> {
    if (input.action === "rerun") {
      const recalled = this.recalled(input.recalled ?? -1);
      if (recalled?.userMessageId) await io.runAgain(text, recalled);
      else io.note("This prompt cannot run again: the agent gave it no id.");
      return true;
    }
    if (text !== "/rewind") return false;
    await this.rewind(io, io.sessionId).catch((error: unknown) =>
      io.note(`Could not rewind: ${errorText(error)}`),
    );
    return true;
  }

  /** The turn whose prompt ↑ recalled as `texts[index]`. */
  recalled(index: number): PastTurn | undefined {
    const at = this.textTurns[index];
    return at === undefined ? undefined : this.turns[at];
  }

  /** The turn's request: `session/prompt`, or with `edited` session/edit_prompt of that turn. */
  request(sessionId: string, text: string, edited?: PastTurn) {
    const content = [{ type: "text" as const, text }];
    if (!edited?.userMessageId)
      return { method: PROMPT_METHOD, params: { sessionId, prompt: content } };
    return {
      method: EDIT_PROMPT_METHOD,
      params: { sessionId, messageId: edited.userMessageId, newContent: content },
    };
  }

  /**
   * `/rewind`: the last turns to choose from, a preview of the files Claude changed after the
   * one chosen (a dry run), the choice to put them back too, then the rewind. The turns after
   * it are forgotten here as there.
   */
  async rewind(io: RewindIo, sessionId: string): Promise<void> {
    const offered = this.turns
      .map((turn, index) => ({ turn, index }))
      .filter(({ turn }) => turn.lastAgentMessageId)
      .slice(-OFFERED);
    if (offered.length === 0) return io.note("Nothing to rewind to yet.");
    const pick = await io.choose(
      "Rewind to the end of which turn? What came after it is dropped.",
      offered.map(({ turn }) => ({ label: oneLine(turn.text).slice(0, 80) })),
    );
    const chosen = pick === undefined ? undefined : offered[pick];
    if (!chosen) return io.note("Not rewound.");
    const toMessageId = chosen.turn.lastAgentMessageId;
    const preview = await io
      .request<RewindAnswer>(REWIND_METHOD, {
        sessionId,
        toMessageId,
        _meta: { claudeCode: { rewindFiles: "dryRun" } },
      })
      .catch(() => undefined);
    const changed = preview?._meta?.claudeCode?.files;
    let files = false;
    if (changed?.filesChanged?.length) {
      const choice = await io.choose(
        `Claude changed ${filesLine(changed)} after it. Put them back too?`,
        [{ label: "The conversation only" }, { label: "The conversation and the files" }],
      );
      if (choice === undefined) return io.note("Not rewound.");
      files = choice === 1;
    }
    const done = await io.request<RewindAnswer>(REWIND_METHOD, {
      sessionId,
      toMessageId,
      ...(files ? { _meta: { claudeCode: { rewindFiles: true } } } : {}),
    });
    this.forgetAfter(chosen.index);
    const put = done._meta?.claudeCode?.files;
    io.note(
      `Rewound: ${done.remainingMessageCount ?? "the"} messages kept.` +
        (put ? ` Files put back: ${filesLine(put)}.` : ""),
    );
  }

  /** The turns after `index` are gone (a rewind). */
  private forgetAfter(index: number): void {
    this.turns.splice(index + 1);
    while (this.textTurns.length && this.textTurns.at(-1)! > index) {
      this.textTurns.pop();
      this.texts.pop();
    }
  }
}

/** "a.txt, b.txt (+3 −1)", and the files a link stood for, left as they are. */
function filesLine(files: FilesReport): string {
  const names = (files.filesChanged ?? []).map((file) => oneLine(file));
  const shown = names.length > 5 ? [...names.slice(0, 5), `${names.length - 5} more`] : names;
  const lines = ` (+${files.insertions ?? 0} −${files.deletions ?? 0})`;
  const skipped = files.skippedLinks ? `; ${files.skippedLinks} left as a link changed them` : "";
  return `${shown.join(", ") || "no files"}${lines}${skipped}`;
}
