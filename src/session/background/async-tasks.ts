// Claude Code's background tasks as a client that reads them hears of them (JetBrains AIR's
// asyncTasks, acp/air/async-tasks.ts): a command moved to the background, a workflow, a monitor.
// Each is announced once, in the session of the thread that started it, and its progress and
// state follow as Claude Code reports them; a subagent is a child session, never a task.
import type { BackgroundTask, TaskProgress, TaskState } from "../../acp/air/async-tasks.js";
import {
  asyncTaskProgress,
  asyncTaskSpawned,
  asyncTaskState,
  shownProgress,
} from "../../acp/air/async-tasks.js";
import type { SessionClient } from "../../acp/session-client.js";
import type { SystemMessage } from "../../claude/types.js";
import { STOPPABLE_TOOLS } from "../../tools/index.js";
import type { ToolCallTracker } from "../stream/tool-calls.js";

type TaskMessage = Extract<
  SystemMessage,
  { subtype: "task_started" | "task_updated" | "task_progress" | "task_notification" }
>;
type Progress = Extract<SystemMessage, { subtype: "task_progress" }>;
type Started = Extract<SystemMessage, { subtype: "task_started" }>;

export interface AsyncTaskHost {
  readonly client: SessionClient;
  readonly tools: ToolCallTracker;
  send(update: () => Promise<void>): Promise<void>;
}

/** Claude Code's task states in AIR's words. */
const STATES: Readonly<Record<string, TaskState>> = {
  pending: "running",
  running: "running",
  paused: "paused",
  completed: "completed",
  failed: "failed",
  killed: "stopped",
  stopped: "stopped",
};
const FINAL: ReadonlySet<TaskState> = new Set(["completed", "failed", "stopped"]);

interface Tracked {
  /** What it is announced as, once it is a background task. */
  task: BackgroundTask;
  thread: string | null;
  announced: boolean;
  ended: boolean;
  /** The progress last sent: the next report sends only what changed. */
  progress: TaskProgress;
}

export class AsyncTaskReports {
  /** The tasks this session has, by Claude Code's task id (subagents aside). */
  private readonly tasks = new Map<string, Tracked>();

  constructor(private readonly host: AsyncTaskHost) {}

  async observe(message: SystemMessage): Promise<void> {
    if (!isTaskMessage(message)) return;
    if (message.subtype === "task_started") return this.started(message);
    const tracked = this.tasks.get(message.task_id);
    if (!tracked) return;
    if (message.subtype === "task_updated") {
      if (message.patch.is_backgrounded) await this.announce(tracked);
      const state = message.patch.status && STATES[message.patch.status];
      if (state) await this.state(tracked, state, message.patch.error);
    } else if (message.subtype === "task_progress") {
      await this.progressed(tracked, message);
    } else {
      const { status, summary, output_file } = message;
      await this.state(tracked, STATES[status] ?? "completed", summary, output_file);
    }
    // A task that ended is forgotten: nothing of it follows.
    if (tracked.ended || message.subtype === "task_notification")
      this.tasks.delete(message.task_id);
  }

  private async started(message: Started): Promise<void> {
    if (message.task_type === "local_agent" || message.subagent_type) return;
    const call = message.tool_use_id ? this.host.tools.get(message.tool_use_id) : undefined;
    const kind = kindOf(message);
    const tracked: Tracked = {
      task: {
        id: message.tool_use_id ?? message.task_id,
        taskType: kind,
        name: (kind === "workflow" && message.workflow_name) || message.description,
        description: message.description,
        showInTranscript: kind !== "monitor" && message.skip_transcript !== true,
        // Stopped as its tool call is (`_session/async_task/stop`): a command's can be.
        canStop: kind !== "monitor" && call !== undefined && STOPPABLE_TOOLS.has(call.name),
        ...(message.tool_use_id ? { toolCallId: message.tool_use_id } : {}),
      },
      thread: call?.parentToolUseId ?? null,
      announced: false,
      ended: false,
      progress: {},
    };
    this.tasks.set(message.task_id, tracked);
    // A command is a task of the turn until it goes on in the background.
    const background =
      kind === "shell" ? message.is_backgrounded === true : message.is_backgrounded !== false;
    if (background) await this.announce(tracked);
  }

  private async announce(tracked: Tracked): Promise<void> {
    if (tracked.announced) return;
    tracked.announced = true;
    const client = this.host.client.forThread(tracked.thread);
    await this.host.send(() => client.updateTask(asyncTaskSpawned(tracked.task)));
  }

  private async state(
    tracked: Tracked,
    state: TaskState,
    summary?: string,
    outputFile?: string,
  ): Promise<void> {
    if (tracked.ended) return;
    tracked.ended = FINAL.has(state);
    if (!tracked.announced) return;
    const client = this.host.client.forThread(tracked.thread);
    const update = asyncTaskState(tracked.task.id, state, summary, outputFile);
    await this.host.send(() => client.updateTask(update));
  }

  /** Claude Code's beat of a running task: what changed since the last one is sent. */
  private async progressed(tracked: Tracked, message: Progress): Promise<void> {
    if (tracked.ended || !tracked.announced) return;
    const { usage } = message;
    const numbers = usage && [usage.total_tokens, usage.tool_uses, usage.duration_ms];
    const now = shownProgress({
      description: message.description,
      ...(message.summary !== undefined ? { summary: message.summary } : {}),
      ...(message.last_tool_name !== undefined ? { lastToolName: message.last_tool_name } : {}),
      // Only a whole count is shown.
      ...(numbers?.every((n) => typeof n === "number")
        ? {
            usage: {
              totalTokens: usage.total_tokens,
              toolUses: usage.tool_uses,
              durationMs: usage.duration_ms,
            },
          }
        : {}),
    });
    const update = asyncTaskProgress(tracked.task.id, tracked.progress, now);
    tracked.progress = { ...tracked.progress, ...now };
    if (!update) return;
    const client = this.host.client.forThread(tracked.thread);
    await this.host.send(() => client.updateTask(update));
  }
}

function isTaskMessage(message: SystemMessage): message is TaskMessage {
  return ["task_started", "task_updated", "task_progress", "task_notification"].includes(
    message.subtype,
  );
}

/** AIR's kind of a task. */
function kindOf(message: Started): string {
  switch (message.task_type) {
    case "local_bash":
      return "shell";
    case "local_workflow":
      return "workflow";
    case "local_monitor":
    case "mcp":
      return "monitor";
    default:
      return message.task_type ?? "task";
  }
}
