// The slash commands a session offers its client. For a client that shows skills apart (AIR),
// Claude Code's report of its skills follows each list, read in the background (a control
// request that must not hold the list up), and the list is sent again when it tells more.
import type { SessionClient } from "../../acp/session-client.js";
import type { ClaudeQuery } from "../../claude/query.js";
import type { SlashCommand } from "../../claude/types.js";
import { log } from "../../logger.js";
import { sameSkillFiles, skillFiles, type SkillFiles } from "../../skills/files.js";
import { availableCommands } from "./commands.js";

export interface CommandListHost {
  readonly client: SessionClient;
  /** The live Claude process, if any. */
  query(): ClaudeQuery | undefined;
  send(update: () => Promise<void>): Promise<void>;
}

export class CommandList {
  private commands: readonly SlashCommand[] = [];
  private skills: SkillFiles | undefined;
  /** Counts the lists offered: a skill report read for an older one is not sent. */
  private offered = 0;

  constructor(private readonly host: CommandListHost) {}

  /** Claude Code's commands, as it reported them: sent now, with the skills known so far. */
  async offer(commands: readonly SlashCommand[]): Promise<void> {
    this.commands = commands;
    const offer = ++this.offered;
    const { client } = this.host;
    await client.updateAvailableCommands(availableCommands(commands), this.skills);
    if (client.showsSkills) void this.readSkills(offer);
  }

  private async readSkills(offer: number): Promise<void> {
    const query = this.host.query();
    if (!query) return;
    let skills: SkillFiles;
    try {
      skills = skillFiles(await query.skillFiles());
    } catch (error) {
      log.debug("Claude Code's skill report", error);
      return;
    }
    if (offer !== this.offered || sameSkillFiles(this.skills, skills)) return;
    this.skills = skills;
    const { client } = this.host;
    await this.host.send(() =>
      client.updateAvailableCommands(availableCommands(this.commands), skills),
    );
  }
}
