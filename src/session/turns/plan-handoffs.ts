import type { ClaudeQuery } from "../../claude/query.js";
import type { PermissionResult, SDKAssistantMessage } from "../../claude/types.js";
import type { PermissionEffect } from "../../permissions/choices.js";
import { HANDOFF_DENIAL, implementPlanPrompt, type PlanHandoff } from "../../plan/handoff.js";
import { PlanFileTracker } from "../../plan/plan-file.js";
import type { SessionConfiguration } from "../configuration/configuration.js";
import type { ToolCallTracker } from "../stream/tool-calls.js";
import type { Turn } from "./turn.js";
import { resendSteers } from "./steering.js";
import { inertMentions } from "./mentions.js";
import { userMessage } from "./turn-queue.js";

/** What plan approval needs from its session. */
export interface PlanHandoffHost {
  /** The user's turn that runs, if any. */
  currentTurn(): Turn | undefined;
  readonly tools: ToolCallTracker;
  configuration(): SessionConfiguration;
  /** Sends an update; a client that went away is logged, not fatal to the turn. */
  send(update: () => Promise<void>): Promise<void>;
  /** Drops the private conversation and starts a new one in `mode`. */
  newConversation(mode: PlanHandoff["mode"]): ClaudeQuery;
}

/**
 * Plan approval (ExitPlanMode): the plan text the ask shows, the mode the choice switches
 * to, and the clear-context handoff, where the plan goes on in a new conversation within
 * the same ACP turn.
 */
export class PlanHandoffs {
  private readonly planFile: PlanFileTracker;

  constructor(
    private readonly host: PlanHandoffHost,
    plansDirectory: string,
  ) {
    this.planFile = new PlanFileTracker(plansDirectory);
  }

  /** The main thread's tool uses: writes to the plan file are followed. */
  observe(content: SDKAssistantMessage["message"]["content"]): void {
    for (const block of content) {
      if (block.type === "tool_use" && typeof block.input === "object" && block.input) {
        this.planFile.observe(block.name, block.input as Record<string, unknown>);
      }
    }
  }

  /** Before an ask is built: ExitPlanMode needs the complete plan for its options. */
  async beforeAsk(toolName: string, input: Record<string, unknown>): Promise<void> {
    const turn = this.host.currentTurn();
    if (toolName === "ExitPlanMode" && turn) {
      turn.planText = await this.planFile.planText(input);
    }
  }

  /** A validated plan-mode choice: switch the mode, or hand the plan to a new conversation. */
  async onSelected(
    effect: PermissionEffect,
    toolUse: { id: string; name: string; input: Record<string, unknown> },
  ): Promise<PermissionResult | undefined> {
    if (effect.type !== "exitPlan") return undefined;
    const turn = this.host.currentTurn();
    if (effect.clearContext && turn) {
      turn.handoff = { plan: turn.planText ?? "", mode: effect.mode, toolUseId: toolUse.id };
      this.host.tools.completeSilently(toolUse.id);
      return { behavior: "deny", message: HANDOFF_DENIAL, interrupt: true };
    }
    await this.host.send(() => this.host.configuration().modeChanged(effect.mode));
    return undefined;
  }

  /**
   * At the end of Claude's turn: a pending clear-context handoff drops the old private
   * conversation, a new one starts in the chosen mode with the plan as its first prompt,
   * and the same ACP turn goes on (true).
   */
  async continueTurn(turn: Turn): Promise<boolean> {
    const handoff = turn.handoff;
    if (!handoff || turn.cancelRequested) return false;
    turn.handoff = undefined;
    turn.apiError = undefined;
    await this.host.send(() => this.host.configuration().modeChanged(handoff.mode));
    const query = this.host.newConversation(handoff.mode);
    // The plan is Claude's text, not the user's: the mentions in it are made inert, so
    // the new conversation reads no file unasked (its first prompt is the last block).
    const text = implementPlanPrompt(inertMentions(handoff.plan));
    query.send(userMessage([{ type: "text", text }], turn));
    resendSteers(turn, query);
    return true;
  }
}
