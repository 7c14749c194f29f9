import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A test's private corner of the file system: never the user's ~/.claude, nothing in the repo. */
export interface Sandbox {
  /** Holds everything below; removed on teardown. */
  root: string;
  /** HOME of the agent and of Claude Code. */
  home: string;
  /** CLAUDE_CONFIG_DIR: `<home>/.claude`. */
  configDir: string;
  /** The session's working directory. */
  cwd: string;
  /** TMPDIR of the agent and of Claude Code, so what they leave in temp goes with the sandbox. */
  tmp: string;
  remove(): Promise<void>;
}

export async function createSandbox(): Promise<Sandbox> {
  // realpath: on some systems the temp dir is a symlink, and Claude Code reports real paths.
  const root = await realpath(await mkdtemp(join(tmpdir(), "claude-agent-acp-e2e-")));
  const home = join(root, "home");
  const configDir = join(home, ".claude");
  const cwd = join(root, "cwd");
  const tmp = join(root, "tmp");
  await mkdir(configDir, { recursive: true });
  await mkdir(cwd);
  await mkdir(tmp);
  return {
    root,
    home,
    configDir,
    cwd,
    tmp,
    remove: () => rm(root, { recursive: true, force: true, maxRetries: 3, retryDelay: 100 }),
  };
}
