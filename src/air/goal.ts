import type { AgentApp } from "@agentclientprotocol/sdk";
import { isAirClient } from "../acp/air/extension.js";
import {
  AIR_GOAL_METHOD,
  airGoalMeta,
  airGoalParams,
  goalCommand,
  type GoalRequest,
} from "../acp/air/goal.js";
import type { SessionNotificationOut } from "../acp/channel.js";
import { PROMPT_REQUIRED } from "../acp/steering.js";
import type { AgentCore } from "../core/agent-core.js";
import { gated } from "./gated.js";

/** What the goal method needs of its connection. */
export interface AirGoalHost {
  core(): AgentCore;
  capabilities(): { _meta?: unknown };
  update(notification: SessionNotificationOut): Promise<void>;
}

/**
 * `_session/goal` (acp/air/goal.ts), for an AIR client: Claude Code's `/goal` joins the turn
 * that runs (answered at once), or runs as a turn of its own (answered when it ends), as the
 * published adapter does. AIR hears the goal asked for at once; Claude Code's own reports of it
 * follow (its iterations, its clearing once met).
 */
export function airGoalRoute(app: AgentApp, host: AirGoalHost): AgentApp {
  return app.onRequest(
    AIR_GOAL_METHOD,
    airGoalParams,
    gated(
      AIR_GOAL_METHOD,
      () => isAirClient(host.capabilities()),
      async (params: GoalRequest) => {
        const { sessionId } = params;
        const core = host.core();
        const prompt = [{ type: "text" as const, text: goalCommand(params) }];
        const steered = core.steer(sessionId, prompt, PROMPT_REQUIRED);
        const goal = params.action === "set" ? { condition: params.objective } : null;
        await host.update({
          sessionId,
          update: { sessionUpdate: "session_info_update", _meta: airGoalMeta(goal) },
        });
        if (steered.outcome === "promptRequired") await core.prompt(sessionId, prompt);
        return {};
      },
    ),
  );
}
