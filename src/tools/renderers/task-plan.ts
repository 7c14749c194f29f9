import type { PlanEntry, PlanEntryStatus } from "@agentclientprotocol/sdk";
import { isRecord, recordsField, stringField } from "../input.js";
import { planEntry, planStatus } from "../plan-entry.js";
import type { ToolInput } from "../types.js";

interface Task {
  subject: string;
  status: PlanEntryStatus;
  activeForm?: string;
}

/**
 * One session's tasks as the Task* tools (and the TaskCreated/TaskCompleted hooks) report
 * them, so each change can be published as a full `plan` snapshot. Feed it successful
 * results only; Claude Code numbers tasks per session, so ids are the map keys.
 */
export class TaskPlan {
  private readonly tasks = new Map<string, Task>();

  /** The current plan, in creation order (or the order of the last TaskList). */
  entries(): PlanEntry[] {
    return [...this.tasks.values()].map((task) =>
      planEntry(task.subject, task.status, task.activeForm),
    );
  }

  /**
   * Applies a finished Task* tool call: its input and `tool_use_result`. Returns the full
   * plan when it changed, undefined when the call changed nothing (or was not a task tool).
   */
  applyToolResult(name: string, input: ToolInput, structured: unknown): PlanEntry[] | undefined {
    const before = JSON.stringify(this.entries());
    const result = isRecord(structured) ? structured : {};
    switch (name) {
      case "TaskCreate":
        this.create(result, input);
        break;
      case "TaskUpdate":
        this.update(result, input);
        break;
      case "TaskList":
        this.replaceAll(recordsField(result, "tasks"));
        break;
      case "TaskGet":
        if (isRecord(result.task)) this.merge(result.task);
        break;
      default:
        return undefined;
    }
    const after = this.entries();
    return JSON.stringify(after) === before ? undefined : after;
  }

  /** The TaskCreated hook: a task exists (created here or by a teammate). */
  created(id: string, subject: string): PlanEntry[] {
    this.tasks.set(id, { status: "pending", ...this.tasks.get(id), subject });
    return this.entries();
  }

  /** The TaskCompleted hook. */
  completed(id: string, subject: string): PlanEntry[] {
    this.tasks.set(id, { ...this.tasks.get(id), subject, status: "completed" });
    return this.entries();
  }

  private create(result: Record<string, unknown>, input: ToolInput): void {
    const task = isRecord(result.task) ? result.task : undefined;
    const id = task && stringField(task, "id");
    const subject = (task && stringField(task, "subject")) ?? stringField(input, "subject");
    if (!id || subject === undefined) return;
    this.tasks.set(id, {
      subject,
      status: "pending",
      activeForm: stringField(input, "activeForm"),
    });
  }

  private update(result: Record<string, unknown>, input: ToolInput): void {
    const id = stringField(result, "taskId") ?? stringField(input, "taskId");
    if (result.success === false || !id) return;
    const status = stringField(input, "status");
    if (status === "deleted") {
      this.tasks.delete(id);
      return;
    }
    const known = this.tasks.get(id);
    const subject = stringField(input, "subject") ?? known?.subject;
    // An update to a task this map never saw cannot be shown without its subject.
    if (subject === undefined) return;
    this.tasks.set(id, {
      subject,
      status: status === undefined ? (known?.status ?? "pending") : planStatus(status),
      activeForm: stringField(input, "activeForm") ?? known?.activeForm,
    });
  }

  /** TaskList is the whole truth: tasks it does not list are gone. */
  private replaceAll(listed: Record<string, unknown>[]): void {
    const previous = new Map(this.tasks);
    this.tasks.clear();
    for (const task of listed) this.merge(task, previous);
  }

  private merge(task: Record<string, unknown>, known: Map<string, Task> = this.tasks): void {
    const id = stringField(task, "id");
    const subject = stringField(task, "subject");
    if (!id || subject === undefined) return;
    this.tasks.set(id, {
      subject,
      status: planStatus(task.status),
      activeForm: known.get(id)?.activeForm,
    });
  }
}

/**
 * The structured output of a Task* call rebuilt from its result text, for conversations
 * read back from a transcript (which keeps only the text): "Task #1 created
 * successfully: <subject>" and TaskList's "#1 [in_progress] <subject>" lines.
 */
export function taskResultFromText(
  name: string,
  block: { content?: unknown },
): Record<string, unknown> | undefined {
  const text =
    typeof block.content === "string"
      ? block.content
      : Array.isArray(block.content)
        ? block.content
            .map((part: unknown) =>
              isRecord(part) && typeof part.text === "string" ? part.text : "",
            )
            .join("\n")
        : "";
  if (name === "TaskCreate") {
    const match = /^Task #(\S+) created successfully: (.*)$/m.exec(text);
    return match ? { task: { id: match[1], subject: match[2] } } : undefined;
  }
  if (name === "TaskList") {
    const tasks = [...text.matchAll(/^#(\S+) \[([a-z_]+)\] (.*)$/gm)].map((m) => ({
      id: m[1],
      status: m[2],
      subject: m[3],
    }));
    return { tasks };
  }
  if (name === "TaskUpdate") return { success: true };
  return undefined;
}
