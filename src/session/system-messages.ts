import type { SessionClient } from "../acp/session-client.js";
import { availableCommands } from "./commands.js";
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
}

/** Claude Code's system messages, between turns as within them, as session updates. */
export class SystemMessages {
  /** MCP servers whose failure was reported: Claude Code repeats `init` every turn. */
  private readonly reportedFailures = new Set<string>();

  constructor(private readonly host: SystemMessageHost) {}

  async handle(message: SystemMessage): Promise<void> {
    const { client } = this.host;
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
