import type { SessionClient } from "../../acp/session-client.js";
import { COMMAND_TASK } from "../background/claude-tasks.js";
import { CompactionWatcher } from "./compaction.js";
import type { SessionConfiguration } from "../configuration/configuration.js";
import type { SlashCommand, SystemMessage } from "../../claude/types.js";
import { noticeOf } from "./notices.js";
import type { ForegroundTask, TaskEnd } from "../background/terminals.js";

export interface SystemMessageHost {
  readonly client: SessionClient;
  configuration(): SessionConfiguration;
  /** Claude Code's commands changed: the client is offered them (command-list.ts). */
  offerCommands(commands: readonly SlashCommand[]): Promise<void>;
  /** Claude Code's capability list, from each `init`. */
  capabilitiesReported(capabilities: readonly string[]): void;
  /** The MCP servers' states, from each `init` (failures are reported once, see src/mcp). */
  mcpServersReported(servers: ReadonlyArray<{ name: string; status: string }>): Promise<void>;
  /** An MCP server confirmed that a URL elicitation's page was completed. */
  elicitationComplete(elicitationId: string): Promise<void>;
  /** Sends an update; a client that went away is logged, not fatal. */
  send(update: () => Promise<void>): Promise<void>;
  /** A compaction left the conversation `tokens` long. */
  compacted(tokens: number): Promise<void>;
  /** A background task (a command's, a subagent's) ended. */
  taskEnded(task: TaskEnd): Promise<void>;
  /** A command the turn waits for runs as a task (it has run a while). */
  foregroundTask(task: ForegroundTask): Promise<void>;
}

/** Claude Code's system messages, between turns as within them, as session updates. */
export class SystemMessages {
  /** Follows compactions (the idle compaction names its own, compaction.ts). */
  readonly compactions: CompactionWatcher;

  constructor(private readonly host: SystemMessageHost) {
    this.compactions = new CompactionWatcher({
      report: (compaction) => host.send(() => host.client.sendCompaction(compaction)),
      compacted: (tokens) => host.compacted(tokens),
    });
  }

  async handle(message: SystemMessage): Promise<void> {
    const { client } = this.host;
    if (await this.compactions.observe(message)) return;
    switch (message.subtype) {
      case "init":
        this.host.capabilitiesReported(message.capabilities ?? []);
        await this.host.send(() => this.host.mcpServersReported(message.mcp_servers));
        return;
      case "elicitation_complete":
        await this.host.send(() => this.host.elicitationComplete(message.elicitation_id));
        return;
      case "status":
        // Claude Code changed its mode (EnterPlanMode, an accepted setMode suggestion...).
        if (message.permissionMode) {
          const mode = message.permissionMode;
          await this.host.send(() => this.host.configuration().modeChanged(mode));
        }
        return;
      case "task_notification":
        await this.host.send(() => this.host.taskEnded(message));
        return;
      case "task_started":
        if (message.task_type === COMMAND_TASK && !message.is_backgrounded) {
          const { task_id, tool_use_id } = message;
          if (tool_use_id) await this.host.foregroundTask({ task_id, tool_use_id });
        }
        return;
      case "commands_changed":
        await this.host.send(() => this.host.offerCommands(message.commands));
        return;
      default: {
        const notice = noticeOf(message);
        if (notice) await this.host.send(() => client.sendNotice(notice));
      }
    }
  }
}
