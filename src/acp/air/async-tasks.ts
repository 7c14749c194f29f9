// AIR's background tasks (`asyncTasks`, advertised; used once declared), as AIR and the
// published adapter speak them: a command moved to the background, a workflow, a monitor: each
// is announced with `async_task_spawned` in the session that started it, and ends with
// `async_task_state_update`. Subagents are child sessions, never tasks. A task's id here is the
// tool call that started it, so `_session/async_task/stop` stops it as that call is stopped.
import { AIR_CAPABILITIES, airDeclares } from "./extension.js";
import { cleanMultiline, cleanSingleLine } from "../../util/text.js";

export const AIR_ASYNC_TASK_STOP_METHOD = "_session/async_task/stop";

/** A background task as the session reports it, in plain values. */
export interface BackgroundTask {
  id: string;
  /** `shell`, `workflow`, `monitor`, or Claude Code's own name of its kind. */
  taskType: string;
  name: string;
  description: string;
  showInTranscript: boolean;
  canStop: boolean;
  toolCallId?: string;
}

/** How a task ended, or that it paused or runs again. */
export type TaskState = "running" | "paused" | "completed" | "failed" | "stopped";

/** AIR's updates of a task. */
export type AirTaskUpdate =
  | ({ sessionUpdate: "async_task_spawned"; asyncTaskId: string } & Omit<BackgroundTask, "id">)
  | {
      sessionUpdate: "async_task_state_update";
      asyncTaskId: string;
      state: TaskState;
      summary?: string;
    };

/** Whether the client reads background tasks in AIR's shape. */
export function readsAsyncTasks(capabilities: { _meta?: unknown }): boolean {
  return airDeclares(capabilities, AIR_CAPABILITIES.asyncTasks);
}

/** The announcement of a task; Claude Code's words cleaned. */
export function asyncTaskSpawned(task: BackgroundTask): AirTaskUpdate {
  const { id, ...fields } = task;
  return {
    sessionUpdate: "async_task_spawned",
    asyncTaskId: id,
    ...fields,
    name: cleanSingleLine(task.name) || "Background task",
    description: cleanMultiline(task.description).trim() || "Background task",
  };
}

/** A task's new state, with Claude Code's summary of it when there is one (cleaned). */
export function asyncTaskState(id: string, state: TaskState, summary?: string): AirTaskUpdate {
  const said = summary ? cleanMultiline(summary).trim() : "";
  return {
    sessionUpdate: "async_task_state_update",
    asyncTaskId: id,
    state,
    ...(said ? { summary: said } : {}),
  };
}
