/** How a clear-context choice continues: the plan becomes the first prompt of a new conversation. */
export const IMPLEMENT_PLAN_PREFIX = "Implement the following plan:";

export function implementPlanPrompt(plan: string): string {
  return `${IMPLEMENT_PLAN_PREFIX}\n\n${plan.trim()}`;
}

/**
 * What the old conversation's Claude is told as it is interrupted; the client never sees
 * it (the ExitPlanMode tool call ends completed).
 */
export const HANDOFF_DENIAL =
  "The user approved the plan and chose to clear the context: the plan continues in a new conversation.";

/** A pending clear-context handoff of one turn. */
export interface PlanHandoff {
  plan: string;
  mode: "auto" | "bypassPermissions" | "acceptEdits" | "default";
  toolUseId: string;
}
