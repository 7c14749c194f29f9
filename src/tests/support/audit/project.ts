/** A project for the end-to-end permission tests: files in the cwd and what they show. */
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { TurnSpec } from "../../../scripted-api/index.js";
import { poll } from "../e2e/wait.js";

/** `npm test` appends one "x" to ran.txt: its length is the number of runs. */
export const PACKAGE_JSON = JSON.stringify({
  name: "permission-e2e",
  version: "1.0.0",
  private: true,
  scripts: { test: `node -e "require('fs').appendFileSync('ran.txt', 'x')"` },
});

/** Writes files below `root`, keyed by relative path. */
export async function writeFiles(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, path);
    await mkdir(dirname(full), { recursive: true });
    await writeFile(full, content);
  }
}

/** How many times `npm test` ran in `cwd`. */
export async function npmTestRuns(cwd: string): Promise<number> {
  const path = join(cwd, "ran.txt");
  return existsSync(path) ? (await readFile(path, "utf8")).length : 0;
}

/** `<cwd>/.claude/settings.local.json`, parsed; undefined when Claude Code wrote none. */
export async function localSettings(
  cwd: string,
): Promise<{ permissions?: { allow?: string[]; ask?: string[] } } | undefined> {
  const path = join(cwd, ".claude", "settings.local.json");
  if (!existsSync(path)) return undefined;
  return JSON.parse(await readFile(path, "utf8")) as { permissions?: { allow?: string[] } };
}

/**
 * The allow rules Claude Code saved to the project's local settings, once it has written
 * some (or none after 5 s): it applies a durable rule to the session before its write to the
 * file is done, so a turn can end before the file has it.
 */
export async function savedAllowRules(cwd: string): Promise<string[]> {
  const rules = await poll(async () => {
    // A read in the middle of the write finds no JSON yet: not written, then.
    const allow = (await localSettings(cwd).catch(() => undefined))?.permissions?.allow;
    return allow?.length ? allow : undefined;
  }, 5_000);
  return rules ?? [];
}

/** One model turn that calls one tool. */
export function toolTurn(id: string, name: string, input: Record<string, unknown>): TurnSpec {
  return { content: [{ type: "tool_use", id, name, input }] };
}

export function textTurn(text: string): TurnSpec {
  return { content: [{ type: "text", text }] };
}
