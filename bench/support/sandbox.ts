// Temp dirs for one bench run: HOME, CLAUDE_CONFIG_DIR (<home>/.claude) and the session cwd.
// Never the user's ~/.claude, nothing in the repo.
import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface Sandbox {
  root: string;
  home: string;
  configDir: string;
  /** The default session cwd. */
  cwd: string;
  /** A fresh directory under the sandbox (a cwd per session or per baseline query). */
  dir(name: string): Promise<string>;
  remove(): Promise<void>;
}

export async function createSandbox(label: string): Promise<Sandbox> {
  // realpath: Claude Code reports real paths, and the temp dir may be a symlink.
  const root = await realpath(await mkdtemp(join(tmpdir(), `claude-agent-acp-bench-${label}-`)));
  const home = join(root, "home");
  const configDir = join(home, ".claude");
  const cwd = join(root, "cwd");
  await mkdir(configDir, { recursive: true });
  await mkdir(cwd);
  return {
    root,
    home,
    configDir,
    cwd,
    dir: async (name) => {
      const path = join(root, name);
      await mkdir(path, { recursive: true });
      return path;
    },
    remove: () => rm(root, { recursive: true, force: true, maxRetries: 3, retryDelay: 100 }),
  };
}

/**
 * The environment of the agent (and so of Claude Code) and of the direct-SDK baseline:
 * the same for both, built from nothing so the bench's own env does not leak in.
 */
export function benchEnv(
  apiUrl: string,
  sandbox: Sandbox,
  extra: Record<string, string | undefined> = {},
): Record<string, string> {
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    TMPDIR: process.env.TMPDIR,
    HOME: sandbox.home,
    CLAUDE_CONFIG_DIR: sandbox.configDir,
    ANTHROPIC_BASE_URL: apiUrl,
    ANTHROPIC_API_KEY: "sk-bench",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    CLAUDE_CODE_MAX_RETRIES: "0",
    ...extra,
  };
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}
