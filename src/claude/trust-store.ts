// Claude Code's own record of the folders a user trusts: `projects[<folder>]
// .hasTrustDialogAccepted` in its global config, which its terminal's "Do you trust the files
// in this folder?" writes. Read and written here by the rules of the installed CLI, so that
// what a terminal trusts is trusted here, and what is trusted here a terminal trusts too.
import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { mkdir, readFile, realpath, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { isRecord } from "../util/records.js";
import { writeWhole } from "../util/whole-file.js";

/** A Claude Code switch that marks the whole machine as a sandbox: every folder is trusted. */
const SANDBOXED = "CLAUDE_CODE_SANDBOXED";
/** Claude Code's switch for a host that asks on its own: no trust record counts. */
export const IGNORE_PERSISTED_TRUST = "CLAUDE_CODE_IGNORE_PERSISTED_TRUST";
/** The agent's switch to trust every folder, as before workspace trust (CI, containers). */
export const TRUST_ALL_FOLDERS = "CLAUDE_AGENT_ACP_TRUST_ALL_FOLDERS";

/** Claude Code's folder of its own files: `CLAUDE_CONFIG_DIR`, else `~/.claude`. */
export function claudeConfigHome(env: NodeJS.ProcessEnv): string {
  return env.CLAUDE_CONFIG_DIR || join(env.HOME || homedir(), ".claude");
}

/**
 * Claude Code's global config file: `.claude.json` in `CLAUDE_CONFIG_DIR` (else the home
 * folder), named for a custom OAuth server when one is set; an older install's
 * `.config.json` in the config folder while it is the one in use.
 */
export async function globalConfigFile(env: NodeJS.ProcessEnv): Promise<string> {
  const { current, legacy } = configFiles(env);
  const [legacySize, currentExists] = await Promise.all([
    stat(legacy).then(
      (s) => (s.isFile() ? s.size : 0),
      () => 0,
    ),
    stat(current).then(
      () => true,
      () => false,
    ),
  ]);
  return legacySize > 0 && !currentExists ? legacy : current;
}

function configFiles(env: NodeJS.ProcessEnv): { current: string; legacy: string } {
  const suffix = env.CLAUDE_CODE_CUSTOM_OAUTH_URL ? "-custom-oauth" : "";
  return {
    current: join(env.CLAUDE_CONFIG_DIR || env.HOME || homedir(), `.claude${suffix}.json`),
    legacy: join(claudeConfigHome(env), ".config.json"),
  };
}

/** A folder as Claude Code keys it: its real path, in NFC. */
export async function folderKey(folder: string): Promise<string> {
  return (await realpath(folder)).normalize("NFC");
}

/** The repository a folder is in: the nearest folder holding `.git` (a folder or a file). */
export async function repositoryRoot(folder: string): Promise<string | undefined> {
  for (let dir = folder; ; dir = dirname(dir)) {
    if (
      await stat(join(dir, ".git")).then(
        () => true,
        () => false,
      )
    )
      return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

type Projects = Record<string, unknown>;

const projectsOf = (text: string): Projects => {
  const config: unknown = JSON.parse(text);
  return isRecord(config) && isRecord(config.projects) ? config.projects : {};
};

/** The last config read: a user's can be megabytes, and every session/new reads it. */
let lastRead: { file: string; mtimeMs: number; size: number; projects: Projects } | undefined;

/** The config's `projects`; an unreadable or missing config has none. */
async function readProjects(env: NodeJS.ProcessEnv): Promise<Projects> {
  try {
    const file = await globalConfigFile(env);
    const { mtimeMs, size } = await stat(file);
    const last = lastRead;
    if (last?.file === file && last.mtimeMs === mtimeMs && last.size === size) return last.projects;
    const projects = projectsOf(await readFile(file, "utf8"));
    lastRead = { file, mtimeMs, size, projects };
    return projects;
  } catch {
    return {};
  }
}

const accepted = (projects: Projects, folder: string): boolean => {
  const record = projects[folder];
  return isRecord(record) && record.hasTrustDialogAccepted === true;
};

/**
 * Whether Claude Code trusts `folder` (a real path) as its terminal would, without asking:
 * a sandboxed machine trusts every folder; otherwise a record for the folder's repository,
 * or for the folder or one above it (up to its repository's root, when it is in one).
 */
export async function trustedByClaudeCode(
  folder: string,
  env: NodeJS.ProcessEnv,
): Promise<boolean> {
  if (env[SANDBOXED]) return true;
  if (env[IGNORE_PERSISTED_TRUST]) return false;
  const [projects, root] = await Promise.all([readProjects(env), repositoryRoot(folder)]);
  return trustedIn(projects, folder, root);
}

/**
 * trustedByClaudeCode for the start at launch (launch-start.ts), before the agent's bundle
 * loads: `folder` as given, its real path found here. The legacy config is not looked for.
 */
export function trustedByClaudeCodeNow(folder: string, env: NodeJS.ProcessEnv): boolean {
  if (env[SANDBOXED]) return true;
  if (env[IGNORE_PERSISTED_TRUST]) return false;
  try {
    const real = realpathSync(folder).normalize("NFC");
    let root: string | undefined;
    for (let dir = real; root === undefined; dir = dirname(dir)) {
      if (existsSync(join(dir, ".git"))) root = dir;
      if (dirname(dir) === dir) break;
    }
    const file = configFiles(env).current;
    if (!statSync(file).isFile()) return false;
    return trustedIn(projectsOf(readFileSync(file, "utf8")), real, root);
  } catch {
    return false;
  }
}

/** A record for the folder's repository, or for the folder or one above it up to that root. */
function trustedIn(projects: Projects, folder: string, root: string | undefined): boolean {
  if (root !== undefined && accepted(projects, root)) return true;
  for (let dir = folder; ; dir = dirname(dir)) {
    if (accepted(projects, dir)) return true;
    if (dir === root || dirname(dir) === dir) return false;
  }
}

/**
 * Records that the user trusts `folder` (a real path) in Claude Code's global config, as its
 * trust dialog does: the rest of the file is kept as it is. A config that cannot be read as
 * JSON is left alone (the write fails) rather than replaced. Written under Claude Code's own
 * lock on the file (proper-lockfile's `<file>.lock`), so neither loses the other's change.
 */
export async function recordTrust(folder: string, env: NodeJS.ProcessEnv): Promise<void> {
  const file = await globalConfigFile(env);
  const { lock } = (await import("proper-lockfile")).default;
  await mkdir(dirname(file), { recursive: true, mode: 0o700 }); // the lock is made beside it
  const release = await lock(file, {
    lockfilePath: `${file}.lock`,
    realpath: false,
    stale: 10_000,
    retries: { retries: 30, minTimeout: 20, maxTimeout: 200 },
  });
  try {
    await writeTrust(file, folder);
  } finally {
    await release();
  }
}

async function writeTrust(file: string, folder: string): Promise<void> {
  let config: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(await readFile(file, "utf8"));
    if (!isRecord(parsed)) throw new Error(`${file} does not hold a JSON object`);
    config = parsed;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const projects = isRecord(config.projects) ? config.projects : {};
  const record = isRecord(projects[folder]) ? projects[folder] : {};
  config.projects = { ...projects, [folder]: { ...record, hasTrustDialogAccepted: true } };
  await writeWhole(file, `${JSON.stringify(config, null, 2)}\n`, { private: true });
}
