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
  menuKey,
  type LineAction,
  type MenuAction,
  type MenuState,
} from "./keys.js";
import { BAR, optionLines, permissionOptionLabels } from "./render.js";
import { oneLine, truncate } from "./style.js";

const MENU_HINT = "↑/↓ or 1-9 to choose · Enter to confirm · Esc to cancel";
const MULTI_HINT = "↑/↓ to move · Space to tick · Enter to confirm · Esc to cancel";

type MenuOutcome = { action: MenuAction | "aborted"; state: MenuState };
type LineOutcome = { action: LineAction | "aborted"; text: string };

/** A request box being answered: lines printed for good, and a redrawn region below them. */
class Modal {
  private drawn = 0;
  /** The region's last line has no newline (a text input holds the cursor there). */
  private cursorInRegion = false;

  constructor(
    private readonly out: { write(text: string): void; release(): void },
    private readonly releaseKeys: () => void,
  ) {
    out.write("\x1b[?25l"); // no cursor while choosing
  }

  print(lines: readonly string[]): void {
    this.clearRegion();
    if (lines.length) this.out.write(`${lines.join("\n")}\n`);
  }

  region(lines: readonly string[], cursorColumn?: number): void {
    this.clearRegion();
    if (cursorColumn === undefined) {
      this.out.write(`${lines.join("\n")}\n`);
      this.cursorInRegion = false;
      this.out.write("\x1b[?25l");
    } else {
      this.out.write(`${lines.join("\n")}\x1b[${cursorColumn + 1}G\x1b[?25h`);
      this.cursorInRegion = true;
    }
    this.drawn = lines.length;
  }

  clearRegion(): void {
    if (this.drawn === 0) return;
    const up = this.cursorInRegion ? this.drawn - 1 : this.drawn;
    this.out.write(`\r${up > 0 ? `\x1b[${up}A` : ""}\x1b[J`);
    this.drawn = 0;
    this.cursorInRegion = false;
  }

  close(): void {
    this.clearRegion();
    this.out.write("\x1b[?25h");
    this.out.release();
    this.releaseKeys();
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

  private openModal(): Modal {
    return new Modal(this.ctx.view.screen.hold(), this.keys.capture());
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
        const feedback = await this.line(
          modal,
          `${oneLine(option.name)}. Feedback for Claude (Enter to skip, Esc to go back): `,
          signal,
          BAR,
          false,
        );
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
      modal.print(permissionResultLines(decision, view, false));
    } finally {
      modal.close();
      view.endRequest(call);
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
          const input = await this.line(
            modal,
            `${field.required ? "" : "(Enter to skip) "}> `,
            signal,
          );
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
      const help = truncate(checked ? MULTI_HINT : MENU_HINT, Math.max(4, view.screen.width - 4));
      const hint = `${view.style.yellow("╰─")} ${view.style.dim(help)}`;
      modal.region([...optionLines(labels, state.cursor, view.ctx, state.checked), hint]);
      const key = await this.keys.next(signal);
      if (!key) return { action: "aborted", state };
      const step = menuKey(state, key);
      state = step.state;
      if (step.action) return { action: step.action, state };
    }
  }

  /** A line of input between turns (the prompt). */
  async readLine(prompt: string): Promise<LineOutcome> {
    const modal = this.openModal();
    try {
      return await this.line(modal, prompt, new AbortController().signal, "", false);
    } finally {
      modal.close();
    }
  }

  private async line(
    modal: Modal,
    prompt: string,
    signal: AbortSignal,
    gutter = BAR,
    echo = true,
  ): Promise<LineOutcome> {
    const { view } = this.ctx;
    let state = EMPTY_LINE;
    for (;;) {
      // One screen line, never wrapped (a wrapped line could not be redrawn in place).
      const width = view.screen.width;
      const label = truncate(prompt, Math.max(4, Math.floor(width / 2)));
      const labelLength = [...label].length;
      const room = Math.max(4, width - gutter.length - labelLength - 2);
      const chars = [...state.text];
      const start = Math.max(0, state.cursor - room + 1);
      const shown = truncate(chars.slice(start).join(""), room);
      const column = gutter.length + labelLength + state.cursor - start;
      modal.region([`${gutter}${view.style.cyan(label)}${shown}`], column);
      const key = await this.keys.next(signal);
      if (!key) return { action: "aborted", text: state.text };
      const step = lineKey(state, key);
      state = step.state;
      if (step.action) {
        modal.clearRegion();
        if (step.action === "submit" && echo) {
          modal.print([`${gutter}${view.style.cyan(prompt)}${state.text}`]);
        }
        return { action: step.action, text: state.text };
      }
    }
  }
}
