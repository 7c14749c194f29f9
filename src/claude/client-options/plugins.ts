// The plugins a client names for its session (`_meta.claudeCode.options.plugins`): a plugin
// loads only when all it holds is on an allowlist of parts that act only when the user or
// Claude asks, under the session's permissions: commands, agents, skills and output styles,
// described by a manifest of names and links. Anything else Claude Code would load from a
// plugin can act without the user: hooks run commands on events, MCP and LSP servers and
// monitors start programs, settings hold allow rules, a `bin/` joins the PATH, workflows are
// scripts, a command's `allowed-tools` skips the ask and a markdown "!`…`" runs a shell.
import { lstat, readdir, readFile } from "node:fs/promises";
import { isAbsolute, join, resolve } from "node:path";
import type { NotAppliedReason } from "./not-applied.js";

/** The top-level folders a plugin may hold, each of markdown Claude Code reads on request. */
const PART_FOLDERS = new Set(["commands", "agents", "skills", "output-styles"]);
/** Files at a plugin's top that Claude Code does not load. */
const DOCUMENT = /^(README|LICENSE|LICENCE|CHANGELOG|NOTICE)(\.[A-Za-z0-9]+)?$/i;
/** The manifest's keys that only describe the plugin. */
const MANIFEST_KEYS = new Set([
  "name",
  "version",
  "description",
  "author",
  "homepage",
  "repository",
  "license",
  "keywords",
]);
/**
 * The frontmatter keys of a command, skill, agent or output style that only describe it or
 * choose its model: not `allowed-tools`, `hooks`, `shell`, `settings`, `mcpServers`,
 * `permissionMode`, `context` or `agent`, which grant, run or reroute.
 */
const FRONTMATTER_KEYS = new Set([
  "name",
  "description",
  "when_to_use",
  "version",
  "argument-hint",
  "arguments",
  "disable-model-invocation",
  "user-invocable",
  "model",
  "effort",
  "paths",
  "color",
  "tools",
  "disallowedTools",
  "maxTurns",
  "keep-coding-instructions",
]);
/** Claude Code runs a shell for "!`…`" in a command's or skill's text, and for a "```!" block. */
const SHELL_MARKER = /!`|```!/;
/** A plugin larger than this is not read through: it is refused as not checked. */
const MAX_ENTRIES = 2_000;
const MAX_FILE_BYTES = 1024 * 1024;

class Refused extends Error {
  constructor(readonly reason: NotAppliedReason) {
    super(reason);
  }
}

/**
 * Why the plugin at `path` (relative to the session's `cwd`, as Claude Code takes it) is not
 * loaded, or undefined when all it holds is on the allowlist.
 */
export async function pluginRefusal(
  path: string,
  cwd: string,
): Promise<NotAppliedReason | undefined> {
  const root = isAbsolute(path) ? path : resolve(cwd, path);
  try {
    await checkRoot(root);
    return undefined;
  } catch (error) {
    // Anything that could not be read is not known to be on the allowlist.
    return error instanceof Refused ? error.reason : "pluginParts";
  }
}

async function checkRoot(root: string): Promise<void> {
  if (!(await lstat(root)).isDirectory()) throw new Refused("pluginParts");
  const budget = { entries: MAX_ENTRIES };
  for (const entry of await readdir(root, { withFileTypes: true })) {
    const path = join(root, entry.name);
    if (entry.name === "hooks") throw new Refused("hooks");
    if (entry.name === ".claude-plugin" && entry.isDirectory()) await checkManifestFolder(path);
    else if (PART_FOLDERS.has(entry.name) && entry.isDirectory()) await checkTree(path, budget);
    else if (!(DOCUMENT.test(entry.name) && entry.isFile())) throw new Refused("pluginParts");
  }
}

async function checkManifestFolder(folder: string): Promise<void> {
  const entries = await readdir(folder, { withFileTypes: true });
  if (entries.some((e) => e.name !== "plugin.json" || !e.isFile())) {
    throw new Refused("pluginParts");
  }
  if (entries.length === 0) return;
  const manifest: unknown = JSON.parse(await readSmall(join(folder, "plugin.json")));
  if (typeof manifest !== "object" || manifest === null || Array.isArray(manifest)) {
    throw new Refused("pluginParts");
  }
  if ("hooks" in manifest) throw new Refused("hooks");
  if (Object.keys(manifest).some((key) => !MANIFEST_KEYS.has(key))) {
    throw new Refused("pluginParts");
  }
}

/** Folders and regular files only (no link can lead out); every markdown file checked. */
async function checkTree(folder: string, budget: { entries: number }): Promise<void> {
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    if (--budget.entries < 0) throw new Refused("pluginParts");
    const path = join(folder, entry.name);
    if (entry.isDirectory()) await checkTree(path, budget);
    else if (!entry.isFile()) throw new Refused("pluginParts");
    else if (/\.md$/i.test(entry.name)) checkMarkdown(await readSmall(path));
  }
}

async function readSmall(path: string): Promise<string> {
  if ((await lstat(path)).size > MAX_FILE_BYTES) throw new Refused("pluginParts");
  return readFile(path, "utf8");
}

/** A command, skill, agent or output style: no shell marker, only describing frontmatter. */
function checkMarkdown(text: string): void {
  if (SHELL_MARKER.test(text)) throw new Refused("pluginParts");
  const body = text.replace(/^\uFEFF/, "").trimStart();
  if (!body.startsWith("---")) return;
  const lines = body.split(/\r?\n/);
  for (const line of lines.slice(1)) {
    if (/^(---|\.\.\.)\s*$/.test(line)) return;
    // Nested values, blank lines and comments belong to a key already checked.
    if (/^(\s|#|$)/.test(line)) continue;
    const key = /^(["']?)([A-Za-z_][\w-]*)\1\s*:/.exec(line)?.[2];
    if (key === "hooks") throw new Refused("hooks");
    if (!key || !FRONTMATTER_KEYS.has(key)) throw new Refused("pluginParts");
  }
  throw new Refused("pluginParts"); // a frontmatter that never ends is not known
}
