// What the user sees of one session: each `session/update` on the screen as it arrives (the
// messages: messages.ts; the tool calls: tool-call-lines.ts), the task list and mode changes
// held while a turn runs, the turn's start and end, and the activity line.
import type {
  PlanEntry,
  SessionMode,
  SessionModeState,
  SessionUpdate,
  StopReason,
  ToolCallUpdate,
} from "@agentclientprotocol/sdk";
import { modeLine, planLines, type RenderContext } from "../render.js";
import type { Screen } from "../screen.js";
import { oneLine, sanitize, type Style } from "../style.js";
import {
  contentKey,
  isActive,
  type NotRun,
  ToolCallStore,
  type ToolCallState,
} from "../tool-calls.js";
import { PromptSuggestion } from "../prompt-suggestion.js";
import { MessageStream, type Stream } from "./messages.js";
import { ToolCallLines } from "./tool-call-lines.js";

export class SessionView {
  readonly calls = new ToolCallStore();
  readonly ctx: RenderContext;
  /** The agent's guess at the next prompt, for the prompt to offer (Tab takes it). */
  readonly suggestion = new PromptSuggestion();
  private modes: SessionMode[] = [];
  private currentMode: string | undefined;
  private readonly messages: MessageStream;
  private readonly toolLines: ToolCallLines;
  private pendingPlan: PlanEntry[] | undefined;
  /** A mode change's line, held like a task list while a turn runs. */
  private pendingMode: string | undefined;
  private printedPlan = "";
  /** The task list last shown, and whether it was shown as stopped. */
  private shownPlan: readonly PlanEntry[] | undefined;
  private shownStopped = false;
  private turnRunning = false;
  /** When the running turn started (the status line shows the time since). */
  private turnStarted = 0;
  /** When the open permission box or question was opened. */
  private askedAt: number | undefined;
  /** The user interrupted the running turn: calls that fail now were stopped by them. */
  private interrupted = false;

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
    this.messages = new MessageStream(screen, style);
    this.toolLines = new ToolCallLines({
      screen,
      ctx: this.ctx,
      calls: this.calls,
      endText: () => this.messages.end(),
      flush: () => this.flush(),
      interrupted: () => this.interrupted,
    });
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
    // Mid-reply, the note follows the block being written (messages.ts), which stays whole.
    if (this.messages.openStream === "agent") this.flushHeld();
    else this.flush();
    this.messages.note(this.style.dim(text));
    this.toolLines.lastCall = undefined;
  }

  /** Lines of a request box (printed by an answerer), as a block of their own. */
  requestBlock(lines: readonly string[]): void {
    this.flush();
    this.screen.gap();
    this.screen.lines(lines);
    this.toolLines.lastCall = undefined;
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
    this.toolLines.lastCall = undefined;
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
        this.messages.push(stream, update.messageId ?? undefined, text, () => {
          this.flush();
          this.toolLines.lastCall = undefined;
        });
        break;
      }
      case "tool_call":
      case "tool_call_update":
        this.toolLines.update(update);
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
      case "session_info_update": {
        if (typeof update.title === "string" && oneLine(update.title)) {
          this.note(`Session: ${oneLine(update.title)}`);
        }
        this.suggestion.update(update._meta);
        break;
      }
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
    if (!call.printed) this.toolLines.printHeader(call, false);
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

  /** The box about `call` closed; `notRun`: the user's answer does not let it run. */
  endRequest(call: ToolCallState | undefined, notRun?: NotRun): void {
    // The turn's timer counts Claude's work: the time the box waited for the user is left out.
    if (this.askedAt !== undefined) this.turnStarted += Date.now() - this.askedAt;
    this.askedAt = undefined;
    if (call) {
      call.asking = false;
      if (notRun) call.notRun = notRun;
      // The box was about this call: its next status needs no title.
      this.toolLines.lastCall = call.id;
    }
    this.refreshActivity();
  }

  /**
   * Anything held back (a plan burst, an open text line) goes out now; `stopped`: the turn
   * was interrupted or failed (or the user is interrupting it), so a task list shows its
   * task in progress as stopped.
   */
  flush(stopped = this.interrupted): void {
    this.messages.end();
    this.flushHeld(stopped);
  }

  /** What a turn held back (a mode line, a task list) goes out now. */
  private flushHeld(stopped = this.interrupted): void {
    const mode = this.pendingMode;
    this.pendingMode = undefined;
    if (mode) {
      this.screen.block([mode]);
      this.toolLines.lastCall = undefined;
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
    this.toolLines.lastCall = undefined;
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
