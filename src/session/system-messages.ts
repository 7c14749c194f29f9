import type { SessionClient } from "../acp/session-client.js";
import { availableCommands } from "./commands.js";
import { CompactionWatcher } from "./compaction.js";
import type { SessionConfiguration } from "./configuration.js";
import type { SystemMessage } from "./consumer.js";
import { failedMcpServers, mcpFailureNotice, noticeOf } from "./notices.js";

export interface SystemMessageHost {
  readonly client: SessionClient;
  configuration(): SessionConfiguration;
  /** Claude Code's capability list, from each `init`. */
  capabilitiesReported(capabilities: readonly string[]): void;
  /** Sends an update; a client that went away is logged, not fatal. */
  send(update: () => Promise<void>): Promise<void>;
  /** A compaction left the conversation `tokens` long. */
  compacted(tokens: number): Promise<void>;
}

/** Claude Code's system messages, between turns as within them, as session updates. */
export class SystemMessages {
  /** MCP servers whose failure was reported: Claude Code repeats `init` every turn. */
  private readonly reportedFailures = new Set<string>();

  private readonly compactions: CompactionWatcher;

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
        for (const server of failedMcpServers(message)) {
          if (this.reportedFailures.has(server)) continue;
          this.reportedFailures.add(server);
          await this.host.send(() => client.sendNotice(mcpFailureNotice(server)));
        }
        return;
      case "status":
        // Claude Code changed its mode (EnterPlanMode, an accepted setMode suggestion...).
        if (message.permissionMode) {
          const mode = message.permissionMode;
          await this.host.send(() => this.host.configuration().modeChanged(mode));
        }
        return;
      case "commands_changed":
        await this.host.send(() =>
          client.updateAvailableCommands(availableCommands(message.commands)),
        );
        return;
      default: {
        const notice = noticeOf(message);
        if (notice) await this.host.send(() => client.sendNotice(notice));
      }
    }
  }
}
