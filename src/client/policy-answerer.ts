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
import { firstChoiceContent, type FormField } from "./form.js";
import { choosePermissionOption, type AnswerPolicy } from "./policy.js";
import { optionLines, permissionOptionLabels } from "./request-box.js";

/**
 * Answers without asking, by `--answer` policy, and prints each request and its answer
 * as a readable transcript (each option's standard kind included, for client developers).
 */
export class PolicyAnswerer implements Answerer {
  constructor(
    private readonly ctx: AnswerContext,
    private readonly policy: AnswerPolicy,
    /** Sent with a selected reject option (`_meta.permission.feedback`). */
    private readonly feedback?: string,
  ) {}

  permission(request: RequestPermissionRequest, signal: AbortSignal): Promise<PermissionDecision> {
    const { view } = this.ctx;
    const { call, lines } = openPermission(view, request);
    lines.push(...optionLines(permissionOptionLabels(request.options, true), undefined, view.ctx));
    const option = signal.aborted
      ? undefined
      : choosePermissionOption(request.options, this.policy);
    let decision: PermissionDecision;
    if (signal.aborted) decision = { outcome: "cancelled", reason: abortReason(signal) };
    else if (!option) {
      const reason =
        this.policy === "cancel" ? "--answer cancel" : `no option for --answer ${this.policy}`;
      decision = { outcome: "cancelled", reason };
    } else {
      decision = {
        outcome: "selected",
        option,
        ...(this.feedback && isReject(option) ? { feedback: this.feedback } : {}),
      };
    }
    view.requestBlock([...lines, ...permissionResultLines(decision, view)]);
    view.endRequest(call, notRun(decision));
    if (decision.outcome === "cancelled" && !signal.aborted) this.ctx.cancelTurn();
    return Promise.resolve(decision);
  }

  form(
    message: string,
    fields: readonly FormField[],
    toolCallId: string | undefined,
    signal: AbortSignal,
  ): Promise<FormDecision> {
    const { view } = this.ctx;
    const call = toolCallId ? view.beginRequest({ toolCallId }) : undefined;
    view.markShown(call); // the question box shows what the call's content says
    const lines = questionTopLines(view, message);
    for (const field of fields) {
      lines.push(fieldTitleLine(view, field));
      if (field.kind === "choice" || field.kind === "multi") {
        const labels = field.choices.map((c) => ({
          label: c.title,
          ...(c.description ? { detail: c.description } : {}),
        }));
        lines.push(...optionLines(labels, undefined, view.ctx));
      }
    }
    const decision: FormDecision = signal.aborted
      ? { action: "cancel", reason: abortReason(signal) }
      : this.policy === "cancel"
        ? { action: "cancel", reason: "--answer cancel" }
        : { action: "accept", content: firstChoiceContent(fields) };
    view.requestBlock([...lines, ...formResultLines(decision, fields, view)]);
    if (call) view.endRequest(call);
    if (decision.action === "cancel" && !signal.aborted) this.ctx.cancelTurn();
    return Promise.resolve(decision);
  }
}
