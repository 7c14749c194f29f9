import type { AvailableCommand } from "@agentclientprotocol/sdk";
import type { SlashCommand } from "../../claude/types.js";
import { MCP_COMMAND } from "../../mcp/command.js";
import { SKILLS_COMMAND } from "../../skills/command.js";
import { cleanSingleLine } from "../../util/text.js";

/**
 * Claude Code commands that only work in its own terminal UI; offering them to an
 * editor would run nothing useful.
 */
const TERMINAL_ONLY = new Set([
  "clear",
  "config",
  "exit",
  "login",
  "logout",
  "quit",
  "resume",
  "statusline",
  "terminal-setup",
  "theme",
  "vim",
]);

/** Claude Code's slash commands (built-in, skills, custom `.claude/commands`) as ACP commands. */
export function availableCommands(
  commands: readonly SlashCommand[],
  terminalOnly: readonly string[] = [],
): AvailableCommand[] {
  const hidden = new Set([...TERMINAL_ONLY, ...terminalOnly]);
  // The agent runs /mcp and /skills itself (src/mcp/, src/skills/): their entries replace
  // Claude Code's.
  const seen = new Set<string>([MCP_COMMAND.name, SKILLS_COMMAND.name]);
  const result: AvailableCommand[] = [];
  for (const command of commands) {
    const name = cleanSingleLine(command.name).replace(/^\//, "");
    if (!name || hidden.has(name) || seen.has(name)) continue;
    seen.add(name);
    const hint = cleanSingleLine(command.argumentHint ?? "");
    result.push({
      name,
      description: cleanSingleLine(command.description ?? ""),
      ...(hint ? { input: { hint } } : {}),
    });
  }
  return [...result, MCP_COMMAND, SKILLS_COMMAND];
}
