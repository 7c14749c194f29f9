import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { requireBuiltAgent } from "../e2e/index.js";

/**
 * acpx sends Claude Code's session options (`_meta.claudeCode.options`, `_meta.systemPrompt`)
 * only to an agent whose command is named `claude-agent-acp`: hence a launcher of that name,
 * whatever the checkout's directory is called.
 */
export const LAUNCHER_NAME = "claude-agent-acp";

/**
 * Writes `<binDir>/claude-agent-acp`: a shell script that runs the built agent with this
 * Node (or `command`, an installed bin, as it is), its stderr (the debug log, Claude Code's
 * stderr with it) appended to `logPath`, since acpx shows an agent's stderr only mixed into
 * its own with --verbose. Returns the launcher's path.
 */
export async function writeAgentLauncher(
  binDir: string,
  logPath: string,
  command?: string,
): Promise<string> {
  const launcher = join(binDir, LAUNCHER_NAME);
  const agent = command
    ? shellQuote(command)
    : `${shellQuote(process.execPath)} ${shellQuote(requireBuiltAgent())}`;
  const script = ["#!/bin/sh", `exec ${agent} "$@" 2>>${shellQuote(logPath)}`, ""].join("\n");
  await mkdir(binDir, { recursive: true });
  await writeFile(launcher, script);
  await chmod(launcher, 0o755);
  return launcher;
}

/** One word for sh, whatever it holds. */
function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
