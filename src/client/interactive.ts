// Asking the user at the terminal: one request at a time, answered with the keyboard.
import type { RequestPermissionRequest } from "@agentclientprotocol/sdk";
import {
  abortReason,
  fieldTitleLine,
  formResultLines,
  isReject,
  notRun,
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
import type { LineAction, MenuAction } from "./keys.js";
import { Modal, type LineOptions, type LineOutcome } from "./modal.js";
import { BAR, permissionOptionLabels } from "./request-box.js";
import { oneLine } from "./style.js";

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
    const { view } = this.ctx;
    return new Modal(view.screen.hold(), this.keys.capture(prompt), view, this.keys);
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
        const menu = await modal.menu(labels, cursor, signal);
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
        const feedback = await modal.line(signal, {
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
      view.endRequest(call, notRun(decision));
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
        const menu = await modal.menu(labels, 0, signal);
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
        const menu = await modal.menu(labels, 0, signal, checked);
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
          const input = await modal.line(signal, {
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

  /** A question of the client's own (a command's), as a menu: the index chosen, if any. */
  async choose(
    title: string,
    labels: ReadonlyArray<{ label: string }>,
  ): Promise<number | undefined> {
    const modal = this.openModal();
    try {
      modal.print([this.ctx.view.style.cyan(title)]);
      const menu = await modal.menu(labels, 0, new AbortController().signal);
      return menu.action === "confirm" ? menu.state.cursor : undefined;
    } finally {
      modal.close();
    }
  }

  /**
   * The prompt between turns: multi-line, ↑/↓ recall `history`. Ctrl-C clears the text; a
   * second Ctrl-C in a row, on the empty line, quits (as in Claude Code). The agent's guess at
   * the prompt, if it made one, shows dim under an empty line; Tab takes it.
   */
  async readPrompt(
    initial: string,
    history: readonly string[],
    options: Pick<LineOptions, "armed" | "escapeCancels" | "suggestion"> = {},
  ): Promise<LineOutcome> {
    const modal = this.openModal(true);
    try {
      return await modal.line(new AbortController().signal, {
        prompt: "› ",
        gutter: "",
        echo: false,
        initial,
        history,
        prompting: true,
        ...options,
      });
    } finally {
      modal.close();
    }
  }
}
