import type { AgentApp } from "@agentclientprotocol/sdk";
import { z } from "zod";
import {
  AIR_ASYNC_TASK_STOP_METHOD,
  AUTONOMOUS_TURN_PREFIX,
  readsAsyncTasks,
} from "../acp/air/async-tasks.js";
import type { AgentCore } from "../core/agent-core.js";
import { InvalidParamsError } from "../errors.js";
import { gated } from "./gated.js";

const stopParams = z.looseObject({
  sessionId: z.string().trim().min(1, "sessionId must be a non-empty string"),
  asyncTaskId: z.string().trim().min(1, "asyncTaskId must be a non-empty string"),
});

/** What the stop method needs of its connection. */
export interface AsyncTaskStopHost {
  core(): AgentCore;
  capabilities(): { _meta?: unknown };
}

/**
 * `_session/async_task/stop {sessionId, asyncTaskId}` → `{stopped}`, for an AIR client that
 * reads background tasks (acp/air/async-tasks.ts): a task's id is the tool call that started it,
 * so it stops as that call does (`_session/cancel_tool_call`); its end then comes as its state.
 * The task of a turn Claude Code started itself stops that turn, while no prompt runs or waits.
 * A task that is over, or that cannot be stopped, is `{stopped: false}`.
 */
export function asyncTaskStopRoute(app: AgentApp, host: AsyncTaskStopHost): AgentApp {
  return app.onRequest(
    AIR_ASYNC_TASK_STOP_METHOD,
    { parse: (params: unknown) => stopParams.parse(params) },
    gated(
      AIR_ASYNC_TASK_STOP_METHOD,
      () => readsAsyncTasks(host.capabilities()),
      (params: z.infer<typeof stopParams>) => {
        if (params.asyncTaskId.startsWith(AUTONOMOUS_TURN_PREFIX)) {
          const stopped = host.core().stopOwnTurn(params.sessionId, params.asyncTaskId);
          return Promise.resolve({ stopped });
        }
        try {
          host.core().stopToolCall(params.sessionId, params.asyncTaskId);
          return Promise.resolve({ stopped: true });
        } catch (error) {
          if (error instanceof InvalidParamsError) return Promise.resolve({ stopped: false });
          throw error;
        }
      },
    ),
  );
}
