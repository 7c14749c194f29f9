import type { ClaudeQuery } from "../../claude/query.js";
import {
  FINAL_TASK_STATES,
  type SDKMessage,
  type SDKUserMessage,
  type SystemMessage,
} from "../../claude/types.js";
import { isRecord } from "../../util/records.js";
import type { ToolCallTracker, TrackedToolCall } from "../stream/tool-calls.js";
import { UNFINISHED } from "../turns/unfinished.js";
import { ToolCallStops } from "./tool-call-stops.js";

/** Claude Code's task type of a subagent. */
const AGENT_TASK = "local_agent";
/** Claude Code's task type of a command (Bash, PowerShell). */
export const COMMAND_TASK = "local_bash";

export interface ClaudeTasksHost {
  readonly tools: ToolCallTracker;
  /** Closes tool calls that will get no result, saying why. */
  close(calls: TrackedToolCall[], reason: string): Promise<void>;
  /** The background tasks a client that reads them hears of (async-tasks.ts). */
  readonly reports?: { observe(message: SystemMessage): Promise<void> };
}

/**
 * Claude Code's tasks, for every client, as its task events (`task_started`, `task_updated`,
 * `task_notification`) and its launch results say. A subagent that runs in the background
 * goes on after the parent's turn has ended: its tool calls stay open then, and their own
 * results close them; a call still open when that run ends (its task notification) or when
 * the process running it ends will get no result, and is closed then. A command moved to
 * the background is a task too: a subagent's result does not name it (only the main
 * thread's has a structured result), its task does. A subagent's thread
 * is the id of the call that launched it (its messages' `parent_tool_use_id`); its agent id
 * is its task id, the same in each of its runs.
 */
export class ClaudeTasks {
  /** Subagents running in the background, by agent id: the process that runs each. */
  private readonly background = new Map<string, ClaudeQuery>();
  /** The agent of each subagent thread. */
  private readonly agents = new Map<string, string>();
  /** Agents whose run ended (until their next run starts): a late launch result is old news. */
  private readonly ended = new Set<string>();
  /** The tool use that started each command task, by task id. */
  private readonly commands = new Map<string, string>();
  /** The task of each command that went on in the background, by its tool use id. */
  private readonly backgroundCommands = new Map<string, string>();

  /** One command or subagent stopped on its own (tool-call-stops.ts). */
  readonly stops: ToolCallStops;

  constructor(private readonly host: ClaudeTasksHost) {
    this.stops = new ToolCallStops(host.tools);
  }

  /** Every message of `process`, in order, before it is shown. */
  async observe(message: SDKMessage, process: ClaudeQuery): Promise<void> {
    this.stops.observe(message);
    if (message.type === "system") return this.system(message, process);
    if (message.type !== "assistant" && message.type !== "user") return;
    const agent = "agent_id" in message ? message.agent_id : undefined;
    if (message.parent_tool_use_id && agent && !this.agents.has(message.parent_tool_use_id)) {
      this.agents.set(message.parent_tool_use_id, agent);
    }
    if (message.type === "user") this.launched(message, process);
  }

  /**
   * Whether the call belongs to a subagent running in the background (also through a
   * subagent that one launched): the end of the parent's turn is not its end.
   */
  holds(call: TrackedToolCall): boolean {
    return this.agentsOf(call).some((agent) => this.background.has(agent));
  }

  /** The background task of the command that `toolUseId` ran, if it went on in the background. */
  backgroundCommand(toolUseId: string): string | undefined {
    return this.backgroundCommands.get(toolUseId);
  }

  /** A process ended: the background subagents it ran ended with it. */
  async processEnded(process: ClaudeQuery): Promise<void> {
    const gone = [...this.background].filter(([, p]) => p === process).map(([agent]) => agent);
    for (const agent of gone) this.background.delete(agent);
    await this.closeCallsOf(gone, UNFINISHED.processEnded);
  }

  private async system(message: SystemMessage, process: ClaudeQuery): Promise<void> {
    await this.host.reports?.observe(message);
    switch (message.subtype) {
      case "task_started":
        if (message.task_type === COMMAND_TASK && message.tool_use_id) {
          this.commands.set(message.task_id, message.tool_use_id);
          if (message.is_backgrounded) this.commandInBackground(message.task_id);
        }
        if (message.task_type !== AGENT_TASK) return;
        // A run SendMessage resumes names that call; its messages name the thread.
        if (message.tool_use_id) this.agents.set(message.tool_use_id, message.task_id);
        this.ended.delete(message.task_id);
        if (message.is_backgrounded) this.background.set(message.task_id, process);
        return;
      case "task_updated":
        if (message.patch.is_backgrounded && this.isAgent(message.task_id)) {
          this.background.set(message.task_id, process);
        }
        if (message.patch.is_backgrounded) this.commandInBackground(message.task_id);
        if (message.patch.status && FINAL_TASK_STATES.has(message.patch.status)) {
          await this.runEnded(message.task_id);
        }
        return;
      case "task_notification":
        await this.runEnded(message.task_id);
        return;
      default:
        return;
    }
  }

  /** The launching call's result says the subagent went on in the background. */
  private launched(message: SDKUserMessage, process: ClaudeQuery): void {
    const launch = message.tool_use_result;
    const content = message.message.content;
    if (!isRecord(launch) || launch.status !== "async_launched" || typeof content === "string") {
      return;
    }
    const agent = launch.agentId;
    const block = content.find((b) => b.type === "tool_result");
    if (typeof agent !== "string" || block?.type !== "tool_result") return;
    this.agents.set(block.tool_use_id, agent);
    if (!this.ended.has(agent)) this.background.set(agent, process);
  }

  private commandInBackground(taskId: string): void {
    const toolUseId = this.commands.get(taskId);
    if (toolUseId) this.backgroundCommands.set(toolUseId, taskId);
  }

  private async runEnded(agent: string): Promise<void> {
    if (!this.isAgent(agent)) return;
    this.ended.add(agent);
    if (this.background.delete(agent)) await this.closeCallsOf([agent], UNFINISHED.subagentEnded);
  }

  /** The open calls of these agents that no background run still holds are closed. */
  private async closeCallsOf(agents: string[], reason: string): Promise<void> {
    if (!agents.length) return;
    const calls = this.host.tools
      .open()
      .filter((call) => !this.holds(call) && this.agentsOf(call).some((a) => agents.includes(a)));
    if (calls.length) await this.host.close(calls, reason);
  }

  private isAgent(taskId: string): boolean {
    return [...this.agents.values()].includes(taskId);
  }

  /** The agents whose threads a call lies in, innermost first. */
  private agentsOf(call: TrackedToolCall): string[] {
    const agents: string[] = [];
    const seen = new Set<string>();
    for (let thread = call.parentToolUseId; thread && !seen.has(thread);) {
      seen.add(thread);
      const agent = this.agents.get(thread);
      if (agent) agents.push(agent);
      thread = this.host.tools.get(thread)?.parentToolUseId ?? null;
    }
    return agents;
  }
}
