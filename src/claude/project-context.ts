// The files of a folder that change what Claude Code does when a session runs there: what it
// reads through its "project" and "local" setting sources, which a session in a folder the
// user has not trusted starts without. Each entry is proven end to end on the installed CLI
// (e2e-workspace-trust): loaded with those sources, not loaded without them.
import { lstat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { claudeConfigHome } from "./trust-store.js";

/**
 * In the session's folder: settings (hooks that run commands, rules that skip the ask, `env`
 * that routes requests), MCP servers, instructions, subagents, commands and skills.
 */
export const FOLDER_CONTEXT = [
  ".claude/settings.json",
  ".claude/settings.local.json",
  ".mcp.json",
  "CLAUDE.md",
  "CLAUDE.local.md",
  ".claude/CLAUDE.md",
  ".claude/rules",
  ".claude/agents",
  ".claude/commands",
  ".claude/skills",
] as const;

/** In every folder above it: the instructions and skills Claude Code gathers on its way up. */
export const ABOVE_CONTEXT = [
  "CLAUDE.md",
  "CLAUDE.local.md",
  ".claude/CLAUDE.md",
  ".claude/rules",
  ".claude/skills",
] as const;

const exists = (path: string): Promise<boolean> =>
  lstat(path).then(
    () => true,
    () => false,
  );

/**
 * The absolute paths of the trust-sensitive files that exist for a session in `folder` (a
 * real path), the folder's own first. The user's own Claude Code folder (`~/.claude`) is the
 * user's settings, never a project's, and is skipped where a folder above holds it.
 */
export async function projectContextPaths(
  folder: string,
  env: NodeJS.ProcessEnv,
): Promise<string[]> {
  const own = claudeConfigHome(env);
  const candidates: string[] = FOLDER_CONTEXT.map((name) => join(folder, name));
  for (let dir = folder; dirname(dir) !== dir;) {
    dir = dirname(dir);
    candidates.push(...ABOVE_CONTEXT.map((name) => join(dir, name)));
  }
  const kept = candidates.filter((path) => path !== own && !path.startsWith(`${own}/`));
  const found = await Promise.all(kept.map(exists));
  return kept.filter((_, i) => found[i]);
}
