// Real Claude Code for tests that drive it through the SDK directly: the binary the agent
// itself runs, and fresh HOME / CLAUDE_CONFIG_DIR / cwd directories for each run.
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveClaudeExecutable } from "../../claude/executable.js";

/** The Claude Code binary the SDK ships (as the agent finds it), if it is installed. */
export function claudeBinary(): string | undefined {
  try {
    return resolveClaudeExecutable({});
  } catch {
    return undefined;
  }
}

/** Fresh HOME, CLAUDE_CONFIG_DIR and cwd under one temp dir, removed by `cleanups`. */
export async function claudeSandbox(
  label: string,
  cleanups: (() => Promise<void>)[],
): Promise<{ home: string; config: string; cwd: string }> {
  const root = await mkdtemp(join(tmpdir(), `${label}-`));
  cleanups.push(() => rm(root, { recursive: true, force: true }));
  const dirs = { home: join(root, "home"), config: join(root, "config"), cwd: join(root, "cwd") };
  for (const d of Object.values(dirs)) await mkdir(d);
  return dirs;
}
