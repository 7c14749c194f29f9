// Claude Code's own trust records, read and written by the rules of the installed CLI: a
// record for the folder, its repository, or a folder above it (within the repository), the
// sandbox switch, the switch that no record counts; and a grant that keeps the rest of the
// config and Claude Code's lock protocol.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  globalConfigFile,
  recordTrust,
  trustedByClaudeCode,
  trustedByClaudeCodeNow,
} from "../../../claude/trust-store.js";
import { projectContextPaths } from "../../../claude/project-context.js";

function world() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "acp-trust-store-")));
  const home = join(root, "home");
  const env = { HOME: home, CLAUDE_CONFIG_DIR: join(home, ".claude") };
  mkdirSync(env.CLAUDE_CONFIG_DIR, { recursive: true });
  const folder = (...parts: string[]) => {
    const path = join(root, ...parts);
    mkdirSync(path, { recursive: true });
    return path;
  };
  const trust = (...folders: string[]) =>
    writeFileSync(
      join(env.CLAUDE_CONFIG_DIR, ".claude.json"),
      JSON.stringify({
        numStartups: 3,
        projects: Object.fromEntries(folders.map((f) => [f, { hasTrustDialogAccepted: true }])),
      }),
    );
  return { root, env, folder, trust };
}

/** Both readers (the agent's, and the launch start's) give one answer. */
async function trusted(folder: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  const answer = await trustedByClaudeCode(folder, env);
  expect(trustedByClaudeCodeNow(folder, env)).toBe(answer);
  return answer;
}

describe("which folders Claude Code trusts", () => {
  it("none without a record", async () => {
    const { env, folder } = world();
    expect(await trusted(folder("project"), env)).toBe(false);
  });

  it("a folder with a record, and one below it outside any repository", async () => {
    const { env, folder, trust } = world();
    const parent = folder("work");
    trust(parent);
    expect(await trusted(parent, env)).toBe(true);
    expect(await trusted(folder("work", "a", "b"), env)).toBe(true);
    expect(await trusted(folder("elsewhere"), env)).toBe(false);
  });

  it("in a repository: the repository's record covers its folders; a record above the repository does not", async () => {
    const { env, folder, trust } = world();
    const repo = folder("outer", "repo");
    mkdirSync(join(repo, ".git"));
    trust(folder("outer"));
    expect(await trusted(folder("outer", "repo", "pkg"), env)).toBe(false);
    trust(repo);
    expect(await trusted(folder("outer", "repo", "pkg"), env)).toBe(true);
  });

  it("a record that is not exactly true does not count", async () => {
    const { env, folder } = world();
    const project = folder("project");
    writeFileSync(
      join(env.CLAUDE_CONFIG_DIR, ".claude.json"),
      JSON.stringify({ projects: { [project]: { hasTrustDialogAccepted: "yes" } } }),
    );
    expect(await trusted(project, env)).toBe(false);
  });

  it("CLAUDE_CODE_SANDBOXED trusts every folder; CLAUDE_CODE_IGNORE_PERSISTED_TRUST counts no record", async () => {
    const { env, folder, trust } = world();
    const project = folder("project");
    trust(project);
    expect(await trusted(project, { ...env, CLAUDE_CODE_SANDBOXED: "1" })).toBe(true);
    expect(await trusted(folder("x"), { ...env, CLAUDE_CODE_SANDBOXED: "1" })).toBe(true);
    expect(await trusted(project, { ...env, CLAUDE_CODE_IGNORE_PERSISTED_TRUST: "1" })).toBe(false);
  });

  it("an unreadable config trusts nothing", async () => {
    const { env, folder } = world();
    writeFileSync(join(env.CLAUDE_CONFIG_DIR, ".claude.json"), "{not json");
    expect(await trusted(folder("project"), env)).toBe(false);
  });
});

describe("where Claude Code keeps its records", () => {
  it("CLAUDE_CONFIG_DIR/.claude.json, named for a custom OAuth server when one is set; an older install's .config.json while it is the only one", async () => {
    const { env } = world();
    expect(await globalConfigFile(env)).toBe(join(env.CLAUDE_CONFIG_DIR, ".claude.json"));
    expect(await globalConfigFile({ ...env, CLAUDE_CODE_CUSTOM_OAUTH_URL: "https://x" })).toBe(
      join(env.CLAUDE_CONFIG_DIR, ".claude-custom-oauth.json"),
    );
    expect(await globalConfigFile({ HOME: env.HOME })).toBe(join(env.HOME, ".claude.json"));
    writeFileSync(join(env.CLAUDE_CONFIG_DIR, ".config.json"), "{}");
    expect(await globalConfigFile(env)).toBe(join(env.CLAUDE_CONFIG_DIR, ".config.json"));
  });
});

describe("a grant", () => {
  it("adds the record and keeps everything else of the config; the lock is gone after", async () => {
    const { env, folder, trust } = world();
    const other = folder("other");
    trust(other);
    const project = folder("project");
    await recordTrust(project, env);
    const file = join(env.CLAUDE_CONFIG_DIR, ".claude.json");
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({
      numStartups: 3,
      projects: {
        [other]: { hasTrustDialogAccepted: true },
        [project]: { hasTrustDialogAccepted: true },
      },
    });
    expect(existsSync(`${file}.lock`)).toBe(false);
    expect(await trusted(project, env)).toBe(true);
  });

  it("a config that is not JSON is never replaced: the grant fails", async () => {
    const { env, folder } = world();
    const file = join(env.CLAUDE_CONFIG_DIR, ".claude.json");
    writeFileSync(file, "{broken");
    await expect(recordTrust(folder("project"), env)).rejects.toThrow();
    expect(readFileSync(file, "utf8")).toBe("{broken");
  });
});

describe("the trust-sensitive files of a folder", () => {
  it("lists the folder's settings, MCP servers, instructions, subagents, commands and skills, then the instructions and skills above it, only those that exist, never the user's own ~/.claude", async () => {
    const { root, env, folder } = world();
    const project = folder("home", "code", "project");
    mkdirSync(join(project, ".claude", "agents"), { recursive: true });
    writeFileSync(join(project, ".claude", "settings.local.json"), "{}");
    writeFileSync(join(project, ".mcp.json"), "{}");
    writeFileSync(join(root, "home", "code", "CLAUDE.md"), "x");
    // The user's own folder: their settings and skills, not a project's.
    mkdirSync(join(env.CLAUDE_CONFIG_DIR, "skills"), { recursive: true });
    writeFileSync(join(env.CLAUDE_CONFIG_DIR, "CLAUDE.md"), "mine");
    expect(await projectContextPaths(project, env)).toEqual([
      join(project, ".claude", "settings.local.json"),
      join(project, ".mcp.json"),
      join(project, ".claude", "agents"),
      join(root, "home", "code", "CLAUDE.md"),
    ]);
  });
});
