// Building the answers to `session/request_permission` and `elicitation/create`, and the
// box lines both the interactive and the policy answerer print around them.
import type {
  CreateElicitationResponse,
  PermissionOption,
  RequestPermissionRequest,
  RequestPermissionResponse,
} from "@agentclientprotocol/sdk";
import { describeValue, type FormField, type FormValue } from "./form.js";
import { BAR, permissionHints, permissionLines } from "./render.js";
import type { SessionView } from "./view/session-view.js";
import { oneLine, sanitize } from "./style.js";
import type { ToolCallState } from "./tool-calls.js";

/** What the user decided about a permission request. */
export type PermissionDecision =
  | { outcome: "selected"; option: PermissionOption; feedback?: string }
  | { outcome: "cancelled"; reason: string };

export const isReject = (option: PermissionOption): boolean =>
  option.kind === "reject_once" || option.kind === "reject_always";

/**
 * The response: the option id exactly as offered; reject feedback (design.md) under
 * `_meta.permission.feedback`, only with a reject option and only when there is some.
 */
export function permissionResponse(decision: PermissionDecision): RequestPermissionResponse {
  if (decision.outcome === "cancelled") return { outcome: { outcome: "cancelled" } };
  const feedback = decision.feedback?.trim();
  return {
    outcome: { outcome: "selected", optionId: decision.option.optionId },
    ...(feedback && isReject(decision.option) ? { _meta: { permission: { feedback } } } : {}),
  };
}

/** What the user decided about a form. */
export type FormDecision =
  | { action: "accept"; content: Record<string, FormValue> }
  | { action: "decline" }
  | { action: "cancel"; reason: string };

export function elicitationResponse(decision: FormDecision): CreateElicitationResponse {
  return decision.action === "accept"
    ? { action: "accept", content: decision.content }
    : { action: decision.action };
}

/** Opens a permission box: merges the request's tool call, returns the top lines. */
export function openPermission(
  view: SessionView,
  request: RequestPermissionRequest,
): { call: ToolCallState; lines: string[] } {
  const call = view.beginRequest(request.toolCall);
  view.markShown(call);
  return { call, lines: permissionLines(permissionHints(request), call, view.ctx) };
}

export function permissionResultLines(decision: PermissionDecision, view: SessionView): string[] {
  const { style } = view;
  if (decision.outcome === "cancelled") {
    return [`${style.yellow("╰─")} ${style.yellow(`⊘ cancelled (${decision.reason})`)}`];
  }
  const { option } = decision;
  const label = oneLine(option.name);
  const lines: string[] = [];
  if (decision.feedback?.trim() && isReject(option)) {
    lines.push(`${BAR}${style.dim("feedback:")} ${oneLine(sanitize(decision.feedback))}`);
  }
  const mark = isReject(option) ? style.red(`✗ ${label}`) : style.green(`✓ ${label}`);
  lines.push(`${style.yellow("╰─")} ${mark}`);
  return lines;
}

export function questionTopLines(view: SessionView, message: string): string[] {
  const { style } = view;
  return [`${style.yellow("╭─")} ${style.bold(`Question: ${oneLine(message)}`)}`];
}

export function fieldTitleLine(view: SessionView, field: FormField): string {
  const { style } = view;
  const kind =
    field.kind === "choice" || field.kind === "multi"
      ? ""
      : ` (${field.kind}${field.required ? "" : ", optional"})`;
  const multi = field.kind === "multi" ? style.dim(" (choose any)") : "";
  const description = field.description ? style.dim(` — ${field.description}`) : "";
  return `${BAR}${style.bold(field.title)}${style.dim(kind)}${multi}${description}`;
}

export function formResultLines(
  decision: FormDecision,
  fields: readonly FormField[],
  view: SessionView,
): string[] {
  const { style } = view;
  switch (decision.action) {
    case "accept": {
      const answers = fields
        .filter((f) => decision.content[f.key] !== undefined)
        .map((f) => `${f.title} = ${describeValue(f, decision.content[f.key]!)}`);
      return [`${style.yellow("╰─")} ${style.green(`✓ ${answers.join("; ") || "(no answer)"}`)}`];
    }
    case "decline":
      return [`${style.yellow("╰─")} ${style.yellow("⊘ declined")}`];
    case "cancel":
      return [`${style.yellow("╰─")} ${style.yellow(`⊘ cancelled (${decision.reason})`)}`];
  }
}

/** Reason of a turn we cancelled (the abort reason of the turn's signal). */
export const TURN_CANCELLED = "the turn was cancelled";

/** Why a request's signal fired: our own turn cancellation, or the agent withdrew it. */
export function abortReason(signal: AbortSignal): string {
  return signal.reason === TURN_CANCELLED ? TURN_CANCELLED : "withdrawn by the agent";
}

/** The part of the client an answerer may use. */
export interface AnswerContext {
  view: SessionView;
  /** Cancels the running turn (`session/cancel`); every open request then answers cancelled. */
  cancelTurn(): void;
}

/** Decides permission requests and forms; `signal` fires when the request is withdrawn. */
export interface Answerer {
  permission(request: RequestPermissionRequest, signal: AbortSignal): Promise<PermissionDecision>;
  form(
    message: string,
    fields: readonly FormField[],
    toolCallId: string | undefined,
    signal: AbortSignal,
  ): Promise<FormDecision>;
}
