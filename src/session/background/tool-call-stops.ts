import type { ClaudeQuery } from "../../claude/query.js";
import { FINAL_TASK_STATES, type SDKMessage } from "../../claude/types.js";
import { echoed, InvalidParamsError } from "../../errors.js";
import { log } from "../../logger.js";
import { STOPPABLE_TOOLS } from "../../tools/index.js";
import { cleanSingleLine } from "../../util/text.js";
import { hasEnded, type ToolCallTracker } from "../stream/tool-calls.js";

/**
 * Stopping one tool call without the turn (`_session/cancel_tool_call`, v2's
 * `tool_call/cancel`): the command or subagent it started is a Claude Code task, which
 * `stopTask` ends with its processes; Claude Code then gives the model the call's result as
 * stopped, and the turn goes on. A command becomes a task only after about three seconds
 * (subagents at once): one asked to stop before that is stopped as soon as it does.
 */
export class ToolCallStops {
  /** The live task of each tool use that started one. */
  private readonly tasks = new Map<string, string>();
  /** Tool uses to stop once Claude Code has made a task of them, with their process. */
  private readonly held = new Map<string, ClaudeQuery>();

  constructor(private readonly tools: ToolCallTracker) {}

  /** Every message of `process`, in order. */
  observe(message: SDKMessage): void {
    if (message.type === "user" && typeof message.message.content !== "string") {
      // A result before any task: it ended by itself, nothing is left to stop.
      for (const block of message.message.content) {
        if (block.type === "tool_result") this.held.delete(block.tool_use_id);
      }
    }
    if (message.type !== "system") return;
    if (message.subtype === "task_started" && message.tool_use_id) {
      this.tasks.set(message.tool_use_id, message.task_id);
      const process = this.held.get(message.tool_use_id);
      this.held.delete(message.tool_use_id);
      if (process) stop(process, message.task_id);
    } else if (
      message.subtype === "task_notification" ||
      (message.subtype === "task_updated" && FINAL_TASK_STATES.has(message.patch.status ?? ""))
    ) {
      for (const [toolUseId, task] of this.tasks) {
        if (task === message.task_id) this.tasks.delete(toolUseId);
      }
    }
  }

  /**
   * Stops the command or subagent `toolUseId` started: now, or once it is a task. Throws
   * -32602 for a call that is unknown, over, or not a command or a subagent.
   */
  stop(toolUseId: string, process: ClaudeQuery | undefined): void {
    const call = this.tools.get(toolUseId);
    const task = this.tasks.get(toolUseId);
    // A call that went on in the background is over, its task is not.
    const running = call !== undefined && (!hasEnded(call) || task !== undefined);
    if (!running || !process) {
      throw new InvalidParamsError(`No tool call ${echoed(toolUseId)} is running here.`, {
        toolCallId: toolUseId,
      });
    }
    if (!STOPPABLE_TOOLS.has(call.name)) {
      throw new InvalidParamsError(
        // The name is the model's: one clean line, as any text from Claude a client is shown.
        `${cleanSingleLine(echoed(call.name))} cannot be stopped on its own: only a command or a subagent can.`,
        { toolCallId: toolUseId },
      );
    }
    if (task) stop(process, task);
    else this.held.set(toolUseId, process);
  }
}

function stop(process: ClaudeQuery, task: string): void {
  process.stopTask(task).catch((error: unknown) => log.warn(`could not stop task ${task}`, error));
}
