// The settings the adapter reads itself before Claude Code starts
// (session/configuration/settings.ts): the user's, the project's and the local file, later files
// winning, as Claude Code reads them.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadAdapterSettings, settingsPaths } from "../../session/configuration/settings.js";
import { isolatedEnv } from "../support/in-process.js";

interface Files {
  user?: unknown;
  project?: unknown;
  local?: unknown;
}

/** A user config dir and a project holding `files`; returns the project's cwd and the env. */
function withFiles(files: Files): { cwd: string; env: NodeJS.ProcessEnv } {
  const env = isolatedEnv();
  const cwd = mkdtempSync(join(tmpdir(), "adapter-settings-"));
  mkdirSync(join(cwd, ".claude"));
  mkdirSync(env.CLAUDE_CONFIG_DIR!, { recursive: true });
  const write = (path: string, content: unknown) =>
    content !== undefined && writeFileSync(path, JSON.stringify(content));
  write(join(env.CLAUDE_CONFIG_DIR!, "settings.json"), files.user);
  write(join(cwd, ".claude", "settings.json"), files.project);
  write(join(cwd, ".claude", "settings.local.json"), files.local);
  return { cwd, env };
}

describe("env.ANTHROPIC_MODEL of the settings files", () => {
  it("is read from the last file that sets it", async () => {
    const { cwd, env } = withFiles({
      user: { env: { ANTHROPIC_MODEL: "haiku" } },
      project: { env: { ANTHROPIC_MODEL: "sonnet" } },
      local: { env: { OTHER: "1" } },
    });
    expect(await loadAdapterSettings(cwd, env)).toMatchObject({ envModel: "sonnet" });
  });

  it("is read when empty: it hides the agent's own", async () => {
    const { cwd, env } = withFiles({
      user: { env: { ANTHROPIC_MODEL: "haiku" } },
      local: { env: { ANTHROPIC_MODEL: "" } },
    });
    expect(await loadAdapterSettings(cwd, env)).toMatchObject({ envModel: "" });
  });

  it("is ignored when it is not a string, and the file's other settings still apply", async () => {
    const { cwd, env } = withFiles({
      project: { model: "sonnet", env: { ANTHROPIC_MODEL: 42 } },
    });
    const settings = await loadAdapterSettings(cwd, env);
    expect(settings.envModel).toBeUndefined();
    expect(settings.model).toBe("sonnet");
  });
});

describe("the setting sources the adapter reads", () => {
  const USER = {
    model: "haiku",
    env: { ANTHROPIC_MODEL: "claude-custom-1" },
    permissions: { defaultMode: "acceptEdits", disableBypassPermissionsMode: "disable" },
  };
  const PROJECT = { model: "sonnet", permissions: { disableAutoMode: "disable" } };
  const LOCAL = { permissions: { defaultMode: "plan" } };

  it("are the user's, the project's and the local file when none are chosen", async () => {
    const { cwd, env } = withFiles({ user: USER, project: PROJECT, local: LOCAL });
    expect(await loadAdapterSettings(cwd, env)).toEqual({
      defaultMode: "plan",
      autoDisabled: true,
      bypassDisabled: true,
      model: "sonnet",
      envModel: "claude-custom-1",
    });
  });

  it("with project and local, the user's defaultMode, disableBypassPermissionsMode, model and env.ANTHROPIC_MODEL do not apply", async () => {
    const { cwd, env } = withFiles({ user: USER });
    expect(await loadAdapterSettings(cwd, env, ["project", "local"])).toEqual({
      defaultMode: "default",
      autoDisabled: false,
      bypassDisabled: false,
    });
  });

  it("with user only, the project's and the local file do not apply", async () => {
    const { cwd, env } = withFiles({ user: USER, project: PROJECT, local: LOCAL });
    expect(await loadAdapterSettings(cwd, env, ["user"])).toEqual({
      defaultMode: "acceptEdits",
      autoDisabled: false,
      bypassDisabled: true,
      model: "haiku",
      envModel: "claude-custom-1",
    });
  });

  it("with none, no file applies: the defaults", async () => {
    const { cwd, env } = withFiles({ user: USER, project: PROJECT, local: LOCAL });
    expect(await loadAdapterSettings(cwd, env, [])).toEqual({
      defaultMode: "default",
      autoDisabled: false,
      bypassDisabled: false,
    });
  });

  it("are read in Claude Code's order, later winning, whatever order they are given in", async () => {
    const { cwd, env } = withFiles({ user: USER, project: PROJECT, local: LOCAL });
    const paths = settingsPaths(cwd, env, ["local", "user", "project", "local"]);
    expect(paths).toEqual([
      join(env.CLAUDE_CONFIG_DIR!, "settings.json"),
      join(cwd, ".claude", "settings.json"),
      join(cwd, ".claude", "settings.local.json"),
    ]);
    expect(await loadAdapterSettings(cwd, env, ["local", "user"])).toMatchObject({
      defaultMode: "plan",
      model: "haiku",
    });
  });
});
