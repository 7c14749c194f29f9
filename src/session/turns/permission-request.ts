import { isUnreadAnswer } from "../../acp/oversized.js";
import type { SessionClient } from "../../acp/session-client.js";
import type { CanUseTool, CanUseToolContext, PermissionResult } from "../../claude/types.js";
import { log } from "../../logger.js";
import type { ToolCallTracker, TrackedToolCall } from "../stream/tool-calls.js";
import type { ToolContext, ToolInput } from "../../tools/index.js";
import { claudeCodeMeta, toolCallFromToolUse } from "../../tools/tool-call.js";
import type { PermissionEffect, PlanContext } from "../../permissions/choices.js";
import { buildRequest } from "../../permissions/build-request.js";
import { abortedResult, deniedResult, resultOfEffect } from "../../permissions/effects.js";
import { CLIENT_FAILED, UNKNOWN_OPTION } from "../../permissions/messages.js";
import { QUESTION_TOOL } from "../configuration/claude-env.js";
import { parseClientAnswer } from "../../permissions/response.js";
import { withLinkedSignal } from "../../util/linked-signal.js";
import { warmUpPermissionsSoon } from "../../permissions/warm-up.js";

export interface PermissionGateDeps {
  client: SessionClient;
  tools: ToolCallTracker;
  context: ToolContext;
  homeDir: string;
  /**
   * Resolves once the messages Claude Code wrote before this ask are shown (the stream
   * reads them after the ask has arrived): the client sees Claude's words, then the tool.
   */
  shownBefore?: (toolUseId: string, signal: AbortSignal) => Promise<void>;
  /** Aborted when the running turn is cancelled or the session closes. */
  turnSignal: () => AbortSignal | undefined;
  workingDirectories: () => readonly string[];
  planContext: () => PlanContext;
  /** Runs before the ask is built (ExitPlanMode reads its plan here). */
  beforeAsk?: (toolName: string, input: ToolInput) => Promise<void>;
  /**
   * AskUserQuestion goes here instead of a permission dialog (form elicitation); absent
   * when the client cannot show forms (the tool is then disabled).
   */
  askQuestions?: (
    toolUse: { id: string; input: ToolInput; parentToolUseId: string | null },
    signal: AbortSignal,
  ) => Promise<PermissionResult>;
  /**
   * Lets the session act on a validated selection (a mode switch, a plan handoff).
   * A result it returns replaces the default one.
   */
  onSelected?: (
    effect: PermissionEffect,
    toolUse: { id: string; name: string; input: ToolInput },
  ) => Promise<PermissionResult | undefined>;
}

/**
 * The permission callback Claude Code calls before a tool runs. It follows the
 * lifecycle of permission-extension.md ("Request lifecycle"), steps 1-7 below.
 */
export function createCanUseTool(deps: PermissionGateDeps): CanUseTool {
  warmUpPermissionsSoon();
  return (toolName: string, input: ToolInput, sdk: CanUseToolContext) => {
    const turnSignal = deps.turnSignal();
    const sources = turnSignal ? [sdk.signal, turnSignal] : [sdk.signal];
    return withLinkedSignal(sources, async (signal) => {
      const result = await ask(deps, toolName, input, sdk, signal);
      const call = deps.tools.get(sdk.toolUseID);
      if (call && result.behavior === "deny") call.notRun = true;
      return result;
    });
  };
}

/** One ask; `signal` aborts when the tool call or the turn is cancelled. */
async function ask(
  deps: PermissionGateDeps,
  toolName: string,
  input: ToolInput,
  sdk: CanUseToolContext,
  signal: AbortSignal,
): Promise<PermissionResult> {
  // 1. An ask whose tool call is already aborted stops here.
  if (signal.aborted) return abortedResult();

  // 2. The client hears of the tool call before it is asked about it, after what Claude
  // said before it. A subagent's tool use is known from the stream, which carries its parent.
  await deps.shownBefore?.(sdk.toolUseID, signal);
  if (signal.aborted) return abortedResult();
  const parentToolUseId = deps.tools.get(sdk.toolUseID)?.parentToolUseId ?? null;
  const toolUse = { id: sdk.toolUseID, name: toolName, input, parentToolUseId };
  const call = deps.tools.upsert(toolUse.id, toolName, input, parentToolUseId);
  const toolCall = toolCallFromToolUse(toolUse, deps.context);
  // A subagent's calls and requests go to its child session when the client shows one.
  const client = deps.client.forThread(parentToolUseId);
  try {
    await deps.tools.ensureAnnounced(
      call,
      () => toolCall,
      (announcement) => client.sendToolCall(announcement),
    );
  } catch (error) {
    if (signal.aborted) return abortedResult();
    log.warn(`could not announce tool call ${toolUse.id}`, error);
    return deniedResult(CLIENT_FAILED);
  }

  if (toolName === QUESTION_TOOL && deps.askQuestions) {
    const result = await deps.askQuestions(toolUse, signal);
    if (result.behavior === "allow") markRunning(deps, call);
    return result;
  }
  await deps.beforeAsk?.(toolName, input);

  // 3. Validate and snapshot the suggestions: label and effect come from one copy.
  // 4. Presentation and ordered options, each paired with its effect.
  const workingDirectories = deps.workingDirectories();
  const { choices, params } = buildRequest(toolName, input, sdk, toolCall, {
    cwd: deps.context.cwd,
    homeDir: deps.homeDir,
    workingDirectories,
    plan: deps.planContext(),
  });

  // 5. Send with the tool call's cancellation signal; the client call also stops
  // waiting on abort, so a client that ignores cancellation cannot hold Claude.
  let response: unknown;
  try {
    response = await client.requestPermission(params, signal, workingDirectories);
  } catch (error) {
    if (signal.aborted) return abortedResult();
    // An answer over the message limit was not read: as good as a cancelled one.
    if (isUnreadAnswer(error)) {
      log.warn(`the answer to the permission request for ${toolUse.id} was over the limit`);
      return abortedResult();
    }
    log.warn(`permission request for ${toolUse.id} failed`, error);
    return deniedResult(CLIENT_FAILED);
  }
  if (signal.aborted) return abortedResult();

  // 6. Only an option offered in this exact request counts.
  const answer = parseClientAnswer(response);
  if (answer.kind === "cancelled") return abortedResult();
  const selected =
    answer.kind === "selected"
      ? choices.find((c) => c.option.optionId === answer.optionId)
      : undefined;
  if (answer.kind !== "selected" || !selected) return deniedResult(UNKNOWN_OPTION);

  // 7. Map the selection to the SDK result.
  const replaced = await deps.onSelected?.(selected.effect, toolUse);
  const feedback = selected.effect.type === "reject" ? answer.feedback : undefined;
  const result = replaced ?? resultOfEffect(selected.effect, input, feedback);
  if (result.behavior === "allow") markRunning(deps, call);
  return result;
}

/**
 * The tool is about to run: clients show it as in progress. Sent on the next turn of the
 * event loop, after the answer Claude Code waits for has gone out; not sent if the call
 * ended first (its final status then says more).
 */
function markRunning(deps: PermissionGateDeps, call: TrackedToolCall): void {
  call.status = "in_progress";
  setImmediate(() => {
    if (call.status !== "in_progress") return;
    deps.client
      .forThread(call.parentToolUseId)
      .updateToolCall({ toolCallId: call.id, status: "in_progress", _meta: claudeCodeMeta(call) })
      .catch((error: unknown) =>
        log.warn(`could not mark tool call ${call.id} in progress`, error),
      );
  });
}
