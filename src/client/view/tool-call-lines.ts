// A tool call's lines in the session view: its header, then under it its status as it
// changes, its new content, and a command's output as it runs.
import type { ToolCall, ToolCallUpdate } from "@agentclientprotocol/sdk";
import {
  contentLines,
  isMarkdown,
  outputLines,
  terminalEndLine,
  terminalLines,
  toolHeaderLines,
  toolStatusLine,
  type RenderContext,
} from "../render.js";
import type { Screen } from "../screen.js";
import {
  contentKey,
  isActive,
  isDescribed,
  type ToolCallState,
  type ToolCallStore,
} from "../tool-calls.js";

/** A running command's last lines, redrawn in place as its output grows. */
const LIVE_TERMINAL_LINES = 5;
/** A finished command's last lines (in a pipe: its first ones, printed as they came). */
const FINAL_TERMINAL_LINES = 12;

/** What the tool calls' lines need of the view around them. */
export interface ToolCallHost {
  readonly screen: Screen;
  readonly ctx: RenderContext;
  readonly calls: ToolCallStore;
  /** Ends an open text line: lines under a call come after it. */
  endText(): void;
  /** Everything held back goes out: a header starts a block of its own. */
  flush(): void;
  /** The user interrupted the running turn: calls that fail now were stopped by them. */
  interrupted(): boolean;
}

export class ToolCallLines {
  /** The tool call whose lines were printed last: its status lines need no title. */
  lastCall: string | undefined;

  constructor(private readonly host: ToolCallHost) {}

  update(update: ToolCall | ToolCallUpdate): void {
    const { calls, ctx } = this.host;
    const endedBefore = calls.get(update.toolCallId)?.terminal?.exit !== undefined;
    const call = calls.merge(update);
    if (!call.printed) {
      if (isDescribed(call)) this.printHeader(call, true);
      return;
    }
    // A rejected command never ran: its "output" is Claude Code's note to the model.
    if (call.terminal && !call.notRun) this.terminalOutput(call);
    const exit = call.terminal?.exit;
    if (exit && !endedBefore && call.status === call.printedStatus && !isActive(call)) {
      // A background command ended after its tool call: its terminal's end on its own line.
      this.callLines(call, [terminalEndLine(exit, ctx)]);
      return;
    }
    // Lines under a call end an open text line, but a task list held back waits: printed
    // now, it would stand between the call and its status.
    if (call.status !== call.printedStatus) {
      this.host.endText();
      call.printedStatus = call.status;
      this.statusLines(call, this.lastCall !== call.id);
    } else if (call.status !== "pending") {
      const fresh = this.newContent(call);
      if (fresh.length) {
        this.host.endText();
        this.callLines(call, [toolStatusLine(call, ctx, this.lastCall !== call.id), ...fresh]);
      }
    }
  }

  printHeader(call: ToolCallState, withStatus: boolean): void {
    this.host.flush();
    call.printed = true;
    call.printedTitle = call.title;
    this.host.screen.block(toolHeaderLines(call, this.host.ctx));
    this.lastCall = call.id;
    if (withStatus && call.status !== "pending") {
      call.printedStatus = call.status;
      this.statusLines(call, false);
    } else {
      call.printedStatus = "pending";
    }
  }

  /**
   * A command's output under its call. On a terminal: the last few lines while it runs,
   * redrawn in place, then its last lines once it ended. In a pipe, where nothing is
   * redrawn: complete lines as they come, the first few only.
   */
  private terminalOutput(call: ToolCallState): void {
    const { screen, ctx } = this.host;
    const terminal = call.terminal;
    if (!terminal) return;
    const ended = terminal.exit !== undefined;
    if (screen.live) {
      const lines = outputLines(terminal, true);
      if (!lines.length) return;
      this.host.endText();
      const max = ended ? FINAL_TERMINAL_LINES : LIVE_TERMINAL_LINES;
      const shown = terminalLines(lines, terminal.dropped, ctx, max);
      // The output and the status line under it are one region, redrawn as the output grows;
      // once the command ended its last lines stay, and its final status line follows them.
      const tag = `tool:${call.id}`;
      const withTitle = this.lastCall !== call.id;
      screen.replace(tag, ended ? shown : []);
      if (!ended) {
        const status =
          call.printedStatus === "pending" ? [] : [toolStatusLine(call, ctx, withTitle)];
        screen.tagged(tag, [...shown, ...status]);
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
    const shown = terminalLines(fresh, 0, ctx, Infinity);
    if (more) shown.push(...terminalLines(["… more output not shown"], 0, ctx, 1));
    if (!shown.length) return;
    this.host.endText();
    this.callLines(call, shown);
  }

  /** Lines under a call's header. */
  private callLines(call: ToolCallState, lines: string[]): void {
    this.host.screen.lines(lines);
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
        : call.notRun === "rejected"
          ? "rejected"
          : call.notRun === "cancelled" || this.host.interrupted()
            ? "interrupted"
            : undefined;
    // What the agent says then is its note to the model: the user knows why it stopped.
    if (ending) for (const item of call.content) call.shown.add(contentKey(item));
    const lines = [
      toolStatusLine(call, this.host.ctx, withTitle, ending),
      ...this.newContent(call),
    ];
    if (lines.length === 1 && isActive(call)) this.host.screen.tagged(tag, lines);
    else this.host.screen.replace(tag, lines);
    this.lastCall = call.id;
  }

  /** Content items not shown before, indented under their call. */
  private newContent(call: ToolCallState): string[] {
    const fresh = call.content.filter((item) => !call.shown.has(contentKey(item)));
    for (const item of fresh) call.shown.add(contentKey(item));
    return contentLines(fresh, this.host.ctx, call.locations, isMarkdown(call)).map(
      (line) => `    ${line}`,
    );
  }
}
