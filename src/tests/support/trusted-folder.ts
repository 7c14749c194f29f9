// A folder the user trusts, as Claude Code's terminal records it in its global config: for
// tests of a project's settings, which a session reads only in a trusted folder.
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Records `cwd` as trusted in the Claude Code config of `env` (its CLAUDE_CONFIG_DIR). */
export function trustFolder(env: NodeJS.ProcessEnv, cwd: string): void {
  const dir = env.CLAUDE_CONFIG_DIR!;
  mkdirSync(dir, { recursive: true });
  const projects = { [realpathSync(cwd)]: { hasTrustDialogAccepted: true } };
  writeFileSync(join(dir, ".claude.json"), JSON.stringify({ projects }));
}

/** The trust records in Claude Code's config in `configDir`, by folder. */
export function trustRecords(configDir: string): Record<string, unknown> {
  const config = JSON.parse(readFileSync(join(configDir, ".claude.json"), "utf8")) as {
    projects?: Record<string, unknown>;
  };
  return config.projects ?? {};
}
