import { describe, expect, it, vi } from "vitest";
import type { ClaudeQuery } from "../../../claude/query.js";
import { InvalidParamsError } from "../../../errors.js";
import { ToolCallStops } from "../../../session/background/tool-call-stops.js";
import { ToolCallTracker } from "../../../session/stream/tool-calls.js";
import { sdkMessage, toolResult } from "../../support/fake-claude.js";
import { unsafeStrings } from "../../support/unsafe-text.js";

function setup() {
  const tools = new ToolCallTracker();
  const stops = new ToolCallStops(tools);
  const stopTask = vi.fn(() => Promise.resolve());
  const process = { stopTask } as unknown as ClaudeQuery;
  const taskStarted = (toolUseId: string, taskId: string) =>
    stops.observe(
      sdkMessage({
        type: "system",
        subtype: "task_started",
        task_id: taskId,
        tool_use_id: toolUseId,
        description: "d",
        task_type: "local_bash",
      }),
    );
  return { tools, stops, stopTask, process, taskStarted };
}

describe("stopping one tool call", () => {
  it("a running command that is a task stops at once, by its task id", () => {
    const { tools, stops, stopTask, process, taskStarted } = setup();
    tools.upsert("toolu_1", "Bash", { command: "long" }, null);
    taskStarted("toolu_1", "task_1");
    stops.stop("toolu_1", process);
    expect(stopTask).toHaveBeenCalledWith("task_1");
  });

  it("a command that is no task yet stops as soon as Claude Code makes one of it", () => {
    const { tools, stops, stopTask, process, taskStarted } = setup();
    tools.upsert("toolu_1", "Bash", { command: "long" }, null);
    stops.stop("toolu_1", process);
    expect(stopTask).not.toHaveBeenCalled();
    taskStarted("toolu_1", "task_1");
    expect(stopTask).toHaveBeenCalledWith("task_1");
  });

  it("a held stop is dropped when the command ends by itself first", () => {
    const { tools, stops, stopTask, process, taskStarted } = setup();
    tools.upsert("toolu_1", "Bash", { command: "quick" }, null);
    stops.stop("toolu_1", process);
    stops.observe(toolResult("toolu_1", "done"));
    taskStarted("toolu_1", "task_1");
    expect(stopTask).not.toHaveBeenCalled();
  });

  it("a subagent stops by its task; a command gone on in the background stops while its task runs", () => {
    const { tools, stops, stopTask, process, taskStarted } = setup();
    tools.upsert("toolu_agent", "Agent", { prompt: "p" }, null);
    taskStarted("toolu_agent", "agent_1");
    stops.stop("toolu_agent", process);
    const background = tools.upsert("toolu_bg", "Bash", { command: "long" }, null);
    taskStarted("toolu_bg", "task_bg");
    background.status = "completed";
    stops.stop("toolu_bg", process);
    expect(stopTask.mock.calls).toEqual([["agent_1"], ["task_bg"]]);
  });

  it("-32602 for an unknown call, one that ended, or one that is not a command or a subagent", () => {
    const { tools, stops, process } = setup();
    expect(() => stops.stop("toolu_unknown", process)).toThrow(InvalidParamsError);
    tools.upsert("toolu_done", "Bash", { command: "x" }, null).status = "completed";
    expect(() => stops.stop("toolu_done", process)).toThrow(/is running here/);
    tools.upsert("toolu_read", "Read", { file_path: "/a" }, null);
    expect(() => stops.stop("toolu_read", process)).toThrow(/only a command or a subagent/);
  });

  it("the refusal names the tool in one clean line: a name the model made up carries no escape sequence to the client", () => {
    const { tools, stops, process } = setup();
    tools.upsert("toolu_odd", "mcp__x__\u001b]0;owned\u0007tool", {}, null);
    let message = "";
    try {
      stops.stop("toolu_odd", process);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain("cannot be stopped on its own");
    expect(unsafeStrings(message)).toEqual([]);
  });
});
