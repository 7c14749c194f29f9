// What the user sees of one session: `session/update` notifications rendered as they arrive.
import type {
  PlanEntry,
  SessionMode,
  SessionModeState,
  SessionUpdate,
  StopReason,
  ToolCall,
  ToolCallUpdate,
} from "@agentclientprotocol/sdk";
import {
  contentLines,
  isMarkdown,
  modeLine,
  outputLines,
  planLines,
  terminalEndLine,
  terminalLines,
  toolHeaderLines,
  toolStatusLine,
  type RenderContext,
} from "./render.js";
import { MarkdownBlocks, markdownLines } from "./markdown.js";
import type { Screen } from "./screen.js";
import { oneLine, sanitize, type Style } from "./style.js";
import {
  contentKey,
  isActive,
  isDescribed,
  ToolCallStore,
  type ToolCallState,
} from "./tool-calls.js";
import { StreamedLines } from "./text-limits.js";
import { wrapLines } from "./wrap.js";

/** Rows of a reply's unfinished block shown while it streams (its last ones). */
const PREVIEW_ROWS = 8;

type Stream = "agent" | "thought" | "user";

/** A running command's last lines, redrawn in place as its output grows. */
const LIVE_TERMINAL_LINES = 5;
/** A finished command's last lines (in a pipe: its first ones, printed as they came). */
const FINAL_TERMINAL_LINES = 12;

export class SessionView {
  readonly calls = new ToolCallStore();
  readonly ctx: RenderContext;
  private modes: SessionMode[] = [];
  private currentMode: string | undefined;
  private open: { stream: Stream; messageId: string | undefined } | undefined;
  /** The open stream's lines, cut to the line limit as they come. */
  private readonly streamed = new StreamedLines();
  private pendingPlan: PlanEntry[] | undefined;
  /** A mode change's line, held like a task list while a turn runs. */
  private pendingMode: string | undefined;
  private printedPlan = "";
  /** The task list last shown, and whether it was shown as stopped. */
  private shownPlan: readonly PlanEntry[] | undefined;
  private shownStopped = false;
  private turnRunning = false;
  /** The agent's message text not shown yet (an unfinished markdown block). */
  private readonly markdown = new MarkdownBlocks();
  /** Blocks of the open agent message were shown (the next one comes after a blank line). */
  private markdownShown = false;
  /** When the running turn started (the status line shows the time since). */
  private turnStarted = 0;
  /** When the open permission box or question was opened. */
  private askedAt: number | undefined;
  /** The user interrupted the running turn: calls that fail now were stopped by them. */
  private interrupted = false;
  /** The tool call whose lines were printed last: its status lines need no title. */
  private lastCall: string | undefined;

  constructor(
    readonly screen: Screen,
    style: Style,
    cwd: string,
    home?: string,
  ) {
    this.ctx = {
      style,
      cwd,
      ...(home ? { home } : {}),
      get width() {
        return screen.width;
      },
    };
  }

  get style(): Style {
    return this.ctx.style;
  }

  /** The modes `session/new` returned, to name them on mode changes. */
  setModes(state: SessionModeState | null | undefined): void {
    this.modes = state?.availableModes ?? [];
    this.currentMode = state?.currentModeId;
  }

  availableModes(): readonly SessionMode[] {
    return this.modes;
  }

  /** Prints a line of our own (not from the agent). */
  note(text: string): void {
    // Mid-reply, the note goes above the block being written, which stays whole: printed
    // now, its first words would stand before the note and the rest after it.
    if (this.open?.stream === "agent") this.flushHeld();
    else this.flush();
    this.screen.lines([this.style.dim(text)]);
    this.lastCall = undefined;
  }

  /** Lines of a request box (printed by an answerer), as a block of their own. */
  requestBlock(lines: readonly string[]): void {
    this.flush();
    this.screen.gap();
    this.screen.lines(lines);
    this.lastCall = undefined;
  }

  /** An error of ours or of the connection, with optional detail (e.g. the agent's log). */
  error(text: string, detail?: string): void {
    this.flush();
    const lines = [this.style.red(`✗ ${oneLine(text)}`)];
    if (detail?.trim())
      lines.push(
        ...sanitize(detail)
          .trimEnd()
          .split("\n")
          .map((l) => this.style.dim(`  ${l}`)),
      );
    this.screen.lines(lines);
  }

  startTurn(prompt: string): void {
    this.flush();
    const [first = "", ...more] = sanitize(prompt).split("\n");
    this.screen.block([
      `${this.style.bold(this.style.blue("›"))} ${this.style.bold(first)}`,
      ...more.map((line) => `  ${this.style.bold(line)}`),
    ]);
    this.turnRunning = true;
    this.interrupted = false;
    this.turnStarted = Date.now();
    this.refreshActivity();
  }

  /** The user interrupted the turn (Esc, Ctrl-C): calls that fail from now on say so. */
  interrupt(): void {
    this.interrupted = true;
  }

  endTurn(result: { stopReason: StopReason } | { error: string }): void {
    this.turnRunning = false;
    for (const call of this.calls.all()) if (isActive(call)) call.abandoned = true;
    // Interrupted or failed: the task in progress is not being worked on any more, and the
    // task list says so (a list sent again next turn is shown again).
    const stopped = "error" in result || result.stopReason === "cancelled";
    this.flush(stopped || this.interrupted);
    const working = this.shownPlan?.some((entry) => entry.status === "in_progress");
    if (stopped && working && !this.shownStopped) {
      this.screen.block(planLines(this.shownPlan!, this.ctx, true));
      this.shownStopped = true;
    }
    if (stopped) this.printedPlan = "";
    const { style } = this;
    const line =
      "error" in result
        ? style.red(`■ The turn failed: ${oneLine(result.error)}`)
        : result.stopReason === "end_turn"
          ? style.dim(`■ Turn ended (${result.stopReason})`)
          : style.yellow(`■ Turn ended (${result.stopReason})`);
    this.screen.block([line]);
    this.lastCall = undefined;
    this.refreshActivity();
  }

  update(update: SessionUpdate): void {
    switch (update.sessionUpdate) {
      case "agent_message_chunk":
      case "agent_thought_chunk":
      case "user_message_chunk": {
        const stream: Stream =
          update.sessionUpdate === "agent_message_chunk"
            ? "agent"
            : update.sessionUpdate === "agent_thought_chunk"
              ? "thought"
              : "user";
        const text =
          update.content.type === "text" ? update.content.text : `[${update.content.type}]`;
        this.chunk(stream, update.messageId ?? undefined, text);
        break;
      }
      case "tool_call":
      case "tool_call_update":
        this.toolCall(update);
        break;
      case "plan":
        this.pendingPlan = update.entries;
        // Plans come in bursts (one snapshot per task tool): show the last of a burst.
        if (!this.turnRunning) this.flush();
        break;
      case "current_mode_update":
        if (update.currentModeId !== this.currentMode) {
          this.currentMode = update.currentModeId;
          // Like a task list, held while a turn runs: printed now, it would stand between a
          // call and its status (the mode an answer in its permission box switched to).
          this.pendingMode = modeLine(update.currentModeId, this.modes, this.ctx);
          if (!this.turnRunning) this.flush();
        }
        break;
      case "session_info_update":
        if (typeof update.title === "string" && oneLine(update.title)) {
          this.note(`Session: ${oneLine(update.title)}`);
        }
        break;
      default:
        // Commands, config options, usage, and update kinds of later versions: not shown.
        break;
    }
    this.refreshActivity();
  }

  /**
   * A permission request or question about `toolCall` opens: the call is merged (the
   * request may carry only its id) and its header printed if it was not yet.
   */
  beginRequest(toolCall: ToolCallUpdate): ToolCallState {
    const call = this.calls.merge(toolCall);
    if (!call.printed) this.printHeader(call, false);
    call.asking = true;
    this.askedAt ??= Date.now();
    this.refreshActivity();
    return call;
  }

  /** Marks the content a request box showed, so it is not shown again. */
  markShown(call: ToolCallState | undefined): void {
    if (call) call.printedTitle = call.title;
    for (const item of call?.content ?? []) call?.shown.add(contentKey(item));
  }

  /** The box about `call` closed; `rejected`: the user chose not to let it run. */
  endRequest(call: ToolCallState | undefined, rejected = false): void {
    // The turn's timer counts Claude's work: the time the box waited for the user is left out.
    if (this.askedAt !== undefined) this.turnStarted += Date.now() - this.askedAt;
    this.askedAt = undefined;
    if (call) {
      call.asking = false;
      if (rejected) call.rejected = true;
      this.lastCall = call.id; // the box was about this call: its next status needs no title
    }
    this.refreshActivity();
  }

  /** An open text line (the agent's unfinished block: all of it) ends here. */
  private endText(): void {
    const note = this.streamed.end(); // the last line was cut: its length
    if (this.open?.stream === "agent") this.markdown.push(note);
    else if (this.open) this.screen.stream(this.styled(this.open.stream, note));
    if (this.open?.stream === "agent") {
      this.renderMarkdown(true);
      this.markdownShown = false;
    }
    if (this.open) {
      this.screen.endLine();
      this.open = undefined;
    }
  }

  /**
   * Anything held back (a plan burst, an open text line) goes out now; `stopped`: the turn
   * was interrupted or failed (or the user is interrupting it), so a task list shows its
   * task in progress as stopped.
   */
  flush(stopped = this.interrupted): void {
    this.endText();
    this.flushHeld(stopped);
  }

  /** What a turn held back (a mode line, a task list) goes out now. */
  private flushHeld(stopped = this.interrupted): void {
    const mode = this.pendingMode;
    this.pendingMode = undefined;
    if (mode) {
      this.screen.block([mode]);
      this.lastCall = undefined;
    }
    const entries = this.pendingPlan;
    this.pendingPlan = undefined;
    if (!entries) return;
    const key = JSON.stringify(entries);
    if (key === this.printedPlan) return;
    this.printedPlan = key;
    this.shownPlan = entries;
    this.shownStopped = stopped;
    this.screen.block(planLines(entries, this.ctx, stopped));
    this.lastCall = undefined;
  }

  private chunk(stream: Stream, messageId: string | undefined, raw: string): void {
    const clean = sanitize(raw);
    if (clean === "") return;
    const { style } = this;
    const same = this.open?.stream === stream && this.open.messageId === messageId;
    if (!same) {
      this.flush();
      this.open = { stream, messageId };
      this.lastCall = undefined;
      this.screen.gap();
      if (stream === "thought") this.screen.stream(style.dim("✻ "));
      if (stream === "user") this.screen.stream(style.blue("› "));
    }
    const text = this.streamed.push(clean);
    if (stream === "agent") {
      this.markdown.push(text);
      this.renderMarkdown(false);
      return;
    }
    this.screen.stream(this.styled(stream, text));
  }

  /** Streamed text (not the agent's markdown) in its stream's style. */
  private styled(stream: Stream, text: string): string {
    return stream === "thought" ? this.style.dim(this.style.italic(text)) : text;
  }

  /**
   * The agent's text is markdown: shown block by block as each block is finished (all of it
   * when `all`), rendered without the markup.
   */
  private renderMarkdown(all: boolean): void {
    const done = this.markdown.take(all);
    if (done.trim() !== "") {
      // The block's preview goes first: the block is printed in its place.
      this.screen.setPreview([]);
      const lines = markdownLines(done, this.style);
      this.screen.lines(this.markdownShown ? ["", ...lines] : lines);
      this.markdownShown = true;
    }
    this.screen.setPreview(this.previewRows());
  }

  /**
   * The unfinished block as it streams (its last rows, word-wrapped), so a long paragraph
   * shows as it is written: rendered, and kept, once the block is finished.
   */
  private previewRows(): string[] {
    const width = Math.max(8, this.screen.width - 1);
    // Only the block's end is wrapped: wrapping all of it at every piece would grow with it
    // (its last lines, some of them blank perhaps, and of a long line its end).
    const recent = this.markdown.recent(2 * PREVIEW_ROWS);
    const text = tail(recent, PREVIEW_ROWS, (PREVIEW_ROWS + 1) * width).trim();
    if (text === "") return [];
    const gap = this.markdownShown ? [""] : [];
    return [...gap, ...wrapLines([text], width)].slice(-PREVIEW_ROWS);
  }

  private toolCall(update: ToolCall | ToolCallUpdate): void {
    const endedBefore = this.calls.get(update.toolCallId)?.terminal?.exit !== undefined;
    const call = this.calls.merge(update);
    if (!call.printed) {
      if (isDescribed(call)) this.printHeader(call, true);
      return;
    }
    // A rejected command never ran: its "output" is Claude Code's note to the model.
    if (call.terminal && !call.rejected) this.terminalOutput(call);
    const exit = call.terminal?.exit;
    if (exit && !endedBefore && call.status === call.printedStatus && !isActive(call)) {
      // A background command ended after its tool call: its terminal's end on its own line.
      this.callLines(call, [terminalEndLine(exit, this.ctx)]);
      return;
    }
    // Lines under a call end an open text line, but a task list held back waits: printed
    // now, it would stand between the call and its status.
    if (call.status !== call.printedStatus) {
      this.endText();
      call.printedStatus = call.status;
      this.statusLines(call, this.lastCall !== call.id);
    } else if (call.status !== "pending") {
      const fresh = this.newContent(call);
      if (fresh.length) {
        this.endText();
        this.callLines(call, [toolStatusLine(call, this.ctx, this.lastCall !== call.id), ...fresh]);
      }
    }
  }

  /**
   * A command's output under its call. On a terminal: the last few lines while it runs,
   * redrawn in place, then its last lines once it ended. In a pipe, where nothing is
   * redrawn: complete lines as they come, the first few only.
   */
  private terminalOutput(call: ToolCallState): void {
    const terminal = call.terminal;
    if (!terminal) return;
    const ended = terminal.exit !== undefined;
    if (this.screen.live) {
      const lines = outputLines(terminal, true);
      if (!lines.length) return;
      this.endText();
      const max = ended ? FINAL_TERMINAL_LINES : LIVE_TERMINAL_LINES;
      const shown = terminalLines(lines, terminal.dropped, this.ctx, max);
      // The output and the status line under it are one region, redrawn as the output grows;
      // once the command ended its last lines stay, and its final status line follows them.
      const tag = `tool:${call.id}`;
      const withTitle = this.lastCall !== call.id;
      this.screen.replace(tag, ended ? shown : []);
      if (!ended) {
        const status =
          call.printedStatus === "pending" ? [] : [toolStatusLine(call, this.ctx, withTitle)];
        this.screen.tagged(tag, [...shown, ...status]);
      }
      this.lastCall = call.id;
      return;
    }
    const lines = outputLines(terminal, ended);
    const from = terminal.printed;
    if (lines.length <= from) return;
    terminal.printed = lines.length;
    const fresh = lines.slice(from, Math.max(from, FINAL_TERMINAL_LINES));
    const more = from <= FINAL_TERMINAL_LINES && lines.length > FINAL_TERMINAL_LINES;
    const shown = terminalLines(fresh, 0, this.ctx, Infinity);
    if (more) shown.push(...terminalLines(["… more output not shown"], 0, this.ctx, 1));
    if (!shown.length) return;
    this.endText();
    this.callLines(call, shown);
  }

  /** Lines under a call's header. */
  private callLines(call: ToolCallState, lines: string[]): void {
    this.screen.lines(lines);
    this.lastCall = call.id;
  }

  /**
   * The call's status line and its new content. A status line with nothing under it is
   * tagged: the next status of the call (running → completed) redraws it in place.
   */
  private statusLines(call: ToolCallState, withTitle: boolean): void {
    const tag = `tool:${call.id}`;
    const ending =
      call.status !== "failed"
        ? undefined
        : call.rejected
          ? "rejected"
          : this.interrupted
            ? "interrupted"
            : undefined;
    // What the agent says then is its note to the model: the user knows why it stopped.
    if (ending) for (const item of call.content) call.shown.add(contentKey(item));
    const lines = [toolStatusLine(call, this.ctx, withTitle, ending), ...this.newContent(call)];
    if (lines.length === 1 && isActive(call)) this.screen.tagged(tag, lines);
    else this.screen.replace(tag, lines);
    this.lastCall = call.id;
  }

  private printHeader(call: ToolCallState, withStatus: boolean): void {
    this.flush();
    call.printed = true;
    call.printedTitle = call.title;
    this.screen.block(toolHeaderLines(call, this.ctx));
    this.lastCall = call.id;
    if (withStatus && call.status !== "pending") {
      call.printedStatus = call.status;
      this.statusLines(call, false);
    } else {
      call.printedStatus = "pending";
    }
  }

  /** Content items not shown before, indented under their call. */
  private newContent(call: ToolCallState): string[] {
    const fresh = call.content.filter((item) => !call.shown.has(contentKey(item)));
    for (const item of fresh) call.shown.add(contentKey(item));
    return contentLines(fresh, this.ctx, call.locations, isMarkdown(call)).map(
      (line) => `    ${line}`,
    );
  }

  private refreshActivity(): void {
    const active = this.calls.all().filter((c) => isActive(c) && !c.asking);
    const asking = this.calls.all().some((c) => c.asking);
    const running = active.at(-1);
    if (asking || !this.turnRunning) this.screen.setActivity(undefined);
    else if (running) {
      const more = active.length > 1 ? ` (+${active.length - 1} more)` : "";
      const title = oneLine(running.title) || "Tool call";
      this.screen.setActivity(
        `${title} — ${running.status === "in_progress" ? "running" : "starting"}${more}`,
        this.turnStarted,
      );
    } else this.screen.setActivity("Working…", this.turnStarted);
  }
}

/**
 * The end of `text` that its last `lines` lines show: those lines, then at most their last
 * `chars` characters (the first row of a cut line may then wrap otherwise than in the whole).
 */
function tail(text: string, lines: number, chars: number): string {
  let from = text.trimEnd().length;
  for (let n = 0; n < lines && from > 0; n++) from = text.lastIndexOf("\n", from - 1);
  const end = text.slice(Math.max(0, from + 1));
  return end.length > chars ? end.slice(end.length - chars) : end;
}
