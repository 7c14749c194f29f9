// AIR's background tasks (`asyncTasks`, advertised; used once declared), as AIR and the
// published adapter speak them: a command moved to the background, a workflow, a monitor: each
// is announced with `async_task_spawned` in the session that started it, reports its progress
// with `async_task_progress` (only what changed), and ends with `async_task_state_update`; a
// turn Claude Code starts itself is a task of its own while it runs.
// Subagents are child sessions, never tasks. A task's id here is the tool call that started it,
// so `_session/async_task/stop` stops it as that call is stopped.
import { randomUUID } from "node:crypto";
import { isAbsolute } from "node:path";
import type { ToolCallUpdate } from "@agentclientprotocol/sdk";
import { AIR_CAPABILITIES, airDeclares, withAirMeta } from "./extension.js";
import { toolNameOf } from "./tool-calls.js";
import { isRecord } from "../../util/records.js";
import { redact } from "../../util/secrets.js";
import { cleanMultiline, cleanSingleLine, isCleanPath } from "../../util/text.js";

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

/** What a task reports of its progress, as Claude Code says it. */
export interface TaskProgress {
  description?: string;
  summary?: string;
  lastToolName?: string;
  usage?: { totalTokens: number; toolUses: number; durationMs: number };
}

/** AIR's updates of a task. */
export type AirTaskUpdate =
  | ({ sessionUpdate: "async_task_spawned"; asyncTaskId: string } & Omit<BackgroundTask, "id">)
  | ({ sessionUpdate: "async_task_progress"; asyncTaskId: string } & TaskProgress)
  | {
      sessionUpdate: "async_task_state_update";
      asyncTaskId: string;
      state: TaskState;
      summary?: string;
      outputFilePath?: string;
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

/**
 * A task's new state, with Claude Code's summary of it when there is one (cleaned), and the
 * file its output is in when that is an absolute path shown as it is.
 */
export function asyncTaskState(
  id: string,
  state: TaskState,
  summary?: string,
  outputFile?: string,
): AirTaskUpdate {
  const said = summary ? cleanMultiline(summary).trim() : "";
  const file = outputFile && isAbsolute(outputFile) && isCleanPath(outputFile);
  return {
    sessionUpdate: "async_task_state_update",
    asyncTaskId: id,
    state,
    ...(said ? { summary: said } : {}),
    ...(file ? { outputFilePath: outputFile } : {}),
  };
}

/** A task's progress as AIR reads it: Claude Code's words cleaned, blank ones left out. */
export function shownProgress(progress: TaskProgress): TaskProgress {
  const description = progress.description && cleanMultiline(progress.description).trim();
  const summary = progress.summary && cleanMultiline(progress.summary).trim();
  const lastToolName = progress.lastToolName && cleanSingleLine(progress.lastToolName);
  return {
    ...(description ? { description } : {}),
    ...(summary ? { summary } : {}),
    ...(lastToolName ? { lastToolName } : {}),
    ...(progress.usage ? { usage: progress.usage } : {}),
  };
}

/**
 * The progress update of what changed since `before` (what was last sent), or undefined when
 * nothing did: a beat with nothing new is not sent.
 */
export function asyncTaskProgress(
  id: string,
  before: TaskProgress,
  now: TaskProgress,
): AirTaskUpdate | undefined {
  const changed = Object.fromEntries(
    Object.entries(now).filter(
      ([key, value]) => JSON.stringify(value) !== JSON.stringify(before[key as keyof TaskProgress]),
    ),
  ) as TaskProgress;
  if (Object.keys(changed).length === 0) return undefined;
  return { sessionUpdate: "async_task_progress", asyncTaskId: id, ...changed };
}

/** The id prefix of the task AIR shows while Claude Code runs a turn it started itself. */
export const AUTONOMOUS_TURN_PREFIX = "autonomous-turn-";

/**
 * The task of a turn Claude Code started itself (a background task's result, a wake-up), for
 * a client that reads tasks: shown in AIR's task panel, not its transcript, where the turn's
 * own messages go. `_session/async_task/stop` interrupts the turn while no prompt runs or
 * waits; it then ends `stopped`.
 */
export class OwnTurnTask {
  /** The running turn's task id. */
  private id: string | undefined;

  constructor(private readonly capabilities: { _meta?: unknown }) {}

  /** The turn started: its announcement, or nothing (one runs already, or no task is read). */
  started(): AirTaskUpdate | undefined {
    if (this.id || !readsAsyncTasks(this.capabilities)) return undefined;
    this.id = `${AUTONOMOUS_TURN_PREFIX}${randomUUID()}`;
    return {
      sessionUpdate: "async_task_spawned",
      asyncTaskId: this.id,
      name: "Claude is working",
      taskType: "turn",
      description: "Claude Code started a turn without a prompt.",
      showInTranscript: false,
      canStop: true,
    };
  }

  /** Whether `id` names the task of the turn that runs now. */
  is(id: string): boolean {
    return this.id !== undefined && id === this.id;
  }

  /** The turn ended, as `end` says (a cancelled one was stopped): its task's end, if announced. */
  ended(end: { stopReason: string } | { error: Error }): AirTaskUpdate | undefined {
    const { id } = this;
    if (!id) return undefined;
    this.id = undefined;
    if ("error" in end) {
      // Claude Code's or a gateway's words: no secret the agent holds is shown.
      return asyncTaskState(id, "failed", redact(end.error.message));
    }
    return asyncTaskState(id, end.stopReason === "cancelled" ? "stopped" : "completed");
  }
}

/** The command tools whose call can go on in the background. */
const COMMAND_TOOLS: ReadonlySet<string> = new Set(["Bash", "PowerShell"]);

/**
 * AIR's mark of a command that went on in the background (`asyncTasks {backgrounded: true}` on
 * its completed call): its life is then its task's. Structured facts alone decide it: the
 * result names the task (`backgroundTaskId`), or the call asked for the background
 * (`run_in_background`) and did not fail.
 */
export class BackgroundedCommands {
  /** The calls that asked for the background, until their result. */
  private readonly asked = new Set<string>();

  constructor(private readonly capabilities: { _meta?: unknown }) {}

  /** The update, marked when it completes a command that went on in the background. */
  mark<T extends ToolCallUpdate>(fields: T): T {
    const name = toolNameOf(fields);
    if (!name || !COMMAND_TOOLS.has(name) || !readsAsyncTasks(this.capabilities)) return fields;
    const id = fields.toolCallId;
    if (isRecord(fields.rawInput) && fields.rawInput.run_in_background === true) this.asked.add(id);
    if (fields.status !== "completed" && fields.status !== "failed") return fields;
    const asked = this.asked.delete(id);
    const named =
      isRecord(fields.rawOutput) && typeof fields.rawOutput.backgroundTaskId === "string";
    if (fields.status !== "completed" || !(asked || named)) return fields;
    const meta = isRecord(fields._meta) ? fields._meta : undefined;
    return { ...fields, _meta: withAirMeta(meta, "asyncTasks", { backgrounded: true }) };
  }
}
