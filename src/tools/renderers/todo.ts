import type { PlanEntry } from "@agentclientprotocol/sdk";
import { nonBlankField, recordsField, stringField } from "../input.js";
import { planEntry, planStatus } from "../plan-entry.js";
import { defaultResult } from "../result-content.js";
import type { ToolFamily, ToolInput, ToolRenderer } from "../types.js";

export { TaskPlan, taskResultFromText } from "./task-plan.js";

/** TodoWrite's `todos` as an ACP plan; malformed entries are skipped. */
export function planEntriesFromTodos(input: ToolInput): PlanEntry[] {
  return recordsField(input, "todos").flatMap((todo) => {
    const content = nonBlankField(todo, "content");
    if (!content) return [];
    return [planEntry(content, planStatus(todo.status), stringField(todo, "activeForm"))];
  });
}

/** Titles of the todo and task tools; their progress reaches clients as `plan` updates. */
const render: ToolRenderer = (input, _context, name) => {
  const subject = nonBlankField(input, "subject");
  let title: string;
  switch (name) {
    case "TodoWrite": {
      const todos = recordsField(input, "todos").flatMap(
        (todo) => nonBlankField(todo, "content") ?? [],
      );
      title = todos.length ? `Update TODOs: ${todos.join(", ")}` : "Update TODOs";
      break;
    }
    case "TaskCreate":
      title = subject ? `Create task: ${subject}` : "Create task";
      break;
    case "TaskUpdate":
      title = subject ? `Update task: ${subject}` : "Update task";
      break;
    case "TaskList":
      title = "List tasks";
      break;
    case "TaskGet":
      title = "Get task";
      break;
    case "TaskStop": {
      // It stops a background command or agent, not a planned task.
      const id = nonBlankField(input, "task_id") ?? nonBlankField(input, "shell_id");
      return { kind: "other", title: id ? `Stop task ${id}` : name, content: [], locations: [] };
    }
    default:
      title = name;
  }
  return { kind: "think", title, content: [], locations: [] };
};

/** A TodoWrite result is the plan update itself; the task tools' short answers are shown. */
export const todoFamily: ToolFamily = {
  render,
  result: (view) => (view.name === "TodoWrite" ? { content: [] } : defaultResult(view)),
};

/**
 * Tools whose progress is the plan itself: the stream shows them as `plan` updates,
 * not as tool calls (a permission ask for one still shows its tool call).
 */
export const PLAN_TOOLS: ReadonlySet<string> = new Set([
  "TodoWrite",
  "TaskCreate",
  "TaskUpdate",
  "TaskList",
  "TaskGet",
]);
