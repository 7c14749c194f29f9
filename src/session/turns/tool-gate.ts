import type { SessionClient } from "../../acp/session-client.js";
import type { CanUseTool } from "../../claude/types.js";
import type { PlanContext } from "../../permissions/choices.js";
import { isAirClient } from "../../acp/air/extension.js";
import { askQuestions } from "../../questions/ask.js";
import type { ToolContext } from "../../tools/types.js";
import { createCanUseTool } from "./permission-request.js";
import type { PlanHandoffs } from "./plan-handoffs.js";
import type { StreamProgress } from "../stream/stream-progress.js";
import type { ToolCallTracker } from "../stream/tool-calls.js";
import type { Turn } from "./turn.js";

/** Claude Code's capability for reporting how a question went unanswered. */
const UNANSWERED_CAPABILITY = "ask_user_question_unanswered_v1";

/** What a session's permission callback needs of the session. */
export interface ToolGateHost {
  client: SessionClient;
  tools: ToolCallTracker;
  context: ToolContext;
  homeDir: string;
  workingDirectories: readonly string[];
  currentTurn: () => Turn | undefined;
  /** The plan approval's context but the plan text, which the running turn holds. */
  planContext: () => Omit<PlanContext, "planText">;
  plans: PlanHandoffs;
  /** How far Claude Code's messages are shown. */
  progress: StreamProgress;
  /** What Claude Code said it supports at its start. */
  claudeCapabilities: () => readonly string[];
}

/**
 * The callback Claude Code asks before a tool runs (permission-request.ts), wired to the
 * session: its running turn's cancellation, its plan handoffs, and its questions as form
 * elicitation when the client shows forms.
 */
export function sessionCanUseTool(host: ToolGateHost): CanUseTool {
  const { client } = host;
  return createCanUseTool({
    client,
    tools: host.tools,
    context: host.context,
    homeDir: host.homeDir,
    shownBefore: (toolUseId, signal) =>
      host.progress.caughtUp(() => host.tools.get(toolUseId)?.streamed === true, signal),
    turnSignal: () => host.currentTurn()?.abort.signal,
    workingDirectories: () => host.workingDirectories,
    planContext: () => ({ ...host.planContext(), planText: host.currentTurn()?.planText ?? "" }),
    beforeAsk: (toolName, input) => host.plans.beforeAsk(toolName, input),
    onSelected: (effect, toolUse) => host.plans.onSelected(effect, toolUse),
    askQuestions: client.supportsFormElicitation
      ? (toolUse, signal) =>
          askQuestions(
            {
              elicit: (request, s) =>
                client.forThread(toolUse.parentToolUseId).elicitForm(request, s),
              reportsUnanswered: () => host.claudeCapabilities().includes(UNANSWERED_CAPABILITY),
              air: isAirClient(client.capabilities),
            },
            toolUse.id,
            toolUse.input,
            signal,
          )
      : undefined,
  });
}
