import { readFileSync } from "node:fs";
import type { PlanEntry } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import type { ToolInput } from "../../../tools/index.js";
import {
  TaskPlan,
  planEntriesFromTodos,
  taskResultFromText,
} from "../../../tools/renderers/todo.js";

interface Recorded {
  name: string;
  input: ToolInput;
  structured: unknown;
}

function fixture<T>(name: string): T {
  return JSON.parse(
    readFileSync(new URL(`../../fixtures/tools/${name}.json`, import.meta.url), "utf8"),
  ) as T;
}

function entry(content: string, status: PlanEntry["status"]): PlanEntry {
  return { content, status, priority: "medium" };
}

describe("planEntriesFromTodos", () => {
  it("an in-progress todo shows its active form, the others their content (recorded TodoWrite)", () => {
    const recorded = fixture<Recorded>("todo-write");
    expect(planEntriesFromTodos(recorded.input)).toEqual([
      entry("Writing tests", "in_progress"),
      entry("Ship", "pending"),
    ]);
  });

  it.each([
    ["no todos field", {}, []],
    ["todos not an array", { todos: "x" }, []],
    ["entries without content are skipped", { todos: [{ status: "pending" }, 3, null], x: 1 }, []],
    [
      "an unknown status counts as pending",
      { todos: [{ content: "a", status: "blocked", activeForm: "A" }] },
      [entry("a", "pending")],
    ],
    [
      "in progress without an active form shows the content",
      { todos: [{ content: "a", status: "in_progress" }] },
      [entry("a", "in_progress")],
    ],
    [
      "completed keeps the content",
      { todos: [{ content: "a", status: "completed", activeForm: "A" }] },
      [entry("a", "completed")],
    ],
    [
      "text is cleaned to one line",
      { todos: [{ content: "a\u001b[31m\nb", status: "pending", activeForm: "" }] },
      [entry("a b", "pending")],
    ],
  ] as const)("%s", (_rule, input, entries) => {
    expect(planEntriesFromTodos(input)).toEqual(entries);
  });
});

describe("TaskPlan keeps a session's tasks as full plan snapshots", () => {
  it("follows the recorded TaskCreate/TaskUpdate/TaskList/TaskGet sequence", () => {
    const plan = new TaskPlan();
    const snapshots = fixture<Recorded[]>("tasks").map((call) =>
      plan.applyToolResult(call.name, call.input, call.structured),
    );
    expect(snapshots).toEqual([
      // TaskCreate #1
      [entry("Write tests", "pending")],
      // TaskCreate #2
      [entry("Write tests", "pending"), entry("Ship it", "pending")],
      // TaskUpdate #1 in_progress: the active form from its creation
      [entry("Writing tests", "in_progress"), entry("Ship it", "pending")],
      // TaskList and TaskGet agree: nothing changed
      undefined,
      undefined,
      // TaskUpdate #2 deleted
      [entry("Writing tests", "in_progress")],
    ]);
  });

  it("TaskList is the whole truth: unlisted tasks go, listed ones come, active forms stay", () => {
    const plan = new TaskPlan();
    plan.applyToolResult(
      "TaskCreate",
      { subject: "a", activeForm: "doing a" },
      { task: { id: "1", subject: "a" } },
    );
    plan.applyToolResult("TaskCreate", { subject: "b" }, { task: { id: "2", subject: "b" } });
    expect(
      plan.applyToolResult(
        "TaskList",
        {},
        {
          tasks: [
            { id: "3", subject: "c", status: "completed", blockedBy: [] },
            { id: "1", subject: "a", status: "in_progress", blockedBy: [] },
          ],
        },
      ),
    ).toEqual([entry("c", "completed"), entry("doing a", "in_progress")]);
  });

  it("a failed update or a non-task tool changes nothing", () => {
    const plan = new TaskPlan();
    plan.applyToolResult("TaskCreate", { subject: "a" }, { task: { id: "1", subject: "a" } });
    expect(
      plan.applyToolResult(
        "TaskUpdate",
        { taskId: "1", status: "completed" },
        { success: false, taskId: "1", updatedFields: [], error: "Task not found" },
      ),
    ).toBeUndefined();
    expect(plan.applyToolResult("Bash", { command: "ls" }, {})).toBeUndefined();
    expect(plan.applyToolResult("TaskCreate", {}, "Error: bad")).toBeUndefined();
    expect(plan.entries()).toEqual([entry("a", "pending")]);
  });

  it("an update of an unknown task without a subject cannot be shown", () => {
    const plan = new TaskPlan();
    expect(
      plan.applyToolResult(
        "TaskUpdate",
        { taskId: "9", status: "completed" },
        { success: true, taskId: "9", updatedFields: ["status"] },
      ),
    ).toBeUndefined();
  });

  it("the TaskCreated and TaskCompleted hooks update the plan too", () => {
    const plan = new TaskPlan();
    expect(plan.created("1", "Teammate task")).toEqual([entry("Teammate task", "pending")]);
    expect(plan.completed("1", "Teammate task")).toEqual([entry("Teammate task", "completed")]);
    expect(plan.created("1", "Teammate task")).toEqual([entry("Teammate task", "completed")]);
  });
});

describe("a saved conversation keeps only result text: the plan is rebuilt from it", () => {
  it("TaskCreate and TaskUpdate results read back from a transcript give the same plan", () => {
    const plan = new TaskPlan();
    const created = taskResultFromText("TaskCreate", {
      content: "Task #1 created successfully: Write tests",
    });
    expect(created).toEqual({ task: { id: "1", subject: "Write tests" } });
    plan.applyToolResult(
      "TaskCreate",
      { subject: "Write tests", activeForm: "Writing tests" },
      created,
    );
    const entries = plan.applyToolResult(
      "TaskUpdate",
      { taskId: "1", status: "in_progress" },
      taskResultFromText("TaskUpdate", { content: "Updated task #1 status" }),
    );
    expect(entries).toEqual([entry("Writing tests", "in_progress")]);
  });

  it("a TaskList result text lists the tasks with their status", () => {
    expect(
      taskResultFromText("TaskList", {
        content: [{ type: "text", text: "#1 [in_progress] Write tests\n#2 [pending] Ship it" }],
      }),
    ).toEqual({
      tasks: [
        { id: "1", status: "in_progress", subject: "Write tests" },
        { id: "2", status: "pending", subject: "Ship it" },
      ],
    });
  });

  it("other tools and unrecognised text give nothing", () => {
    expect(taskResultFromText("TaskCreate", { content: "something else" })).toBeUndefined();
    expect(
      taskResultFromText("Bash", { content: "Task #1 created successfully: x" }),
    ).toBeUndefined();
  });
});
