// Asking the user at the terminal: one request at a time, answered with the keyboard.
import type { RequestPermissionRequest } from "@agentclientprotocol/sdk";
import {
  abortReason,
  fieldTitleLine,
  formResultLines,
  isReject,
  openPermission,
  permissionResultLines,
  questionTopLines,
  type AnswerContext,
  type Answerer,
  type FormDecision,
  type PermissionDecision,
} from "./answers.js";
import type { FormField, FormValue } from "./form.js";
import type { KeySource } from "./input.js";
import {
  EMPTY_LINE,
  lineKey,
  lineWith,
  menuKey,
  RESIZE,
  type LineAction,
  type MenuAction,
  type MenuState,
} from "./keys.js";
import type { Hold } from "./screen.js";
import { BAR, optionLines, permissionOptionLabels } from "./render.js";
import { layoutInput } from "./prompt-view.js";
import { oneLine, visibleLength } from "./style.js";
import { wrapLines, wrapText } from "./wrap.js";

const MENU_HINT = "↑/↓ or 1-9 to choose · Enter to confirm · Esc to cancel";
const MULTI_HINT = "↑/↓ to move · Space to tick · Enter to confirm · Esc to cancel";
const PROMPT_HINT =
  "  Enter to send · \\ then Enter for a new line · ↑ history · Ctrl-C clears · Ctrl-D quits";

interface LineOptions {
  /** Above the input, wrapped (e.g. what the text is for). */
  label?: string;
  /** Before the text, on its first row. */
  prompt: string;
  /** Before every row (the box's bar). */
  gutter?: string;
  /** Print what was submitted (default true). */
  echo?: boolean;
  initial?: string;
  /** Recalled with ↑/↓, oldest first. */
  history?: readonly string[];
  /** The main prompt: a hint row; Ctrl-C clears, and on an empty line twice quits. */
  prompting?: boolean;
  /** A Ctrl-C came just before (it interrupted a turn): the next one on it quits. */
  armed?: boolean;
}

type MenuOutcome = { action: MenuAction | "aborted"; state: MenuState };
type LineOutcome = { action: LineAction | "aborted"; text: string };

/**
 * A request box being answered: lines printed for good, and a redrawn region below them.
 * Everything is wrapped to the width, so the rows drawn are known; on a resize all that was
 * printed, this box's lines included, is drawn again at the new width.
 */
class Modal {
  /** Visible lengths of the region's rows. */
  private regionRows: number[] = [];
  /** Rows between the end of the region and the cursor (a text input holds the cursor). */
  private cursorUp = 0;

  constructor(
    private readonly out: Hold,
    private readonly releaseKeys: () => void,
    private readonly screen: { readonly width: number },
  ) {
    out.write("\x1b[?25l"); // no cursor while choosing
  }

  /** Lines that stay. */
  print(lines: readonly string[]): void {
    this.clearRegion();
    this.out.keep(lines);
    this.write(lines);
  }

  /** The redrawn part; with `cursor`, the cursor is shown there (row within `lines`). */
  region(lines: readonly string[], cursor?: { row: number; column: number }): void {
    this.clearRegion();
    this.regionRows = this.write(lines);
    if (cursor === undefined) {
      this.out.write("\x1b[?25l");
      return;
    }
    const up = this.regionRows.length - cursor.row;
    this.out.write(`\x1b[${up}A\x1b[${cursor.column + 1}G\x1b[?25h`);
    this.cursorUp = up;
  }

  clearRegion(): void {
    this.erase(this.regionRows.map(() => 1));
    this.regionRows = [];
  }

  /**
   * The terminal changed size. Terminals rewrap (or cut) what was drawn, each its own way, so
   * the rows to erase cannot be known: the screen and its scrollback are cleared and all that
   * was printed, then the box, is drawn again at the new width (one box, never a stale copy).
   * The caller draws the region again.
   */
  resized(): void {
    this.out.redraw();
    this.cursorUp = 0;
    this.regionRows = [];
  }

  close(): void {
    this.clearRegion();
    this.out.write("\x1b[?25h");
    this.out.release();
    this.releaseKeys();
  }

  /** Writes whole lines, wrapped; returns the visible length of each row. */
  private write(lines: readonly string[]): number[] {
    const rows = wrapLines(lines, this.screen.width);
    if (rows.length) this.out.write(`${rows.join("\n")}\n`);
    return rows.map(visibleLength);
  }

  /** Erases `rows` rows above the line the region ends on (each entry: rows of a line). */
  private erase(rows: readonly number[]): void {
    const count = rows.reduce((a, b) => a + b, 0);
    if (count === 0) return;
    const down = this.cursorUp > 0 ? `\x1b[${this.cursorUp}B` : "";
    this.out.write(`${down}\r\x1b[${count}A\x1b[J`);
    this.cursorUp = 0;
  }
}

export class InteractiveAnswerer implements Answerer {
  /** One box at a time: the next request waits for the previous answer. */
  private turn: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly ctx: AnswerContext,
    private readonly keys: KeySource,
  ) {}

  permission(request: RequestPermissionRequest, signal: AbortSignal): Promise<PermissionDecision> {
    return this.exclusive(signal, { outcome: "cancelled", reason: abortReason(signal) }, () =>
      this.askPermission(request, signal),
    );
  }

  form(
    message: string,
    fields: readonly FormField[],
    toolCallId: string | undefined,
    signal: AbortSignal,
  ): Promise<FormDecision> {
    return this.exclusive(signal, { action: "cancel", reason: abortReason(signal) }, () =>
      this.askForm(message, fields, toolCallId, signal),
    );
  }

  /** A box, or with `prompt` the prompt (see KeySource.capture for keys typed ahead). */
  private openModal(prompt = false): Modal {
    const { screen } = this.ctx.view;
    return new Modal(screen.hold(), this.keys.capture(prompt), screen);
  }

  private exclusive<T>(signal: AbortSignal, ifAborted: T, ask: () => Promise<T>): Promise<T> {
    const run = this.turn.then(() => (signal.aborted ? ifAborted : ask()));
    this.turn = run.catch(() => undefined);
    return run;
  }

  private async askPermission(
    request: RequestPermissionRequest,
    signal: AbortSignal,
  ): Promise<PermissionDecision> {
    const { view } = this.ctx;
    const { call, lines } = openPermission(view, request);
    view.requestBlock([]);
    const modal = this.openModal();
    let decision: PermissionDecision | undefined;
    try {
      modal.print(lines);
      const labels = permissionOptionLabels(request.options, false);
      let cursor = 0;
      while (!decision) {
        const menu = await this.menu(modal, labels, cursor, signal);
        cursor = menu.state.cursor;
        const option = request.options[cursor];
        if (menu.action !== "confirm" || !option) {
          decision = { outcome: "cancelled", reason: this.stopReason(menu.action, signal) };
          break;
        }
        if (!isReject(option)) {
          decision = { outcome: "selected", option };
          break;
        }
        const feedback = await this.line(modal, signal, {
          label: `${oneLine(option.name)}. Feedback for Claude (Enter to skip, Esc to go back):`,
          prompt: "> ",
          echo: false,
        });
        if (feedback.action === "cancel") continue;
        if (feedback.action !== "submit") {
          decision = { outcome: "cancelled", reason: this.stopReason(feedback.action, signal) };
          break;
        }
        decision = {
          outcome: "selected",
          option,
          ...(feedback.text.trim() ? { feedback: feedback.text } : {}),
        };
      }
      modal.print(permissionResultLines(decision, view));
    } finally {
      modal.close();
      view.endRequest(call, decision?.outcome === "selected" && isReject(decision.option));
    }
    if (decision.outcome === "cancelled" && !signal.aborted) this.ctx.cancelTurn();
    return decision;
  }

  private async askForm(
    message: string,
    fields: readonly FormField[],
    toolCallId: string | undefined,
    signal: AbortSignal,
  ): Promise<FormDecision> {
    const { view } = this.ctx;
    const call = toolCallId ? view.beginRequest({ toolCallId }) : undefined;
    view.markShown(call); // the question box shows what the call's content says
    view.requestBlock([]);
    const modal = this.openModal();
    let decision: FormDecision | undefined;
    try {
      modal.print(questionTopLines(view, message));
      const content: Record<string, FormValue> = {};
      for (const field of fields) {
        modal.print([fieldTitleLine(view, field)]);
        const answer = await this.field(modal, field, signal);
        if ("stop" in answer) {
          decision = { action: "cancel", reason: this.stopReason(answer.stop, signal) };
          break;
        }
        if (answer.value !== undefined) content[field.key] = answer.value;
      }
      decision ??= { action: "accept", content };
      modal.print(formResultLines(decision, fields, view));
    } finally {
      modal.close();
      if (call) view.endRequest(call);
    }
    if (decision.action === "cancel" && !signal.aborted) this.ctx.cancelTurn();
    return decision;
  }

  private async field(
    modal: Modal,
    field: FormField,
    signal: AbortSignal,
  ): Promise<{ value: FormValue | undefined } | { stop: MenuAction | LineAction | "aborted" }> {
    const { view } = this.ctx;
    const skip = field.required ? [] : [{ label: "Skip" }];
    switch (field.kind) {
      case "choice":
      case "boolean": {
        const choices =
          field.kind === "choice"
            ? field.choices.map((c) => ({
                label: c.title,
                value: c.value,
                detail: c.description,
              }))
            : [
                { label: "Yes", value: true as FormValue, detail: undefined },
                { label: "No", value: false as FormValue, detail: undefined },
              ];
        const labels = [
          ...choices.map((c) => ({ label: c.label, ...(c.detail ? { detail: c.detail } : {}) })),
          ...skip,
        ];
        const menu = await this.menu(modal, labels, 0, signal);
        if (menu.action !== "confirm") return { stop: menu.action };
        const picked = choices[menu.state.cursor];
        modal.print([
          `${BAR}  ${view.style.cyan("→")} ${picked ? picked.label : view.style.dim("skipped")}`,
        ]);
        return { value: picked?.value };
      }
      case "multi": {
        const labels = field.choices.map((c) => ({
          label: c.title,
          ...(c.description ? { detail: c.description } : {}),
        }));
        const checked = field.choices.map((c) => field.default?.includes(c.value) ?? false);
        const menu = await this.menu(modal, labels, 0, signal, checked);
        if (menu.action !== "confirm") return { stop: menu.action };
        const values = field.choices.filter((_, i) => menu.state.checked?.[i]).map((c) => c.value);
        const titles = field.choices.filter((_, i) => menu.state.checked?.[i]).map((c) => c.title);
        modal.print([
          `${BAR}  ${view.style.cyan("→")} ${titles.join(", ") || view.style.dim("none")}`,
        ]);
        return { value: values };
      }
      case "text":
      case "number": {
        for (;;) {
          const input = await this.line(modal, signal, {
            prompt: `${field.required ? "" : "(Enter to skip) "}> `,
          });
          if (input.action !== "submit") return { stop: input.action };
          const text = input.text.trim();
          if (text === "" && !field.required) {
            modal.print([`${BAR}  ${view.style.cyan("→")} ${view.style.dim("skipped")}`]);
            return { value: undefined };
          }
          const value: FormValue | undefined =
            field.kind === "text"
              ? input.text
              : Number.isFinite(Number(text)) && text !== ""
                ? Number(text)
                : undefined;
          if (
            value === undefined ||
            (field.kind === "number" && field.integer && !Number.isInteger(value))
          ) {
            modal.print([
              `${BAR}  ${view.style.red(`not a${field.kind === "number" && field.integer ? "n integer" : " number"}: ${text}`)}`,
            ]);
            continue;
          }
          modal.print([`${BAR}  ${view.style.cyan("→")} ${JSON.stringify(value)}`]);
          return { value };
        }
      }
    }
  }

  private stopReason(action: MenuAction | LineAction | "aborted", signal: AbortSignal): string {
    switch (action) {
      case "aborted":
        return abortReason(signal);
      case "interrupt":
        return "Ctrl-C";
      case "eof":
        return "Ctrl-D";
      default:
        return "Esc";
    }
  }

  private async menu(
    modal: Modal,
    labels: ReadonlyArray<{ label: string; detail?: string }>,
    cursor: number,
    signal: AbortSignal,
    checked?: boolean[],
  ): Promise<MenuOutcome> {
    const { view } = this.ctx;
    let state: MenuState = { cursor, count: labels.length, ...(checked ? { checked } : {}) };
    for (;;) {
      const hint = wrapText(checked ? MULTI_HINT : MENU_HINT, view.screen.width, "╰─ ", "   ").map(
        (row, i) =>
          i === 0
            ? `${view.style.yellow("╰─")}${view.style.dim(row.slice(2))}`
            : view.style.dim(row),
      );
      modal.region([...optionLines(labels, state.cursor, view.ctx, state.checked), ...hint]);
      const key = await this.keys.next(signal);
      if (!key) return { action: "aborted", state };
      if (key === RESIZE) {
        modal.resized();
        continue;
      }
      const step = menuKey(state, key);
      state = step.state;
      if (step.action) return { action: step.action, state };
    }
  }

  /**
   * The prompt between turns: multi-line, ↑/↓ recall `history`. Ctrl-C clears the text; a
   * second Ctrl-C in a row, on the empty line, quits (as in Claude Code).
   */
  async readPrompt(
    initial: string,
    history: readonly string[],
    armed = false,
  ): Promise<LineOutcome> {
    const modal = this.openModal(true);
    try {
      return await this.line(modal, new AbortController().signal, {
        prompt: "› ",
        gutter: "",
        echo: false,
        initial,
        history,
        prompting: true,
        armed,
      });
    } finally {
      modal.close();
    }
  }

  private async line(
    modal: Modal,
    signal: AbortSignal,
    options: LineOptions,
  ): Promise<LineOutcome> {
    const { view } = this.ctx;
    const { style } = view;
    const gutter = options.gutter ?? BAR;
    const history = options.history ?? [];
    let state = lineWith(options.initial ?? "");
    let recalled = history.length; // history.length: the text being written, not a recalled one
    let draft = state.text;
    let armed = options.armed ?? false; // Ctrl-C on an empty prompt: the next one quits
    for (;;) {
      const width = view.screen.width;
      const label = options.label
        ? wrapText(options.label, width, gutter).map((row) => style.cyan(row))
        : [];
      const input = layoutInput(options.prompt, state, Math.max(8, width - gutter.length));
      const rows = input.rows.map((row, i) =>
        i === 0
          ? `${gutter}${style.cyan(options.prompt)}${row.slice(options.prompt.length)}`
          : `${gutter}${row}`,
      );
      const hint = options.prompting
        ? [style.dim(armed ? "  Press Ctrl-C again to exit" : PROMPT_HINT)]
        : [];
      modal.region([...label, ...rows, ...hint], {
        row: label.length + input.cursorRow,
        column: gutter.length + input.cursorColumn,
      });
      const key = await this.keys.next(signal);
      if (!key) return { action: "aborted", text: state.text };
      if (key === RESIZE) {
        modal.resized();
        continue;
      }
      const step = lineKey(state, key);
      const wasArmed = armed;
      armed = false;
      state = step.state;
      switch (step.action) {
        case undefined:
          continue;
        case "previous":
        case "next": {
          const to = step.action === "previous" ? recalled - 1 : recalled + 1;
          if (to < 0 || to > history.length) continue;
          if (recalled === history.length) draft = state.text;
          recalled = to;
          state = lineWith(to === history.length ? draft : history[to]!);
          continue;
        }
        case "cancel":
          if (options.prompting) continue; // Esc at the prompt: nothing to cancel
          break;
        case "interrupt":
          if (options.prompting && state.text !== "") {
            state = EMPTY_LINE; // cleared; a second Ctrl-C now quits
            armed = true;
            continue;
          }
          if (options.prompting && !wasArmed) {
            armed = true;
            continue;
          }
          break;
        default:
          break;
      }
      modal.clearRegion();
      if (step.action === "submit" && options.echo !== false) {
        const [first = "", ...more] = state.text.split("\n");
        modal.print([
          ...label,
          `${gutter}${style.cyan(options.prompt)}${first}`,
          ...more.map((l) => `${gutter}${" ".repeat([...options.prompt].length)}${l}`),
        ]);
      }
      return { action: step.action, text: state.text };
    }
  }
}
