import { resolve } from "node:path";
import type { ChildInfo, ChildOutcome } from "../../acp/child-sessions.js";
import type { SessionChildren } from "../../acp/session-client.js";
import type { ClaudeQuery, ClaudeQueryOptions } from "../../claude/query.js";
import type { SDKUserMessage, SystemMessage } from "../../claude/types.js";
import { log } from "../../logger.js";
import { SUBAGENT_TOOLS } from "../../tools/renderers/agent.js";
import { stringField } from "../../tools/input.js";
import type { ToolCallTracker } from "../stream/tool-calls.js";

/** Claude Code's task type of a subagent (the others are commands, monitors, workflows). */
const SUBAGENT_TASK = "local_agent";

export interface SubagentHost {
  /** The session's child sessions; absent when the client does not show subagents so. */
  children: SessionChildren | undefined;
  tools: ToolCallTracker;
  /** The session's directory: a subagent's own (a worktree) is announced when it differs. */
  cwd: string;
  query(): ClaudeQuery | undefined;
  /** An earlier subagent of the conversation, from its saved transcript: its thread. */
  savedAgent(agentId: string): Promise<SavedAgent | undefined>;
}

/** A subagent known from its saved transcript. */
export interface SavedAgent {
  /** The call that launched it, which its messages name in every run. */
  thread: string;
  /** The git worktree it worked in. */
  worktree?: string;
}

/**
 * Claude Code's subagents (each an `Agent`/`Task` tool use, foreground or background) as
 * the client's child sessions: the thread key of a subagent is the id of the tool use that
 * launched it (its messages' `parent_tool_use_id`, also when `SendMessage` resumes it).
 * Claude Code's task events say when a subagent starts and how it ends (a subagent's task
 * id is its agent id, the same in each of its runs); `session/cancel` on a child stops its
 * task.
 */
export class Subagents {
  /** Claude Code's task id of each subagent, by thread. */
  private readonly tasks = new Map<string, string>();
  /** Threads running in the background: their launching call's result is not their end. */
  private readonly background = new Set<string>();
  /** Threads the client stopped: their end is a cancellation, whatever the result says. */
  private readonly stopped = new Set<string>();
  /** The directory of each subagent that works outside the session's, by agent (task) id. */
  private readonly directories = new Map<string, string>();

  constructor(private readonly host: SubagentHost) {
    if (host.children) host.children.describe = (thread) => this.launch(thread);
  }

  /** The task events of subagents; other system messages are not for this. */
  async system(message: SystemMessage): Promise<void> {
    const children = this.host.children;
    if (!children) return;
    switch (message.subtype) {
      case "task_started": {
        if (message.task_type !== SUBAGENT_TASK) return;
        const thread = await this.threadOfRun(message.task_id, message.tool_use_id);
        if (!thread) return;
        this.tasks.set(thread, message.task_id);
        this.stopped.delete(thread);
        if (message.is_backgrounded) this.background.add(thread);
        const launch = this.launch(thread);
        await children.started(
          thread,
          {
            ...launch,
            title: launch.title ?? message.description,
            description: launch.description ?? message.subagent_type,
            ...(message.prompt ? { prompt: message.prompt } : {}),
          },
          true,
        );
        return;
      }
      case "task_updated": {
        const thread = this.threadOfTask(message.task_id);
        if (thread && message.patch.is_backgrounded) this.background.add(thread);
        return;
      }
      case "task_notification": {
        // A resumed run names the SendMessage call, not the thread.
        const thread = this.threadOfTask(message.task_id) ?? message.tool_use_id;
        if (!thread || !this.tasks.has(thread)) return;
        await children.finished(thread, this.outcome(thread, message.status, message.summary));
        return;
      }
      default:
        return;
    }
  }

  /** A foreground subagent's launching call has its result: its work is over. */
  async toolResults(message: SDKUserMessage): Promise<void> {
    const children = this.host.children;
    const content = message.message.content;
    if (!children || typeof content === "string") return;
    for (const block of content) {
      if (block.type !== "tool_result" || this.background.has(block.tool_use_id)) continue;
      if (!this.tasks.has(block.tool_use_id) && !children.has(block.tool_use_id)) continue;
      const outcome = this.stopped.has(block.tool_use_id)
        ? { stopReason: "cancelled" as const }
        : resultOutcome(block);
      await children.finished(block.tool_use_id, outcome);
    }
  }

  /** `session/cancel` on a child session: its task stops, the parent's turn goes on. */
  stop(childSessionId: string): boolean {
    const children = this.host.children;
    const thread = children?.threadOf(childSessionId);
    if (thread === undefined) return false;
    const task = this.tasks.get(thread);
    const query = this.host.query();
    // An idle child has nothing to stop; its next run must not end as cancelled.
    if (!task || !query || !children?.working().includes(thread)) return true;
    this.stopped.add(thread);
    query.stopTask(task).catch((error: unknown) => log.warn(`could not stop task ${task}`, error));
    return true;
  }

  /**
   * A subagent known from its saved transcript (session/load): a later run (`SendMessage`)
   * continues in its child session.
   */
  adopt(agentId: string, saved: SavedAgent): void {
    this.tasks.set(saved.thread, agentId);
    if (saved.worktree && this.elsewhere(saved.worktree)) {
      this.directories.set(agentId, saved.worktree);
    }
  }

  /** What the session's Claude Code processes need for child sessions: the start hook. */
  queryOptions(): Pick<ClaudeQueryOptions, "onSubagentStart"> {
    return this.host.children
      ? { onSubagentStart: (agentId, cwd) => this.located(agentId, cwd) }
      : {};
  }

  /**
   * A subagent starts in `cwd` (Claude Code's SubagentStart hook): a worktree of its own is
   * its child session's `cwd`, in the announcement or, when that went out first, right
   * after it (the subagent waits for this).
   */
  async located(agentId: string, cwd: string): Promise<void> {
    const children = this.host.children;
    if (!children || !this.elsewhere(cwd)) return;
    this.directories.set(agentId, cwd);
    const thread = this.threadOfTask(agentId);
    if (thread) await children.located(thread, cwd);
  }

  private elsewhere(cwd: string): boolean {
    return resolve(cwd) !== resolve(this.host.cwd);
  }

  private outcome(thread: string, status: string, text: string): ChildOutcome {
    return this.stopped.has(thread) ? { stopReason: "cancelled" } : outcomeOf(status, text);
  }

  /**
   * The thread of a subagent's run: the one its agent already has (`SendMessage` resumes a
   * subagent with a run of its own, whose task events name the SendMessage call; after a
   * restart its saved transcript says it), else the launching call.
   */
  private async threadOfRun(
    taskId: string,
    toolUseId: string | undefined,
  ): Promise<string | undefined> {
    const known = this.threadOfTask(taskId);
    if (known) return known;
    const call = toolUseId ? this.host.tools.get(toolUseId) : undefined;
    if (toolUseId && (!call || SUBAGENT_TOOLS.has(call.name))) return toolUseId;
    const saved = await this.host.savedAgent(taskId).catch((error: unknown) => {
      log.warn(`could not read the transcript of subagent ${taskId}`, error);
      return undefined;
    });
    if (!saved) return toolUseId;
    this.adopt(taskId, saved);
    return saved.thread;
  }

  private threadOfTask(taskId: string): string | undefined {
    for (const [thread, task] of this.tasks) if (task === taskId) return thread;
    return undefined;
  }

  /** What the launching call says of a subagent: its title, role and prompt. */
  private launch(thread: string): ChildInfo {
    const info: ChildInfo = {};
    const task = this.tasks.get(thread);
    const cwd = task ? this.directories.get(task) : undefined;
    if (cwd) info.cwd = cwd;
    // After a resume the launching call is not known: the task's own fields stand in.
    const call = this.host.tools.get(thread);
    if (!call) return info;
    const title = stringField(call.input, "description");
    const role = stringField(call.input, "subagent_type");
    const prompt = stringField(call.input, "prompt");
    if (title) info.title = title;
    if (role) info.description = role;
    if (prompt) info.prompt = prompt;
    if (call.parentToolUseId) info.parentThread = call.parentToolUseId;
    return info;
  }
}

/**
 * How a subagent's run ended, from its status (its task's, or its launching call's result:
 * `completed` or `failed`) and the text that came with it.
 */
export function outcomeOf(status: string, text: string): ChildOutcome {
  if (status === "stopped" || status === "killed") return { stopReason: "cancelled" };
  if (status === "failed") return { stopReason: "error", message: text || "The subagent failed." };
  return { stopReason: "end_turn", ...(text ? { answer: text } : {}) };
}

/** How a foreground subagent's run ended, from its launching call's result. */
export function resultOutcome(result: { is_error?: boolean; content?: unknown }): ChildOutcome {
  const text = typeof result.content === "string" ? result.content : "";
  return outcomeOf(result.is_error ? "failed" : "completed", text);
}
