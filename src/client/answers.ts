// Answering `session/request_permission` and `elicitation/create`: the answerer decides while
// the request stands, the decision becomes the response; and the box lines both the
// interactive and the policy answerer print around them.
import {
  RequestError,
  type CreateElicitationRequest,
  type CreateElicitationResponse,
  type PermissionOption,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
} from "@agentclientprotocol/sdk";
import { withLinkedSignal } from "../util/linked-signal.js";
import { describeValue, formFields, type FormField, type FormValue } from "./form.js";
import { BAR, permissionHints, permissionLines } from "./request-box.js";
import type { SessionView } from "./view/session-view.js";
import { oneLine, sanitize } from "./style.js";
import { cutField } from "./text-limits.js";
import type { NotRun, ToolCallState } from "./tool-calls.js";

/** What the user decided about a permission request. */
export type PermissionDecision =
  | { outcome: "selected"; option: PermissionOption; feedback?: string }
  | { outcome: "cancelled"; reason: string };

export const isReject = (option: PermissionOption): boolean =>
  option.kind === "reject_once" || option.kind === "reject_always";

/** Why the call the decision was about does not run: a reject option, or the request cancelled (Esc). */
export function notRun(decision: PermissionDecision | undefined): NotRun | undefined {
  if (decision?.outcome === "cancelled") return "cancelled";
  return decision?.outcome === "selected" && isReject(decision.option) ? "rejected" : undefined;
}

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

/**
 * `session/request_permission`: the answerer decides under a signal that fires when the
 * agent withdraws the request (`$/cancel_request`) or `turn`, the running turn, is cancelled.
 */
export async function answerPermission(
  answerer: Answerer,
  request: RequestPermissionRequest,
  signal: AbortSignal,
  turn: AbortSignal,
): Promise<RequestPermissionResponse> {
  const decision = await withLinkedSignal([signal, turn], (linked) =>
    answerer.permission(request, linked),
  );
  // Withdrawn while the user was choosing ($/cancel_request): only `cancelled` is honest.
  if (signal.aborted) return { outcome: { outcome: "cancelled" } };
  return permissionResponse(decision);
}

/** `elicitation/create`: a form, decided as a permission request is. */
export async function answerElicitation(
  answerer: Answerer,
  view: SessionView,
  request: CreateElicitationRequest,
  signal: AbortSignal,
  turn: AbortSignal,
): Promise<CreateElicitationResponse> {
  if (request.mode !== "form") {
    // We advertised form mode only.
    throw RequestError.invalidParams({ mode: request.mode }, "Only form elicitation is supported.");
  }
  const { fields, unknown } = formFields(request.requestedSchema);
  if (unknown.length > 0) {
    view.note(
      `A form asked for fields this client cannot show (${unknown.map((key) => oneLine(cutField(key))).join(", ")}): declined.`,
    );
    return { action: "decline" };
  }
  const toolCallId =
    "toolCallId" in request && typeof request.toolCallId === "string"
      ? request.toolCallId
      : undefined;
  const decision = await withLinkedSignal([signal, turn], (linked) =>
    answerer.form(cutField(request.message), fields, toolCallId, linked),
  );
  if (signal.aborted) return { action: "cancel" };
  return elicitationResponse(decision);
}
