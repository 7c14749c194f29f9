// AIR's goal extension (advertised to AIR as `goal {version, controlMethod, actions}`), as AIR
// and the published adapter speak it: `_session/goal {sessionId, action: "set", objective}` or
// `{sessionId, action: "clear"}` sets or clears Claude Code's own goal (its `/goal` command: a
// condition it checks before it stops), and a `session_info_update` with
// `_meta.jetbrains.air.goal` tells AIR the goal as it is, or null once there is none.
import { z } from "zod";
import { cleanMultiline } from "../../util/text.js";
import { AIR_GOAL_METHOD, withAirMeta } from "./extension.js";

export { AIR_GOAL_METHOD };

const sessionId = z.string().trim().min(1, "goal params require a non-empty sessionId");
const goalRequest = z.discriminatedUnion("action", [
  z.looseObject({
    sessionId,
    action: z.literal("set"),
    objective: z.string().trim().min(1, 'goal action "set" requires a non-empty objective'),
  }),
  z.looseObject({ sessionId, action: z.literal("clear") }),
]);
export type GoalRequest = z.infer<typeof goalRequest>;

export const airGoalParams = { parse: (params: unknown): GoalRequest => goalRequest.parse(params) };

/** The command that does what a request asks: Claude Code's `/goal`. */
export function goalCommand(request: GoalRequest): string {
  return request.action === "set" ? `/goal ${request.objective}` : "/goal clear";
}

/** A goal as Claude Code reports it, in plain values. */
export interface GoalState {
  condition: string;
  iterations?: number;
  setAt?: number;
  lastReason?: string;
}

/** `_meta` telling AIR the goal (null: none). Claude Code's words are cleaned. */
export function airGoalMeta(goal: GoalState | null): Record<string, unknown> {
  const snapshot = goal && {
    objective: cleanMultiline(goal.condition).trim(),
    status: "active",
    ...(goal.iterations !== undefined ? { iterations: goal.iterations } : {}),
    ...(goal.lastReason !== undefined ? { lastReason: cleanMultiline(goal.lastReason) } : {}),
    ...(goal.setAt !== undefined ? { createdAt: goal.setAt } : {}),
    controlMethod: AIR_GOAL_METHOD,
  };
  return withAirMeta(undefined, "goal", snapshot);
}
