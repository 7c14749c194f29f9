import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

/** `$XDG_CACHE_HOME/claude-agent-acp/<name>`, else under `~/.cache`: what the agent learns between runs. */
export function agentCachePath(env: NodeJS.ProcessEnv, name: string): string {
  const base = env.XDG_CACHE_HOME?.trim() || join(env.HOME || homedir(), ".cache");
  return join(base, "claude-agent-acp", name);
}

/**
 * `$XDG_STATE_HOME/claude-agent-acp/<name>`, else under `~/.local/state`: what the agent
 * keeps for the user's sessions (a cache may be dropped; this may not).
 */
export function agentStatePath(env: NodeJS.ProcessEnv, name: string): string {
  const base = env.XDG_STATE_HOME?.trim() || join(env.HOME || homedir(), ".local", "state");
  return join(base, "claude-agent-acp", name);
}

/**
 * Replaces `file` with `text` whole: written to a temp file beside it, then renamed over
 * it, so that a reader never sees half a file. The rename replaces whatever is in the
 * file's place (a link, a FIFO) without writing through it or waiting on it.
 */
export async function writeWhole(
  file: string,
  text: string | Uint8Array,
  options: { private?: boolean } = {},
): Promise<void> {
  // A private file's folder and the file itself are the user's alone.
  await mkdir(dirname(file), { recursive: true, ...(options.private ? { mode: 0o700 } : {}) });
  const temp = `${file}.${process.pid}.tmp`;
  // Made afresh: whatever was left at its name is removed, and "wx" creates the file or
  // fails, never writing through a link or waiting for a FIFO's reader.
  await rm(temp, { force: true });
  await writeFile(temp, text, { flag: "wx", ...(options.private ? { mode: 0o600 } : {}) });
  await rename(temp, file);
}
